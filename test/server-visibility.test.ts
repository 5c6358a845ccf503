// Issue 14: per-caller visibility through McpServer — lists filtered before pagination, unseen entries unknown,
// cacheScope "private" (F8) — and one clock: a request's time limit comes from what it runs.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import {
  LOCAL_CALLER,
  type Caller,
  type MessageExtra,
  type SendOptions,
  type TransportFacts,
} from '../src/protocol/index.js';
import type { Target } from '../src/index.js';
import { TIME_LIMIT_MARGIN_MS } from '../src/server/intake.js';
import { modern, testServer } from './support/harness.js';

const caller = (subject: string, scopes: string[]): Caller =>
  Object.freeze({ subject, via: 'bearer', scopes: Object.freeze(scopes) });

const MEMORY: TransportFacts = Object.freeze({ kind: 'memory' });

/** Sends one request straight into a connection with its own extra, and resolves with the final answer. */
function ask(
  server: ReturnType<typeof testServer>,
  who: Caller,
  method: string,
  params: JsonObject,
  more: Partial<MessageExtra> = {},
): Promise<{ message: JsonObject; options: SendOptions }> {
  const connection = server.createConnection(undefined, { legacy: false, shared: true });
  return new Promise((resolve) => {
    connection.receiveMessage(
      { kind: 'request', message: { jsonrpc: '2.0', id: 1, method, params } },
      {
        auth: who,
        transport: MEMORY,
        reply: (message, options) => {
          if (options.final === true) resolve({ message: JSON.parse(message) as JsonObject, options });
        },
        ...more,
      },
    );
  });
}

/** Opens a subscriptions/listen request as `who`; every message the server sends about it goes to `onMessage`. */
function listenAs(
  server: ReturnType<typeof testServer>,
  who: Caller,
  notifications: JsonObject,
  onMessage: (message: JsonObject) => void,
): void {
  const connection = server.createConnection(undefined, { legacy: false, shared: true });
  connection.receiveMessage(
    {
      kind: 'request',
      message: {
        jsonrpc: '2.0',
        id: 'listen',
        method: 'subscriptions/listen',
        params: modern({ notifications }),
      },
    },
    { auth: who, transport: MEMORY, reply: (message) => onMessage(JSON.parse(message) as JsonObject) },
  );
}

/** tools/list walked to the end: every name, every page's cache scope, and the cursors used. */
async function walk(
  server: ReturnType<typeof testServer>,
  who: Caller,
): Promise<{ names: string[]; scopes: string[]; pages: number }> {
  const names: string[] = [];
  const scopes: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const { message } = await ask(server, who, 'tools/list', modern(cursor === undefined ? {} : { cursor }));
    const result = message.result as { tools: { name: string }[]; nextCursor?: string; cacheScope: string };
    assert.ok(result !== undefined, JSON.stringify(message));
    names.push(...result.tools.map((tool) => tool.name));
    scopes.push(result.cacheScope);
    cursor = result.nextCursor;
    pages++;
  } while (cursor !== undefined && pages < 100);
  return { names, scopes, pages };
}

