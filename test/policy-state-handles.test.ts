// State handles belong to the principal that got them (threats B6 and B7), over real HTTP on loopback, both eras:
// a task id, a legacy session id and an MRTR requestState minted for Alice are refused to Bob exactly as unknown or
// foreign ones; requestState is also bound to the tool, a digest of its arguments and a time limit, and one flipped
// byte breaks it.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger, type Caller } from '../src/index.js';
import { listenHttp, type HttpListening, type HttpRequestInfo } from '../src/transports/http/index.js';
import { bearer, callTool, legacySession, modernRequest } from './support/http-mcp.js';

const caller = (subject: string, via = 'bearer'): Caller =>
  Object.freeze({ subject, via, scopes: Object.freeze(['tools']) });
const CALLERS = new Map<string, Caller>([
  ['alice-token', caller('alice')],
  ['bob-token', caller('bob')],
  // The same subject through another authenticator is another principal.
  ['alice-key', caller('alice', 'api-key')],
]);
const authenticate = (request: HttpRequestInfo) =>
  CALLERS.get(/^Bearer (\S+)$/.exec(request.header('authorization') ?? '')?.[1] ?? '') ?? { status: 401 };

const NAME_SCHEMA = { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] };
const TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
const ELICITATION = { elicitation: {} };

let http: HttpListening;
let url: string;
let greeted = 0;

before(async () => {
  const server = new McpServer(
    { name: 'handles', version: '1.0.0' },
    { logger: silentLogger, requestStateTtlMs: 60_000 },
  );
  server.tool({
    name: 'greet',
    inputSchema: { type: 'object', properties: { lang: { type: 'string' } } },
    handler: async (args: { lang?: string }, ctx) => {
      const answer = await ctx.elicit({ message: 'Your name?', requestedSchema: NAME_SCHEMA });
      greeted++;
      return `${args.lang === 'fr' ? 'Bonjour' : 'Hello'} ${String(answer.content?.name)}`;
    },
  });
  server.tool({ name: 'slow', task: 'optional', handler: () => 'done' });
  http = await listenHttp(server, { port: 0, authenticate });
  url = http.url;
});
after(() => http.close());

const rejected = (why: string) => ({
  code: -32602,
  message: `Invalid params: requestState ${why}; send the request again without it`,
});

/** Alice's first round: the tool asks for her name and hands back a sealed requestState. */
async function aliceState(lang = 'en'): Promise<string> {
  const first = await callTool(url, 'greet', { lang }, bearer('alice-token'), {}, ELICITATION);
  assert.equal(first.body?.result?.resultType, 'input_required', first.text);
  const state = first.body?.result?.requestState;
  assert.equal(typeof state, 'string');
  return state as string;
}

const retry = (token: string, state: string, lang = 'en') =>
  callTool(
    url,
    'greet',
    { lang },
    bearer(token),
    { requestState: state, inputResponses: { elicitation: { action: 'accept', content: { name: 'Ada' } } } },
    ELICITATION,
  );

