// The approval flow through the pipeline (in memory, both eras): input_required with a URL elicitation on
// 2026-07-28, a tool error that says where to approve on legacy sessions, the client's own "accept" never counting
// (G1), and a retry refused after a change of arguments, a second redemption or expiry (G2).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { approvals, type ApprovalEvent, type ApprovalsOptions } from '../src/policy/approvals/index.js';
import type { Caller } from '../src/protocol/index.js';
import {
  connect,
  firstText,
  initializeLegacy,
  isResponseTo,
  isServerRequest,
  modern,
  testServer,
  type RawClient,
  type WireMessage,
} from './support/harness.js';

const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const URL_MODE = { [CAPABILITIES]: { elicitation: { url: {} } } };
const BASE = 'https://approve.example/approvals';
const APPROVER: Caller = Object.freeze({
  subject: 'zoe',
  via: 'bearer',
  scopes: Object.freeze(['approvals:decide']),
});

function setup(options: Partial<ApprovalsOptions> = {}) {
  let now = 1_000_000;
  const events: ApprovalEvent[] = [];
  const policy = approvals({
    approvalUrl: BASE,
    now: () => now,
    onEvent: (event) => events.push(event),
    ...options,
  });
  const server = testServer();
  policy.install(server);
  const runs: JsonObject[] = [];
  server.tool({
    name: 'remove',
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    handler: (args: { path?: string }) => {
      runs.push(args);
      return `removed ${String(args.path)}`;
    },
  });
  server.tool({ name: 'look', annotations: { readOnlyHint: true }, handler: () => 'looked' });
  server.tool({
    name: 'quick',
    timeoutMs: 1,
    handler: () => {
      runs.push({ quick: true });
      return 'quick';
    },
  });
  return { policy, server, runs, events, advance: (ms: number) => (now += ms) };
}

/** The approval id from an input_required answer (the last path segment of the elicitation URL). */
function approvalOf(response: WireMessage): { id: string; state: string } {
  assert.equal(response.result?.resultType, 'input_required', JSON.stringify(response));
  const request = (response.result?.inputRequests as JsonObject).approval as JsonObject;
  const params = request.params as JsonObject;
  assert.equal(params.mode, 'url');
  const url = String(params.url);
  assert.ok(url.startsWith(`${BASE}/`), url);
  return { id: url.slice(BASE.length + 1), state: String(response.result?.requestState) };
}

const retry = (args: JsonObject, state: string, action = 'accept'): JsonObject =>
  modern(
    { name: 'remove', arguments: args, inputResponses: { approval: { action } }, requestState: state },
    URL_MODE,
  );

