// The approval page and the JSON admin API over real HTTP on loopback: security headers, every caller-controlled
// value escaped, forms guarded by a token bound to the approver and the approval (CSRF), bounded bodies, and the
// approver told apart from the caller (G1).

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { approvals, approvalsAdmin, type Approvals } from '../src/policy/approvals/index.js';
import type { Caller } from '../src/protocol/index.js';
import type { HttpRequestInfo } from '../src/transports/http/index.js';
import { connect, firstText, modern, testServer, type RawClient } from './support/harness.js';

const approver = (subject: string, scopes = ['approvals:decide']): Caller =>
  Object.freeze({ subject, via: 'api-key', scopes: Object.freeze(scopes) });
const CALLERS: Record<string, Caller> = {
  zoe: approver('zoe'),
  yan: approver('yan'),
  self: approver('local'), // the memory connection's caller, with the decide scope
};
const authenticate = (request: HttpRequestInfo) => {
  const key = /^Bearer (\S+)$/.exec(request.header('authorization') ?? '')?.[1];
  return (
    (key === undefined ? undefined : CALLERS[key]) ?? {
      status: 401,
      message: 'Unauthorized',
      headers: { 'www-authenticate': 'Bearer' },
    }
  );
};
const HOSTILE = '</pre><script>alert("x")</script><img src=x onerror=alert(1)>&amp;\'';