describe('issue 14: per-caller visibility (F8)', () => {
  const alice = caller('alice', ['read']);
  const bob = caller('bob', ['read', 'admin']);
  /** 1,200 tools: read_*, admin_* and ops_* in turn; alice sees read_*, bob read_* and admin_*. */
  function bigServer(): ReturnType<typeof testServer> {
    const server = testServer({
      pageSize: 100,
      visibility: (who: Caller, target: Target) =>
        target.name.startsWith('read_') || (target.name.startsWith('admin_') && who.scopes.includes('admin')),
    });
    for (let i = 0; i < 1200; i++) {
      const name = `${['read', 'admin', 'ops'][i % 3]}_${String(i).padStart(4, '0')}`;
      server.tool({ name, handler: () => `ran ${name}` });
    }
    return server;
  }

  it('F8 1,200 tools, two callers: pagination walked to the end shows each exactly its own set, cacheScope private', async () => {
    const server = bigServer();
    const forAlice = await walk(server, alice);
    const forBob = await walk(server, bob);
    assert.equal(forAlice.names.length, 400);
    assert.ok(forAlice.names.every((name) => name.startsWith('read_')));
    assert.equal(forAlice.pages, 4);
    assert.equal(forBob.names.length, 800);
    assert.ok(forBob.names.every((name) => !name.startsWith('ops_')));
    assert.equal(forBob.pages, 8);
    assert.deepEqual(
      forBob.names.filter((name) => name.startsWith('read_')),
      forAlice.names,
      'the same order, registration order',
    );
    assert.equal(new Set(forBob.names).size, 800, 'no entry twice across pages');
    assert.ok([...forAlice.scopes, ...forBob.scopes].every((scope) => scope === 'private'));
  });

  it("F8 a cursor from one page leads to the next for the same caller; one past the caller's list is refused", async () => {
    const server = bigServer();
    const first = (await ask(server, alice, 'tools/list', modern())).message.result as JsonObject;
    const second = (await ask(server, alice, 'tools/list', modern({ cursor: first.nextCursor as string })))
      .message.result as { tools: { name: string }[] };
    assert.equal(second.tools[0]?.name, 'read_0300');
    // Bob's sixth page starts at 500: alice's list (400 entries) has no such page.
    let cursor: string | undefined;
    for (let page = 0; page < 5; page++) {
      const result = (await ask(server, bob, 'tools/list', modern(cursor === undefined ? {} : { cursor })))
        .message.result as JsonObject;
      cursor = result.nextCursor as string;
    }
    const refused = await ask(server, alice, 'tools/list', modern({ cursor: cursor as string }));
    assert.deepEqual(refused.message.error, {
      code: -32602,
      message: 'Invalid params: invalid or expired cursor; list again without a cursor',
    });
  });

  it('an unseen tool is an unknown tool: the same error as one that does not exist, and its handler never runs', async () => {
    const server = bigServer();
    const hidden = await ask(server, alice, 'tools/call', modern({ name: 'admin_0001', arguments: {} }));
    const missing = await ask(server, alice, 'tools/call', modern({ name: 'nothing_here', arguments: {} }));
    assert.deepEqual(hidden.message.error, {
      code: -32602,
      message: 'Unknown tool: "admin_0001"',
      data: { name: 'admin_0001' },
    });
    assert.deepEqual(missing.message.error, {
      code: -32602,
      message: 'Unknown tool: "nothing_here"',
      data: { name: 'nothing_here' },
    });
    const allowed = await ask(server, bob, 'tools/call', modern({ name: 'admin_0001', arguments: {} }));
    assert.deepEqual((allowed.message.result as JsonObject).content, [
      { type: 'text', text: 'ran admin_0001' },
    ]);
  });

  it('prompts and resources follow the same rules (lists, prompts/get, resources/read, completion)', async () => {
    const server = testServer({
      visibility: (who, target) => who.subject === 'bob' || !target.name.includes('secret'),
    });
    server.prompt({ name: 'greeting', get: () => 'hello' });
    server.prompt({
      name: 'secret_plan',
      get: () => 'plan',
      arguments: [{ name: 'step' }],
      complete: { step: () => ['one'] },
    });
    server.resource({ uri: 'file:///notes.txt', name: 'notes', read: () => 'notes' });
    server.resource({ uri: 'file:///secret.txt', name: 'secret', read: () => 'the secret' });
    const prompts = async (who: Caller): Promise<string[]> =>
      (
        (await ask(server, who, 'prompts/list', modern())).message.result as { prompts: { name: string }[] }
      ).prompts.map((prompt) => prompt.name);
    assert.deepEqual(await prompts(alice), ['greeting']);
    assert.deepEqual(await prompts(bob), ['greeting', 'secret_plan']);
    const resources = (await ask(server, alice, 'resources/list', modern())).message.result as JsonObject;
    assert.deepEqual(
      (resources.resources as { uri: string }[]).map((resource) => resource.uri),
      ['file:///notes.txt'],
    );
    assert.equal(resources.cacheScope, 'private');
    const read = await ask(server, alice, 'resources/read', modern({ uri: 'file:///secret.txt' }));
    assert.deepEqual(read.message.error, {
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'file:///secret.txt' },
    });
    const got = await ask(server, alice, 'prompts/get', modern({ name: 'secret_plan' }));
    assert.deepEqual(got.message.error, {
      code: -32602,
      message: 'Unknown prompt: "secret_plan"',
      data: { name: 'secret_plan' },
    });
    const completion = await ask(
      server,
      alice,
      'completion/complete',
      modern({ ref: { type: 'ref/prompt', name: 'secret_plan' }, argument: { name: 'step', value: '' } }),
    );
    assert.equal((completion.message.error as JsonObject).code, -32602);
    const bobReads = await ask(server, bob, 'resources/read', modern({ uri: 'file:///secret.txt' }));
    assert.equal(((bobReads.message.result as JsonObject).contents as JsonObject[])[0]?.text, 'the secret');
  });

  it('F8 a listen stream is not agreed to follow a resource its caller cannot see', async () => {
    const server = testServer({
      visibility: (who, target) => who.subject === 'bob' || !target.name.includes('secret'),
    });
    server.resource({ uri: 'file:///notes.txt', name: 'notes', read: () => 'notes' });
    server.resource({ uri: 'file:///secret.txt', name: 'secret', read: () => 'the secret' });
    const agreed = (who: Caller): Promise<JsonObject> =>
      new Promise((resolve) =>
        listenAs(
          server,
          who,
          { resourceSubscriptions: ['file:///notes.txt', 'file:///secret.txt'] },
          (message) => {
            if (message.method === 'notifications/subscriptions/acknowledged') {
              resolve((message.params as JsonObject).notifications as JsonObject);
            }
          },
        ),
      );
    assert.deepEqual(await agreed(alice), { resourceSubscriptions: ['file:///notes.txt'] });
    assert.deepEqual(await agreed(bob), {
      resourceSubscriptions: ['file:///notes.txt', 'file:///secret.txt'],
    });
    await server.close();
  });

  it('a visibility rule that throws fails that request with a reference, never the connection or the server', async () => {
    const logged: unknown[] = [];
    const server = testServer({
      logger: { debug() {}, info() {}, warn() {}, error: (...args: unknown[]) => void logged.push(args) },
      visibility: (who) => {
        if (who.subject === 'mallory') throw new Error('policy store unreachable at 10.0.0.7');
        return true;
      },
    });
    server.tool({ name: 'one', handler: () => '1' });
    for (const method of ['tools/call', 'tools/list'] as const) {
      const { message } = await ask(
        server,
        caller('mallory', []),
        method,
        modern({ name: 'one', arguments: {} }),
      );
      const error = message.error as { code: number; message: string };
      assert.equal(error.code, -32603);
      assert.match(error.message, /^Internal error \(reference [0-9a-f]{8}\)$/);
      assert.doesNotMatch(JSON.stringify(message), /10\.0\.0\.7/);
    }
    assert.equal(logged.length, 2);
    const fine = await ask(server, alice, 'tools/call', modern({ name: 'one', arguments: {} }));
    assert.deepEqual((fine.message.result as JsonObject).content, [{ type: 'text', text: '1' }]);
  });

  it('without a rule the lists are the shared pages with the configured cache scope', async () => {
    const server = testServer({ listCache: { ttlMs: 60_000, cacheScope: 'public' } });
    server.tool({ name: 'one', handler: () => '1' });
    const result = (await ask(server, LOCAL_CALLER, 'tools/list', modern())).message.result as JsonObject;
    assert.equal(result.cacheScope, 'public');
    assert.equal(result.ttlMs, 60_000);
  });

  it('adding a rule later tells listening clients their lists changed', async () => {
    const server = testServer();
    server.tool({ name: 'one', handler: () => '1' });
    const notifications: string[] = [];
    listenAs(server, alice, { toolsListChanged: true }, (message) =>
      notifications.push(String(message.method)),
    );
    server.addVisibility(() => false);
    for (let turn = 0; turn < 10 && !notifications.includes('notifications/tools/list_changed'); turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(notifications.includes('notifications/tools/list_changed'), notifications.join(', '));
    assert.deepEqual((await walk(server, alice)).names, []);
    await server.close();
  });
});

