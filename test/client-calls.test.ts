// Calling tools with toolwire's client against toolwire's fixture server: cancellation that reaches the handler
// (stdio, HTTP, memory), time limits that restart on progress up to a maximum, paging with a page cap, Mcp-Param-*
// headers, multi round-trip input (requestState echoed exactly, elicitation defaults) and tool list changes.

import assert from 'node:assert/strict';
import { after, afterEach, describe, it, type MockTimers } from 'node:test';
import { McpClient, type ClientOptions, type InputHandlers } from '../src/client/index.js';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { ElicitRequestParams, Transport } from '../src/protocol/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import {
  CLIENT_INFO,
  deferred,
  listenToolwireHttp,
  memoryClient,
  stderrLine,
  stdioTransport,
  within,
} from './fixtures/client/harness.js';
import { ASK_SCHEMA } from './fixtures/client/toolwire-server.js';

const TEST_MS = 20_000;
const STEP_MS = 5000;

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function connected(transport: Transport, options: ClientOptions = {}): Promise<McpClient> {
  const client = new McpClient(CLIENT_INFO, { approve: 'always', ...options });
  closers.push(() => client.close());
  await within(client.connect(transport), 15_000, 'connect');
  return client;
}

/** Polls a condition the server exposes no event for; bounded. */
async function until(condition: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + STEP_MS;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${STEP_MS} ms`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('client: cancellation through an AbortSignal reaches the handler', () => {
  const aborted: string[] = [];
  let started = deferred();
  let stopped = deferred();
  const http = listenToolwireHttp({
    onSlowStarted: () => started.resolve(),
    onSlowAborted: (reason) => {
      aborted.push(reason);
      stopped.resolve();
    },
  });
  after(async () => (await http).close());

  it(
    'stdio: notifications/cancelled, and the handler’s ctx.signal aborts',
    { timeout: TEST_MS },
    async () => {
      const transport = stdioTransport('toolwire-stdio.ts');
      const client = await connected(transport);
      const controller = new AbortController();
      const call = client.callTool('slow', {}, { signal: controller.signal });
      await stderrLine(transport, /^slow: started$/);
      controller.abort();
      await assert.rejects(call, { name: 'RequestAbortedError', message: 'tools/call was cancelled' });
      assert.equal(await stderrLine(transport, /^slow: aborted/), 'slow: aborted (cancelled by the caller)');
    },
  );

  for (const era of ['modern', 'legacy'] as const) {
    it(`HTTP, ${era}: the handler’s ctx.signal aborts`, { timeout: TEST_MS }, async () => {
      started = deferred();
      stopped = deferred();
      aborted.length = 0;
      const client = await connected(new HttpClientTransport((await http).url), {
        era: era === 'modern' ? 'auto' : era,
      });
      assert.equal(client.era, era);
      const controller = new AbortController();
      const call = client.callTool('slow', {}, { signal: controller.signal });
      await within(started.promise, STEP_MS, 'slow to start');
      controller.abort();
      await assert.rejects(call, { name: 'RequestAbortedError', message: 'tools/call was cancelled' });
      await within(stopped.promise, STEP_MS, "the handler's abort");
      assert.deepEqual(aborted, [
        era === 'modern' ? 'the client closed the response' : 'cancelled by the caller',
      ]);
    });
  }

  it('an already aborted signal sends nothing', async () => {
    const pair = await memoryClient({ approve: 'always' });
    closers.push(pair.close);
    await pair.client.listTools();
    const before = pair.traffic.length;
    await assert.rejects(pair.client.callTool('add', { a: 1, b: 2 }, { signal: AbortSignal.abort() }), {
      name: 'RequestAbortedError',
      message: 'tools/call was cancelled',
    });
    assert.deepEqual(pair.traffic.slice(before), []);
  });
});

describe('client: resetTimeoutOnProgress, bounded by maxTotalTimeoutMs', () => {
  /** `ticker` reports progress once per pulse(); `waiting` resolves each time it is ready for the next pulse. */
  function ticker() {
    let pulse: (() => void) | undefined;
    let waiting = deferred();
    const nextTick = (signal: AbortSignal): Promise<void> =>
      new Promise((resolve, reject) => {
        pulse = resolve;
        signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
        waiting.resolve();
      });
    return {
      nextTick,
      pulse: () => {
        waiting = deferred();
        pulse?.();
      },
      waiting: () => waiting.promise,
    };
  }

  /** Lets the memory pair's microtasks and the client's promise handlers run (setImmediate is not faked). */
  const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

  /**
   * timeoutMs 100, maxTotalTimeoutMs 250 (fake clock): progress at 90 ms and at 180 ms each restart the limit, so
   * the call outlives its first 100 ms; the second restart is cut to the 70 ms left of the total. Returns the error.
   */
  async function outliveTimeout(timers: MockTimers): Promise<Error> {
    const tick = ticker();
    const pair = await memoryClient(
      { approve: 'always', resetTimeoutOnProgress: true, maxTotalTimeoutMs: 250 },
      { nextTick: tick.nextTick, progressIntervalMs: 0 },
    );
    closers.push(pair.close);
    await pair.client.listTools();
    timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      const progress: number[] = [];
      const outcome: { failure?: unknown } = {};
      /** A call, so that asserting "not yet" does not narrow what the later read sees. */
      const failed = (): unknown => outcome.failure;
      const call = pair.client
        .callTool('ticker', {}, { timeoutMs: 100, onProgress: (p) => progress.push(p.progress) })
        .catch((error: unknown) => (outcome.failure = error));
      await tick.waiting();

      timers.tick(90); // 90 ms: under the first 100
      await settle();
      tick.pulse(); // progress 1 at 90 ms: the limit restarts (100 ms, well inside the 250 total)
      await tick.waiting();
      await settle();
      assert.deepEqual(progress, [1]);

      timers.tick(90); // 180 ms: past the first limit, inside the restarted one
      await settle();
      assert.equal(failed(), undefined);
      tick.pulse(); // progress 2 at 180 ms: only 70 ms are left of the 250 total
      await tick.waiting();
      await settle();
      assert.deepEqual(progress, [1, 2]);

      timers.tick(69); // 249 ms
      await settle();
      assert.equal(failed(), undefined);
      timers.tick(1); // 250 ms: the maximum
      await call;
      const failure = failed();
      assert.ok(failure instanceof Error);
      assert.equal(failure.name, 'RequestTimeoutError');
      return failure;
    } finally {
      timers.reset();
    }
  }

  it(
    'each progress restarts timeoutMs, but never past maxTotalTimeoutMs',
    { timeout: TEST_MS },
    async (t) => {
      await outliveTimeout(t.mock.timers);
    },
  );

  it(
    'the time-out at the maximum names the maximum',
    {
      timeout: TEST_MS,
    },
    async (t) => {
      const failure = await outliveTimeout(t.mock.timers);
      assert.equal(
        failure.message,
        'tools/call timed out after 250 ms (the request was cancelled on the server)',
      );
    },
  );

  it('without it, progress does not extend timeoutMs', { timeout: TEST_MS }, async (t) => {
    const tick = ticker();
    const pair = await memoryClient(
      { approve: 'always', resetTimeoutOnProgress: true },
      { nextTick: tick.nextTick, progressIntervalMs: 0 },
    );
    closers.push(pair.close);
    await pair.client.listTools();
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    try {
      const outcome: { failure?: unknown } = {};
      /** A call, so that asserting "not yet" does not narrow what the later read sees. */
      const failed = (): unknown => outcome.failure;
      const progress: number[] = [];
      const call = pair.client
        .callTool(
          'ticker',
          {},
          { timeoutMs: 100, resetTimeoutOnProgress: false, onProgress: (p) => progress.push(p.progress) },
        )
        .catch((error: unknown) => (outcome.failure = error));
      await tick.waiting();
      t.mock.timers.tick(90);
      tick.pulse();
      await tick.waiting();
      await settle();
      assert.deepEqual(progress, [1]);
      t.mock.timers.tick(10);
      await call;
      const failure = failed();
      assert.ok(failure instanceof Error);
      assert.equal(
        failure.message,
        'tools/call timed out after 100 ms (the request was cancelled on the server)',
      );
    } finally {
      t.mock.timers.reset();
    }
  });
});

describe('client: listTools paging', () => {
  function pagedServer(): McpServer {
    const server = new McpServer({ name: 'paged', version: '1.0.0' }, { pageSize: 2, logger: silentLogger });
    for (let i = 1; i <= 5; i++) server.tool({ name: `t${i}`, handler: () => `t${i}` });
    return server;
  }
  const pages = (traffic: ReadonlyArray<{ direction: string; text: string }>): number =>
    traffic.filter((entry) => entry.direction === 'client->server' && entry.text.includes('"tools/list"'))
      .length;

  it('reads every page: 5 tools, 2 per page, 3 requests', async () => {
    const pair = await memoryClient({ maxListPages: 3 }, {}, pagedServer());
    closers.push(pair.close);
    assert.deepEqual(
      (await pair.client.listTools()).map((tool) => tool.name),
      ['t1', 't2', 't3', 't4', 't5'],
    );
    assert.equal(pages(pair.traffic), 3);
  });

  it('maxListPages caps the pages read, with an error that says how to raise it', async () => {
    const pair = await memoryClient({ maxListPages: 2 }, {}, pagedServer());
    closers.push(pair.close);
    await assert.rejects(pair.client.listTools(), {
      name: 'ProtocolError',
      message: 'tools/list did not end after 2 pages (raise maxListPages if the server is that large)',
    });
    assert.equal(pages(pair.traffic), 2);
  });

  it(
    'a server whose cursor never ends stops at the default cap of 100 pages',
    { timeout: TEST_MS },
    async () => {
      const [clientSide, serverSide] = createLinkedPair();
      let listed = 0;
      serverSide.onmessage = (raw) => {
        const message = JSON.parse(String(raw)) as { id?: number; method?: string };
        if (message.id === undefined) return;
        const reply = (body: object): void =>
          serverSide.send(JSON.stringify({ jsonrpc: '2.0', id: message.id, ...body }));
        if (message.method === 'initialize') {
          reply({
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'loop', version: '1' },
            },
          });
        } else if (message.method === 'tools/list') {
          listed++;
          // A new cursor each time: a repeated one is stopped at once (test/client-list-limits.test.ts).
          reply({
            result: {
              tools: [{ name: 'again', inputSchema: { type: 'object' } }],
              nextCursor: `page-${listed}`,
            },
          });
        } else reply({ error: { code: -32601, message: 'Method not found' } });
      };
      await serverSide.start();
      const client = await connected(clientSide);
      await assert.rejects(client.listTools(), {
        name: 'ProtocolError',
        message: 'tools/list did not end after 100 pages (raise maxListPages if the server is that large)',
      });
      assert.equal(listed, 100);
    },
  );
});

describe('client: Mcp-Param-* headers (modern HTTP)', () => {
  const http = listenToolwireHttp();
  after(async () => (await http).close());

  /** An HttpClientTransport whose requests are kept, headers and all. */
  function recordingTransport(url: string) {
    const posts: Array<{ headers: Headers; body: JsonObject }> = [];
    const transport = new HttpClientTransport(url, {
      fetch: (input, init) => {
        if (init?.method === 'POST' && typeof init.body === 'string') {
          posts.push({ headers: new Headers(init.headers), body: JSON.parse(init.body) as JsonObject });
        }
        return fetch(input, init);
      },
    });
    const headersOf = (tool: string): Record<string, string> => {
      const post = posts.findLast(
        ({ body }) => body.method === 'tools/call' && (body.params as JsonObject).name === tool,
      );
      assert.ok(post, `no tools/call of ${tool}`);
      return Object.fromEntries([...post.headers].filter(([name]) => name.startsWith('mcp-')));
    };
    return { transport, headersOf };
  }

  it(
    'annotated arguments are mirrored; the server checks them, so success proves they match',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { transport, headersOf } = recordingTransport((await http).url);
      const client = await connected(transport);
      assert.equal(client.era, 'modern');

      const plain = await client.callTool('lookup', { region: 'eu-west', id: 42, note: 'not mirrored' });
      assert.deepEqual(plain.content, [{ type: 'text', text: 'region=eu-west id=42' }]);
      assert.deepEqual(headersOf('lookup'), {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'lookup',
        'mcp-param-region': 'eu-west',
        'mcp-param-id': '42',
      });

      const encoded = await client.callTool('lookup', { region: ' Zürich ' });
      assert.deepEqual(encoded.content, [{ type: 'text', text: 'region= Zürich  id=-' }]);
      assert.deepEqual(headersOf('lookup'), {
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'lookup',
        'mcp-param-region': `=?base64?${Buffer.from(' Zürich ').toString('base64')}?=`,
      });
    },
  );

  it(
    'control: the same call without its Mcp-Param-Region header is refused with -32020',
    {
      timeout: TEST_MS,
    },
    async () => {
      const response = await fetch((await http).url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'lookup',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: {
            name: 'lookup',
            arguments: { region: 'eu-west' },
            _meta: {
              'io.modelcontextprotocol/protocolVersion': '2026-07-28',
              'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
              'io.modelcontextprotocol/clientCapabilities': {},
            },
          },
        }),
      });
      const body = (await response.json()) as { error?: { code: number; message: string } };
      assert.deepEqual(body.error, {
        code: -32020,
        message: 'Header mismatch: Mcp-Param-Region is missing; it must mirror arguments.region',
      });
    },
  );

  it('legacy HTTP sends no Mcp-* request headers', { timeout: TEST_MS }, async () => {
    const { transport, headersOf } = recordingTransport((await http).url);
    const client = await connected(transport, { era: 'legacy' });
    await client.callTool('lookup', { region: 'eu-west', id: 7 });
    assert.deepEqual(headersOf('lookup'), {
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': transport.sessionId,
    });
  });
});

describe('client: multi round-trip input', () => {
  const asked: ElicitRequestParams[] = [];
  const answering = (content: Record<string, string | number> | undefined): InputHandlers => ({
    elicitation: (params, context) => {
      asked.push(params);
      assert.equal(context.server?.name, 'toolwire-fixture');
      return content === undefined ? { action: 'decline' } : { action: 'accept', content };
    },
  });
  afterEach(() => void (asked.length = 0));

  const messages = (traffic: ReadonlyArray<{ direction: string; text: string }>, direction: string) =>
    traffic
      .filter((entry) => entry.direction === direction)
      .map((entry) => ({ text: entry.text, message: JSON.parse(entry.text) as JsonObject }));

  it('modern: the handler answers, the retry has a new id and echoes requestState byte for byte', async () => {
    const pair = await memoryClient({ approve: 'always', handlers: answering({ color: 'red', size: 5 }) });
    closers.push(pair.close);
    const result = await pair.client.callTool('ask', {});
    assert.deepEqual(result.content, [
      { type: 'text', text: '{"action":"accept","content":{"color":"red","size":5}}' },
    ]);
    assert.deepEqual(asked, [{ message: 'Pick a color and a size', requestedSchema: ASK_SCHEMA }]);

    const calls = messages(pair.traffic, 'client->server').filter(
      ({ message }) => message.method === 'tools/call',
    );
    assert.equal(calls.length, 2);
    const [first, retry] = calls as [(typeof calls)[0], (typeof calls)[0]];
    assert.notEqual(retry.message.id, first.message.id);
    const inputRequired = messages(pair.traffic, 'server->client').find(
      ({ message }) => message.id === first.message.id,
    );
    const state = (inputRequired?.message.result as JsonObject | undefined)?.requestState;
    assert.equal(typeof state, 'string');
    const retryParams = retry.message.params as JsonObject;
    assert.equal(retryParams.requestState, state);
    // The same characters on the wire, escapes included: the state was not re-encoded on the way back.
    const quoted = `"requestState":${JSON.stringify(state)}`;
    assert.ok(inputRequired?.text.includes(quoted) && retry.text.includes(quoted));
    assert.deepEqual(retryParams.inputResponses, {
      'elicit-1': { action: 'accept', content: { color: 'red', size: 5 } },
    });
    assert.deepEqual(retryParams.arguments, {});
  });

  for (const era of ['modern', 'legacy'] as const) {
    it(`${era}: an accepted form is completed with the schema's defaults`, async () => {
      const pair = await memoryClient({
        era: era === 'modern' ? 'auto' : era,
        approve: 'always',
        handlers: answering({}),
      });
      closers.push(pair.close);
      const result = await pair.client.callTool('ask', {});
      assert.deepEqual(result.content, [
        { type: 'text', text: '{"action":"accept","content":{"color":"blue","size":3}}' },
      ]);
      if (era === 'legacy') {
        // The answer to the server's elicitation/create request, as sent.
        const answer = messages(pair.traffic, 'client->server').find(
          ({ message }) => message.method === undefined && message.result !== undefined,
        );
        assert.deepEqual(answer?.message.result, { action: 'accept', content: { color: 'blue', size: 3 } });
      }
    });
  }

  it(
    'over HTTP too, in both eras: input requests answered, defaults applied',
    { timeout: TEST_MS },
    async () => {
      const http = await listenToolwireHttp();
      closers.push(http.close);
      for (const era of ['auto', 'legacy'] as const) {
        const client = await connected(new HttpClientTransport(http.url), {
          era,
          handlers: answering({ size: 9 }),
        });
        assert.deepEqual((await client.callTool('ask', {})).content, [
          { type: 'text', text: '{"action":"accept","content":{"size":9,"color":"blue"}}' },
        ]);
      }
      assert.equal(asked.length, 2);
    },
  );

  it('legacy: fields the user gave win over defaults; a declined form gets none', async () => {
    const pair = await memoryClient({
      era: 'legacy',
      approve: 'always',
      handlers: answering({ color: 'green' }),
    });
    closers.push(pair.close);
    assert.deepEqual((await pair.client.callTool('ask', {})).content, [
      { type: 'text', text: '{"action":"accept","content":{"color":"green","size":3}}' },
    ]);
    const declining = await memoryClient({
      era: 'legacy',
      approve: 'always',
      handlers: answering(undefined),
    });
    closers.push(declining.close);
    assert.deepEqual((await declining.client.callTool('ask', {})).content, [
      { type: 'text', text: '{"action":"decline"}' },
    ]);
  });
});