describe('approvals admin: page and JSON API', () => {
  let admin: Server;
  let base: string;
  let policy: Approvals;
  let client: RawClient;
  let now = Date.now();

  before(async () => {
    admin = createServer();
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/approvals`;
    policy = approvals({ approvalUrl: base });
    admin.on('request', approvalsAdmin(policy, { authenticate, now: () => now }));
    const server = testServer();
    policy.install(server);
    server.tool({ name: 'remove', handler: () => 'removed' });
    client = await connect(server);
  });
  after(() => new Promise((resolve) => admin.close(resolve)));

  /** A new pending approval (the call is answered with a tool error naming it). */
  async function pending(args: Record<string, unknown> = { path: HOSTILE }): Promise<string> {
    const answer = await client.request(
      'tools/call',
      modern({ name: 'remove', arguments: { ...args, n: Math.random() } }),
    );
    const id = /approval ([A-Za-z0-9_-]{24})\)/.exec(firstText(answer))?.[1];
    assert.ok(id !== undefined, firstText(answer));
    return id;
  }

  const get = (path: string, key?: string) =>
    fetch(`${base}${path}`, { headers: key === undefined ? {} : { authorization: `Bearer ${key}` } });
  const post = (path: string, key: string, body: string, type: string, extra: Record<string, string> = {}) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': type, ...extra },
      body,
    });
  const FORM = 'application/x-www-form-urlencoded';

  async function tokenOf(id: string, key: string): Promise<string> {
    const html = await (await get(`/${id}`, key)).text();
    const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
    assert.ok(token !== undefined, html);
    return token;
  }

  it('the page carries strict headers and escapes the arguments', async () => {
    const id = await pending();
    const response = await get(`/${id}`, 'zoe');
    assert.equal(response.status, 200);
    assert.equal(
      response.headers.get('content-security-policy'),
      "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.equal(response.headers.get('cache-control'), 'no-store');
    assert.equal(response.headers.get('x-frame-options'), 'DENY');
    const html = await response.text();
    assert.ok(!html.includes('<script>'), 'no script tag survives');
    assert.ok(!html.includes('<img'), 'no img tag survives');
    assert.ok(html.includes('&lt;/pre&gt;&lt;script&gt;alert(\\&quot;x\\&quot;)&lt;/script&gt;'), html);
    assert.ok(html.includes('&amp;amp;&#39;'));
    const list = await (await get('', 'zoe')).text();
    assert.ok(list.includes(`href="/approvals/${id}"`));
  });

  it('a form with its token approves; the same call then runs once', async () => {
    const id = await pending({ path: '/ok' });
    const token = await tokenOf(id, 'zoe');
    const response = await post(
      `/${id}`,
      'zoe',
      new URLSearchParams({ token, decision: 'approve', reason: 'fine' }).toString(),
      FORM,
    );
    assert.equal(response.status, 200);
    const html = await response.text();
    assert.ok(html.includes('Approved: the caller may now retry the call.'));
    assert.ok(!html.includes('<form'), 'no form once decided');
    const approval = await policy.get(CALLERS.zoe as Caller, id);
    assert.equal(approval.status, 'approved');
    assert.equal(approval.approver, 'zoe');
    assert.equal(approval.reason, 'fine');
  });

  it('CSRF: no token, another approver’s token, an expired token and a cross-origin post are refused', async () => {
    const id = await pending();
    const form = (token: string) => new URLSearchParams({ token, decision: 'approve' }).toString();
    const refused = 'the form has expired or was not issued to you; open the approval page again';
    const none = await post(`/${id}`, 'zoe', 'decision=approve', FORM);
    assert.equal(none.status, 403);
    assert.ok((await none.text()).includes(refused));
    const yans = await tokenOf(id, 'yan');
    assert.equal((await post(`/${id}`, 'zoe', form(yans), FORM)).status, 403);
    const other = await pending();
    assert.equal(
      (await post(`/${other}`, 'zoe', form(await tokenOf(id, 'zoe')), FORM)).status,
      403,
      'bound to the approval',
    );
    const token = await tokenOf(id, 'zoe');
    now += 15 * 60_000 + 1;
    try {
      assert.equal((await post(`/${id}`, 'zoe', form(token), FORM)).status, 403);
    } finally {
      now -= 15 * 60_000 + 1;
    }
    const cross = await post(`/${id}`, 'zoe', form(token), FORM, { origin: 'https://evil.example' });
    assert.equal(cross.status, 403);
    assert.ok((await cross.text()).includes('cross-origin requests are refused'));
    assert.equal((await policy.get(CALLERS.zoe as Caller, id)).status, 'pending');
  });

  it('G1 the caller may not decide its own approval on the page or the API', async () => {
    const id = await pending();
    const token = await tokenOf(id, 'self');
    const page = await post(
      `/${id}`,
      'self',
      new URLSearchParams({ token, decision: 'approve' }).toString(),
      FORM,
    );
    assert.equal(page.status, 403);
    assert.ok((await page.text()).includes('the caller of a tool may not decide its own approval'));
    const api = await post(`/api/${id}/approve`, 'self', '{}', 'application/json');
    assert.equal(api.status, 403);
    assert.deepEqual(await api.json(), { error: 'the caller of a tool may not decide its own approval' });
  });

  it('the JSON API: exact errors for a missing credential, media type, size, unknown id and a second decision', async () => {
    const id = await pending();
    const anonymous = await get('/api');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.headers.get('www-authenticate'), 'Bearer');
    assert.deepEqual(await anonymous.json(), { error: 'Unauthorized' });
    const plain = await post(`/api/${id}/approve`, 'zoe', '{}', 'text/plain');
    assert.equal(plain.status, 415);
    assert.deepEqual(await plain.json(), { error: 'send application/json' });
    const big = await post(
      `/api/${id}/deny`,
      'zoe',
      JSON.stringify({ reason: 'x'.repeat(20_000) }),
      'application/json',
    );
    assert.equal(big.status, 413);
    assert.deepEqual(await big.json(), { error: 'the body is too large' });
    const long = await post(
      `/api/${id}/deny`,
      'zoe',
      JSON.stringify({ reason: 'x'.repeat(501) }),
      'application/json',
    );
    assert.deepEqual(await long.json(), { error: 'reason is longer than 500 characters' });
    const control = await post(
      `/api/${id}/deny`,
      'zoe',
      JSON.stringify({ reason: 'a\u001b[31mb' }),
      'application/json',
    );
    assert.deepEqual(await control.json(), { error: 'reason may not contain control or format characters' });
    const unknown = await post(`/api/${'A'.repeat(24)}/approve`, 'zoe', '{}', 'application/json');
    assert.equal(unknown.status, 404);
    assert.deepEqual(await unknown.json(), { error: `no approval "${'A'.repeat(24)}"` });
    const denied = await post(`/api/${id}/deny`, 'zoe', '{"reason":"no"}', 'application/json');
    assert.equal(((await denied.json()) as { approval: { status: string } }).approval.status, 'denied');
    const again = await post(`/api/${id}/approve`, 'zoe', '{}', 'application/json');
    assert.equal(again.status, 409);
    assert.deepEqual(await again.json(), { error: `approval ${id} is denied, not pending` });
    const status = await get('/api?status=sideways', 'zoe');
    assert.deepEqual(await status.json(), {
      error: 'status must be one of pending, approved, denied, expired, redeemed',
    });
  });
});