describe('issue 14: one clock — the time limit a request gets comes from what it runs', () => {
  it('a tool allowed 180 s gets 180 s plus the margin, not a transport number of its own', async () => {
    const server = testServer({ defaultTimeoutMs: 60_000 });
    server.tool({ name: 'slow_report', timeoutMs: 180_000, handler: () => 'done' });
    server.tool({ name: 'quick', handler: () => 'done' });
    const limits: number[] = [];
    const timeLimit = (ms: number): void => void limits.push(ms);
    await ask(server, LOCAL_CALLER, 'tools/call', modern({ name: 'slow_report' }), { timeLimit });
    await ask(server, LOCAL_CALLER, 'tools/call', modern({ name: 'quick' }), { timeLimit });
    await ask(server, LOCAL_CALLER, 'tools/list', modern(), { timeLimit });
    assert.deepEqual(limits, [
      180_000 + TIME_LIMIT_MARGIN_MS,
      60_000 + TIME_LIMIT_MARGIN_MS,
      60_000 + TIME_LIMIT_MARGIN_MS,
    ]);
  });

  it('subscriptions/listen has no limit (Infinity); a request refused before it runs sets none', async () => {
    const server = testServer();
    const limits: number[] = [];
    const connection = server.createConnection(undefined, { legacy: false, shared: true });
    connection.receiveMessage(
      {
        kind: 'request',
        message: {
          jsonrpc: '2.0',
          id: 1,
          method: 'subscriptions/listen',
          params: modern({ notifications: {} }),
        },
      },
      { transport: MEMORY, reply: () => {}, timeLimit: (ms) => void limits.push(ms) },
    );
    const refused = await ask(
      server,
      LOCAL_CALLER,
      'tools/call',
      { name: 'x' },
      { timeLimit: (ms) => void limits.push(ms) },
    );
    assert.equal((refused.message.error as JsonObject).code, -32602);
    assert.equal(refused.options.rejected, true);
    assert.deepEqual(limits, [Infinity]);
    await server.close();
  });

  it('a tool that outlives its own timeoutMs is answered with its own "timed out" result, well inside the request limit', async () => {
    const server = testServer();
    server.tool({ name: 'stuck', timeoutMs: 50, handler: () => new Promise<never>(() => {}) });
    let limit = 0;
    const { message } = await ask(server, LOCAL_CALLER, 'tools/call', modern({ name: 'stuck' }), {
      timeLimit: (ms) => void (limit = ms),
    });
    assert.equal(limit, 50 + TIME_LIMIT_MARGIN_MS);
    assert.deepEqual(message.result, {
      resultType: 'complete',
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'core-test', version: '1.0.0' } },
      content: [{ type: 'text', text: 'Tool "stuck" timed out after 50 ms' }],
      isError: true,
    });
  });
});