describe('client: tool list changes refresh listTools', () => {
  const http = listenToolwireHttp();
  after(async () => (await http).close());

  async function grows(client: McpClient): Promise<void> {
    const before = (await client.listTools()).map((tool) => tool.name);
    const changed = deferred();
    client.onToolsChanged(() => changed.resolve());
    const added = await client.callTool('grow', {});
    const name = (added.content[0] as { text: string }).text;
    assert.ok(!before.includes(name));
    await within(changed.promise, STEP_MS, 'the tools/list_changed notification');
    assert.ok(
      (await client.listTools()).some((tool) => tool.name === name),
      `${name} is listed`,
    );
  }

  for (const era of ['modern', 'legacy'] as const) {
    it(`memory, ${era}`, async () => {
      const pair = await memoryClient({ era: era === 'modern' ? 'auto' : era, approve: 'always' });
      closers.push(pair.close);
      if (era === 'modern') await until(() => pair.server.subscriptionCount === 1, 'subscriptions/listen');
      await grows(pair.client);
    });
  }

  it('HTTP, modern: through the subscriptions/listen stream', { timeout: TEST_MS }, async () => {
    const { url, server } = await http;
    const client = await connected(new HttpClientTransport(url));
    assert.equal(client.era, 'modern');
    await until(() => server.subscriptionCount === 1, 'subscriptions/listen');
    await grows(client);
  });

  it('HTTP, legacy: through the GET stream', { timeout: TEST_MS }, async () => {
    const getOpen = deferred();
    const transport = new HttpClientTransport((await http).url, {
      fetch: async (input, init) => {
        const response = await fetch(input, init);
        if (init?.method === 'GET' && response.ok) getOpen.resolve();
        return response;
      },
    });
    const client = await connected(transport, { era: 'legacy' });
    await within(getOpen.promise, STEP_MS, 'the GET stream');
    await grows(client);
  });
});