describe('B7 MRTR requestState: tampering and replay', () => {
  it('B7 the principal it was issued to completes the call with it', async () => {
    const state = await aliceState();
    const first = await callTool(url, 'greet', { lang: 'en' }, bearer('alice-token'), {}, ELICITATION);
    const key = Object.keys((first.body?.result?.inputRequests ?? {}) as object)[0]!;
    const done = await callTool(
      url,
      'greet',
      { lang: 'en' },
      bearer('alice-token'),
      { requestState: state, inputResponses: { [key]: { action: 'accept', content: { name: 'Ada' } } } },
      ELICITATION,
    );
    assert.deepEqual(done.body?.result?.content, [{ type: 'text', text: 'Hello Ada' }], done.text);
  });

  it('B7 replayed by another principal it is rejected, and the handler does not finish for them', async () => {
    const state = await aliceState();
    const before = greeted;
    const bob = await retry('bob-token', state);
    assert.equal(bob.status, 200);
    assert.deepEqual(bob.body?.error, rejected('was issued to another caller'));
    // The same subject through another authenticator is not Alice either.
    const key = await retry('alice-key', state);
    assert.deepEqual(key.body?.error, rejected('was issued to another caller'));
    assert.equal(greeted, before);
  });

  it('B7 replayed on the same tool with other arguments it is rejected (the state binds their digest)', async () => {
    const state = await aliceState('en');
    const other = await retry('alice-token', state, 'fr');
    assert.deepEqual(other.body?.error, rejected('belongs to a different call'));
  });

  it('B7 one flipped byte anywhere is rejected', async () => {
    const state = await aliceState();
    for (const at of [4, Math.floor(state.length / 2), state.length - 2]) {
      const flipped = state.slice(0, at) + (state[at] === 'A' ? 'B' : 'A') + state.slice(at + 1);
      const answer = await retry('alice-token', flipped);
      assert.equal(answer.body?.error?.code, -32602, `flip at ${at}`);
      assert.match(answer.body?.error?.message ?? '', /requestState (failed verification|is malformed)/);
    }
  });

  it('B7 after its time limit it is rejected', async (t) => {
    const state = await aliceState();
    t.mock.timers.enable({ apis: ['Date'], now: Date.now() + 61_000 });
    const late = await retry('alice-token', state);
    t.mock.timers.reset();
    assert.deepEqual(late.body?.error, rejected('has expired'));
  });
});

describe('B6 state handles: task ids and legacy sessions belong to their principal', () => {
  it('B6 a task id minted for Alice is unknown to Bob (the same error as a made-up id), and has ≥ 128 bits', async () => {
    const created = await callTool(url, 'slow', {}, bearer('alice-token'), {}, TASKS);
    assert.equal(created.body?.result?.resultType, 'task', created.text);
    const taskId = created.body?.result?.taskId as string;
    assert.match(taskId, /^[A-Za-z0-9_-]{22,}$/); // 22 base64url characters carry 132 bits
    const mine = await modernRequest(url, 'tasks/get', { taskId }, bearer('alice-token'), TASKS);
    assert.equal(mine.body?.result?.taskId, taskId, mine.text);
    const bobs = await modernRequest(url, 'tasks/get', { taskId }, bearer('bob-token'), TASKS);
    const madeUp = await modernRequest(
      url,
      'tasks/get',
      { taskId: 'A'.repeat(22) },
      bearer('bob-token'),
      TASKS,
    );
    assert.ok(bobs.body?.error !== undefined, bobs.text);
    // Byte for byte the answer to a made-up id, but for the id itself.
    assert.equal(
      JSON.stringify(bobs.body?.error).replaceAll(taskId, 'ID'),
      JSON.stringify(madeUp.body?.error).replaceAll('A'.repeat(22), 'ID'),
    );
    for (const method of ['tasks/cancel', 'tasks/update']) {
      const answer = await modernRequest(url, method, { taskId }, bearer('bob-token'), TASKS);
      assert.equal(answer.body?.error?.code, bobs.body?.error?.code, `${method}: ${answer.text}`);
    }
  });

  it('B6 a legacy session id presented with another principal’s credentials is refused like an unknown one', async () => {
    const alice = await legacySession(url, bearer('alice-token'));
    assert.match(alice.sessionId, /^[A-Za-z0-9_-]{22,}$/);
    const own = await alice.request('tools/list', {});
    assert.equal(own.status, 200, own.text);
    const bob = await alice.request('tools/list', {}, bearer('bob-token'));
    const unknown = await alice.request(
      'tools/list',
      {},
      { ...bearer('bob-token'), 'mcp-session-id': 'A'.repeat(22) },
    );
    assert.equal(bob.status, 404, bob.text);
    assert.deepEqual(bob.body?.error, unknown.body?.error);
    assert.equal(bob.status, unknown.status);
    // Alice's session goes on.
    assert.equal((await alice.request('tools/list', {})).status, 200);
  });
});