describe('issue 14: a task belongs to the caller that started it', () => {
  it('another caller, or the same subject established another way, cannot read or cancel it', async () => {
    const server = testServer();
    server.tool({ name: 'long', task: 'required', handler: () => new Promise<never>(() => {}) });
    const withTasks = (params: JsonObject): JsonObject =>
      modern(params, {
        'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
      });
    const ada = caller('ada', []);
    const started = await ask(server, ada, 'tools/call', withTasks({ name: 'long', arguments: {} }));
    const taskId = (started.message.result as JsonObject).taskId as string;
    assert.equal(typeof taskId, 'string', JSON.stringify(started.message));
    const other = await ask(server, caller('eve', []), 'tasks/get', withTasks({ taskId }));
    const sameNameOtherWay = await ask(
      server,
      Object.freeze({ subject: 'ada', via: 'api-key', scopes: [] }),
      'tasks/cancel',
      withTasks({ taskId }),
    );
    // Someone else's task looks exactly like one that does not exist.
    assert.deepEqual(other.message.error, {
      code: -32602,
      message: `Unknown task: "${taskId}" (it may have expired)`,
      data: { taskId },
    });
    assert.deepEqual(sameNameOtherWay.message.error, other.message.error);
    const own = await ask(server, ada, 'tasks/get', withTasks({ taskId }));
    assert.equal((own.message.result as JsonObject).status, 'working');
    await ask(server, ada, 'tasks/cancel', withTasks({ taskId }));
    await server.close();
  });
});
