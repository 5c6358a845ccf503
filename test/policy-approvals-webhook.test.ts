// The approvals webhook over loopback: a new pending approval is POSTed with a timestamp and an HMAC-SHA256
// signature, and a signed decision sent back to the admin endpoint decides it; a bad signature, a stale timestamp,
// a replay and the caller deciding its own call (G1) are refused.

import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  approvals,
  approvalsAdmin,
  type Approval,
  type Approvals,
} from '../src/policy/approvals/index.js';
import { silentLogger } from '../src/server/index.js';
import { connect, firstText, modern, testServer, type RawClient } from './support/harness.js';

const SECRET = 'a-webhook-secret-of-at-least-32-bytes!';
const sign = (timestamp: number, body: string): string =>
  `v1=${createHmac('sha256', SECRET).update(`${timestamp}.${body}`).digest('hex')}`;

interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

describe('approvals webhook', () => {
  let hook: Server;
  let admin: Server;
  let base: string;
  let policy: Approvals;
  let client: RawClient;
  const now = Date.now();
  const received: Received[] = [];
  let arrived: (() => void) | undefined;

  before(async () => {
    hook = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body });
        response.writeHead(204).end();
        arrived?.();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    admin = createServer();
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/approvals`;
    policy = approvals({
      approvalUrl: base,
      now: () => now,
      logger: silentLogger,
      webhook: { url: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`, secret: SECRET },
    });
    admin.on('request', approvalsAdmin(policy, { authenticate: () => ({ status: 401, message: 'no' }) }));
    const server = testServer();
    policy.install(server);
    server.tool({
      name: 'deploy',
      inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      handler: () => 'deployed',
    });
    client = await connect(server);
  });
  after(async () => {
    await new Promise((resolve) => admin.close(resolve));
    await new Promise((resolve) => hook.close(resolve));
  });

  /** Makes a pending approval and waits for its webhook POST. */
  async function announced(): Promise<{ id: string; post: Received; args: { n: number } }> {
    const waiting = new Promise<void>((resolve) => (arrived = resolve));
    const args = { n: received.length };
    const answer = await client.request('tools/call', modern({ name: 'deploy', arguments: args }));
    const id = /approval ([A-Za-z0-9_-]{24})\)/.exec(firstText(answer))?.[1] ?? '';
    await waiting;
    const post = received.at(-1) as Received;
    return { id, post, args };
  }

  const decide = (body: string, timestamp: number, signature = sign(timestamp, body)) =>
    fetch(`${base}/webhook`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [TIMESTAMP_HEADER]: String(timestamp),
        [SIGNATURE_HEADER]: signature,
      },
      body,
    });

  it('announces a new pending approval, signed over its timestamp and body', async () => {
    const { id, post } = await announced();
    const timestamp = Number(post.headers[TIMESTAMP_HEADER]);
    assert.equal(Math.floor(now / 1000), timestamp);
    assert.equal(post.headers[SIGNATURE_HEADER], sign(timestamp, post.body));
    const payload = JSON.parse(post.body) as { type: string; approval: Approval; url: string };
    assert.equal(payload.type, 'approval.requested');
    assert.equal(payload.approval.id, id);
    assert.equal(payload.approval.tool, 'deploy');
    assert.equal(payload.url, `${base}/${id}`);
  });

  it('a signed decision approves; its replay, a bad signature and a stale timestamp are refused', async () => {
    const { id, args } = await announced();
    const body = JSON.stringify({ id, decision: 'approve', approver: 'ops-lead', reason: 'chat ok' });
    const at = Math.floor(now / 1000);
    const bad = await decide(body, at, sign(at, body.replace('approve', 'deny')));
    assert.equal(bad.status, 401);
    assert.deepEqual(await bad.json(), { error: 'webhook signature does not match' });
    const stale = await decide(body, at - 301);
    assert.deepEqual(await stale.json(), { error: 'webhook timestamp is outside the allowed window' });
    const ok = await decide(body, at);
    assert.equal(ok.status, 200);
    const approval = ((await ok.json()) as { approval: Approval }).approval;
    assert.equal(approval.status, 'approved');
    assert.equal(approval.approver, 'ops-lead');
    const replay = await decide(body, at);
    assert.equal(replay.status, 401);
    assert.deepEqual(await replay.json(), { error: 'webhook was already received (replay)' });
    const done = await client.request('tools/call', modern({ name: 'deploy', arguments: args }));
    assert.equal(firstText(done), 'deployed');
  });

  it('G1 a webhook decision naming the caller as approver is refused', async () => {
    const { id } = await announced();
    const body = JSON.stringify({ id, decision: 'approve', approver: 'local' });
    const refused = await decide(body, Math.floor(now / 1000));
    assert.equal(refused.status, 403);
    assert.deepEqual(await refused.json(), { error: 'the caller of a tool may not decide its own approval' });
  });
});