describe('approvals flow on 2026-07-28 (memory transport)', () => {
  it('G4 input_required with the approval URL; approved → the retry runs the tool once', async () => {
    const { policy, server, runs, events } = setup();
    const client = await connect(server);
    const args = { path: '/tmp/a' };
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: args }, URL_MODE));
    const { id, state } = approvalOf(first);
    assert.match(id, /^[A-Za-z0-9_-]{24}$/);
    const waiting = await client.request('tools/call', retry(args, state));
    assert.equal(approvalOf(waiting).id, id, 'still pending: asked again, same approval');
    await policy.approve(APPROVER, id, 'looks fine');
    const done = await client.request('tools/call', retry(args, state));
    assert.equal(firstText(done), 'removed /tmp/a');
    assert.deepEqual(runs, [args]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['requested', 'approved', 'redeemed'],
    );
  });

  it("G1 the client's in-band accept does not approve", async () => {
    const { server, runs } = setup();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const { state } = approvalOf(first);
    for (let round = 0; round < 3; round++) {
      const again = await client.request('tools/call', retry({}, state));
      assert.equal(again.result?.resultType, 'input_required');
    }
    assert.deepEqual(runs, []);
  });

  it('G1 with allowSelfApproval the accept counts, and is recorded as the caller approving', async () => {
    const { server, runs, events } = setup({ allowSelfApproval: true });
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const done = await client.request('tools/call', retry({}, approvalOf(first).state));
    assert.equal(firstText(done), 'removed undefined');
    assert.equal(runs.length, 1);
    const approved = events.find((event) => event.type === 'approved');
    assert.equal(approved?.approval.approver, 'local');
  });

  it('G2 a second redemption is refused with a tool error, and the tool ran once', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const { id, state } = approvalOf(first);
    await policy.approve(APPROVER, id);
    assert.equal(firstText(await client.request('tools/call', retry({}, state))), 'removed undefined');
    const again = await client.request('tools/call', retry({}, state));
    assert.equal(again.result?.isError, true);
    assert.equal(
      firstText(again),
      `Tool "remove" was not run again: approval ${id} was already used; call the tool again (without this requestState) to ask for a new one`,
    );
    assert.equal(runs.length, 1);
  });

  it('G2 changed arguments: the sealed state refuses them, and without it they need their own approval', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    const first = await client.request(
      'tools/call',
      modern({ name: 'remove', arguments: { path: '/tmp/a' } }, URL_MODE),
    );
    const { id, state } = approvalOf(first);
    await policy.approve(APPROVER, id);
    const changed = await client.request('tools/call', retry({ path: '/etc/passwd' }, state));
    assert.deepEqual(changed.error, {
      code: -32602,
      message: 'Invalid params: requestState belongs to a different call; send the request again without it',
    });
    const fresh = await client.request(
      'tools/call',
      modern({ name: 'remove', arguments: { path: '/etc/passwd' } }, URL_MODE),
    );
    assert.notEqual(approvalOf(fresh).id, id);
    assert.deepEqual(runs, []);
  });

  it('G2 an approval that expired before its retry is refused (injected clock)', async () => {
    const { policy, server, runs, events, advance } = setup({ ttlMs: 60_000 });
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const { id, state } = approvalOf(first);
    await policy.approve(APPROVER, id);
    advance(60_000);
    const late = await client.request('tools/call', retry({}, state));
    assert.equal(
      firstText(late),
      `Tool "remove" was not run: approval ${id} expired; call the tool again (without this requestState) to ask for a new one`,
    );
    assert.deepEqual(runs, []);
    assert.ok(events.some((event) => event.type === 'expired' && event.approval.id === id));
  });

  it('a denied approval ends the call with a tool error carrying the reason', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const { id, state } = approvalOf(first);
    await policy.deny(APPROVER, id, 'not on a Friday');
    const denied = await client.request('tools/call', retry({}, state));
    assert.equal(denied.result?.isError, true);
    assert.equal(firstText(denied), `Tool "remove" was not run: approval ${id} was denied (not on a Friday)`);
    assert.deepEqual(runs, []);
  });

  it('a decline on the client ends the call even after an approver approved; nothing runs', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }, URL_MODE));
    const { id, state } = approvalOf(first);
    await policy.approve(APPROVER, id);
    const dismissed = await client.request('tools/call', retry({}, state, 'decline'));
    assert.equal(
      firstText(dismissed),
      `The approval of tool "remove" was dismissed on the client; nothing ran (approval ${id} stays open at ${BASE}/${id})`,
    );
    assert.deepEqual(runs, []);
  });

  it('G3 a read-only tool of a trusted server runs without approval', async () => {
    const { server } = setup();
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'look', arguments: {} }, URL_MODE));
    assert.equal(firstText(response), 'looked');
  });

  it('a client without URL-mode elicitation gets a tool error naming the page, and its plain retry runs once approved', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    const first = await client.request('tools/call', modern({ name: 'remove', arguments: {} }));
    assert.equal(first.result?.isError, true);
    const id = /approval ([A-Za-z0-9_-]{24})\)/.exec(firstText(first))?.[1] ?? '';
    assert.equal(
      firstText(first),
      `Tool "remove" was not run: it needs a human's approval (approval ${id}). An approver opens ${BASE}/${id} to approve or deny it; once approved, call the tool again with the same arguments.`,
    );
    await policy.approve(APPROVER, id);
    assert.equal(
      firstText(await client.request('tools/call', modern({ name: 'remove', arguments: {} }))),
      'removed undefined',
    );
    assert.equal(runs.length, 1);
  });
});

describe('approvals flow on a legacy session (memory transport)', () => {
  it('G4 a tool error says where to approve; the same call again runs once approved, and not a second time', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const call = () => client.request('tools/call', { name: 'remove', arguments: { path: '/x' } });
    const first = await call();
    const id = /approval ([A-Za-z0-9_-]{24})\)/.exec(firstText(first))?.[1] ?? '';
    assert.ok(firstText(first).includes(`${BASE}/${id}`));
    assert.equal((await call()).result?.isError, true, 'still pending');
    await policy.approve(APPROVER, id);
    assert.equal(firstText(await call()), 'removed /x');
    const third = await call();
    assert.equal(third.result?.isError, true, 'a new approval is asked for');
    assert.notEqual(/approval ([A-Za-z0-9_-]{24})\)/.exec(firstText(third))?.[1], id);
    assert.equal(runs.length, 1);
  });
});

describe('approvals flow on a legacy session whose client takes URL elicitation', () => {
  const URL_SESSION = { elicitation: { url: {} } };

  /** Starts the call and answers the approval elicitation with `action`; resolves with the id and a wait for the answer. */
  async function started(client: RawClient, action: string, id = 7) {
    client.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name: 'remove', arguments: { path: '/y' } },
    });
    const asked = await client.waitFor(isServerRequest('elicitation/create'));
    const params = asked.params as JsonObject;
    assert.equal(params.mode, 'url');
    const approvalId = String(params.url).slice(BASE.length + 1);
    assert.equal(params.elicitationId, approvalId);
    client.send({ jsonrpc: '2.0', id: asked.id as number, result: { action } });
    return { approvalId, answer: () => client.waitFor(isResponseTo(id)) };
  }

  it('G4 the approval URL goes to the client, and the call goes on once an approver approves', async () => {
    const { policy, server, runs, events } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', URL_SESSION);
    const { approvalId, answer } = await started(client, 'accept');
    await client.flush();
    assert.deepEqual(runs, [], 'nothing ran while waiting');
    await policy.approve(APPROVER, approvalId);
    assert.equal(firstText(await answer()), 'removed /y');
    assert.deepEqual(runs, [{ path: '/y' }]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['requested', 'approved', 'redeemed'],
    );
  });

  it('G1 the client accepting the URL is not an approval: a denial while waiting ends the call', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', URL_SESSION);
    const { approvalId, answer } = await started(client, 'accept');
    await client.flush();
    await policy.deny(APPROVER, approvalId, 'no');
    assert.equal(
      firstText(await answer()),
      `Tool "remove" was not run: approval ${approvalId} was denied (no)`,
    );
    assert.deepEqual(runs, []);
  });

  it('the client dismissing the URL ends the call with a tool error; nothing runs', async () => {
    const { server, runs } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', URL_SESSION);
    const { approvalId, answer } = await started(client, 'decline');
    assert.equal(
      firstText(await answer()),
      `The approval of tool "remove" was dismissed on the client; nothing ran (approval ${approvalId} stays open at ${BASE}/${approvalId})`,
    );
    assert.deepEqual(runs, []);
  });

  it("the wait ends with the call's own time limit, saying where to approve and to call again", async () => {
    const { server, runs } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', URL_SESSION);
    client.send({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'quick', arguments: {} } });
    const asked = await client.waitFor(isServerRequest('elicitation/create'));
    client.send({ jsonrpc: '2.0', id: asked.id as number, result: { action: 'accept' } });
    const answer = await client.waitFor(isResponseTo(9));
    assert.match(
      firstText(answer),
      /^Tool "quick" was not run: it needs a human's approval \(approval [A-Za-z0-9_-]{24}\)\./,
    );
    assert.deepEqual(runs, []);
  });

  it('a cancelled call stops waiting and never runs, even if approved later', async () => {
    const { policy, server, runs } = setup();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', URL_SESSION);
    const { approvalId } = await started(client, 'accept', 11);
    client.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 11, reason: 'user' },
    });
    await client.flush();
    await policy.approve(APPROVER, approvalId);
    await client.flush();
    assert.deepEqual(runs, []);
    assert.equal(
      client
        .received()
        .some((message) => !Array.isArray(message) && message.id === 11 && message.method === undefined),
      false,
    );
  });
});
