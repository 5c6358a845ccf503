// Protocol core over stdio: examples/calculator.ts as a real child process (both eras, clean stdout, exit on EOF
// and on SIGTERM), and the stdio transport in-process for oversize lines and shutdown with a call in flight.

import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { isJsonObject, type JsonObject } from '../src/jsonrpc/index.js';
import { LOCAL_CALLER, STDIO_TRANSPORT, type Caller, type MessageExtra } from '../src/protocol/index.js';
import { StdioServerTransport, serveStdio } from '../src/transports/stdio/index.js';
import { SERVER_INFO_META, deferred, modern, testServer, type WireMessage } from './support/harness.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CALCULATOR_INFO = { name: 'calculator', version: '1.0.0' };
/** Upper bound on waiting for a child process; the wait ends as soon as the event happens. */
const PROCESS_LIMIT_MS = 10_000;

/** Resolves with `promise`, or fails the test once `ms` have passed without it. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/** Newline-delimited JSON over a pair of streams, with every stdout byte kept for the "only JSON" check. */
class LineClient {
  readonly lines: string[] = [];
  raw = '';
  readonly #input: NodeJS.WritableStream;
  readonly #waiters = new Set<{
    predicate: (m: WireMessage) => boolean;
    resolve: (m: WireMessage) => void;
  }>();
  #partial = '';

  constructor(input: NodeJS.WritableStream, output: NodeJS.ReadableStream) {
    this.#input = input;
    output.on('data', (chunk: Buffer | string) => this.#onData(String(chunk)));
  }

  send(message: JsonObject | string): void {
    this.#input.write((typeof message === 'string' ? message : JSON.stringify(message)) + '\n');
  }

  messages(): WireMessage[] {
    return this.lines.map((line) => JSON.parse(line) as WireMessage); // each line is checked to be JSON in its test
  }

  waitFor(predicate: (message: WireMessage) => boolean, what = 'the message'): Promise<WireMessage> {
    const found = this.messages().find(predicate);
    if (found !== undefined) return Promise.resolve(found);
    return within(
      new Promise<WireMessage>((resolve) => this.#waiters.add({ predicate, resolve })),
      PROCESS_LIMIT_MS,
      what,
    );
  }

  request(id: string | number, method: string, params: JsonObject): Promise<WireMessage> {
    this.send({ jsonrpc: '2.0', id, method, params });
    return this.waitFor((m) => m.id === id && m.method === undefined, `the response to ${id}`);
  }

  #onData(text: string): void {
    this.raw += text;
    const parts = (this.#partial + text).split('\n');
    this.#partial = parts.pop() ?? '';
    for (const line of parts) {
      this.lines.push(line);
      let message: unknown;
      try {
        message = JSON.parse(line);
      } catch {
        continue; // the stdout test reports it
      }
      if (!isJsonObject(message)) continue;
      for (const waiter of [...this.#waiters]) {
        if (waiter.predicate(message as unknown as WireMessage)) {
          this.#waiters.delete(waiter);
          waiter.resolve(message as unknown as WireMessage);
        }
      }
    }
  }
}

interface Child {
  process: ChildProcessWithoutNullStreams;
  client: LineClient;
  stderr: () => string;
  exit: Promise<[number | null, NodeJS.Signals | null]>;
}

function spawnNode(args: string[]): Child {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: ROOT, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exit = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  return { process: child, client: new LineClient(child.stdin, child.stdout), stderr: () => stderr, exit };
}

describe('core stdio: examples/calculator.ts as a child process', () => {
  let child: Child;

  before(() => {
    child = spawnNode(['examples/calculator.ts']);
  });

  after(() => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGKILL');
  });

  it('T-01 a modern tools/call works over newline-delimited JSON, progress first', async () => {
    const response = await child.client.request(1, 'tools/call', {
      name: 'calculate_sum',
      arguments: { a: 2, b: 3 },
      ...modern({}, { progressToken: 'p' }),
    });
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': CALCULATOR_INFO },
        content: [{ type: 'text', text: '{"sum":5}' }],
        structuredContent: { sum: 5 },
      },
    });
    const progress = child.client.messages().filter((m) => m.method === 'notifications/progress');
    assert.ok(progress.length >= 1);
    assert.deepEqual(progress.at(-1)?.params, { progressToken: 'p', progress: 2, total: 2, message: 'done' });
  });

  it('B-32 server/discover answers over stdio', async () => {
    const response = await child.client.request('d', 'server/discover', modern());
    assert.deepEqual(response.result?.supportedVersions, ['2026-07-28']);
  });

  it('L-02 a legacy session works on the same process: initialize, initialized, tools/call', async () => {
    const init = await child.client.request(2, 'initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'stdio-test', version: '0' },
    });
    assert.deepEqual(init.result, {
      protocolVersion: '2025-06-18',
      capabilities: { tools: { listChanged: true }, logging: {} },
      serverInfo: CALCULATOR_INFO,
    });
    child.client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    const call = await child.client.request(3, 'tools/call', {
      name: 'calculate_sum',
      arguments: { a: 1.5, b: 2 },
    });
    assert.deepEqual(call.result, {
      content: [{ type: 'text', text: '{"sum":3.5}' }],
      structuredContent: { sum: 3.5 },
    });
  });

  it('TL-19 invalid arguments over stdio get the isError result naming the field', async () => {
    const response = await child.client.request(
      4,
      'tools/call',
      modern({ name: 'calculate_sum', arguments: { a: 1 } }),
    );
    assert.deepEqual(response.result?.content, [
      {
        type: 'text',
        text: 'Invalid arguments for tool "calculate_sum":\n- b: Invalid input: expected number, received undefined',
      },
    ]);
  });

  it('B-01 a malformed line gets -32700 and the process keeps serving', async () => {
    child.client.send('{"jsonrpc":"2.0","id":5,');
    await child.client.waitFor((m) => m.error?.code === -32700);
    const response = await child.client.request(6, 'server/discover', modern());
    assert.equal(response.error, undefined);
  });

  it('T-02 stdout carries only JSON-RPC messages, one per line', () => {
    assert.ok(child.client.raw.endsWith('\n'), 'every message ends its line');
    assert.ok(child.client.lines.length >= 8, `saw ${child.client.lines.length} lines`);
    for (const line of child.client.lines) {
      const value: unknown = JSON.parse(line);
      assert.ok(isJsonObject(value) && value.jsonrpc === '2.0', line);
    }
  });

  it('T-09 closing stdin makes the process exit by itself with code 0', async () => {
    const started = performance.now();
    child.process.stdin.end();
    const [code, signal] = await within(child.exit, PROCESS_LIMIT_MS, 'exit after stdin EOF');
    assert.deepEqual({ code, signal }, { code: 0, signal: null });
    assert.ok(performance.now() - started < PROCESS_LIMIT_MS);
  });
});

describe('core stdio: SIGTERM with a call in flight (child process)', () => {
  it('§2.2 SIGTERM during a slow call: the handler is aborted and the process exits with code 0', async () => {
    const src = (path: string): string => JSON.stringify(pathToFileURL(`${ROOT}src/${path}`).href);
    const script = [
      `import { McpServer, silentLogger } from ${src('index.ts')};`,
      `import { serveStdio } from ${src('transports/stdio/index.ts')};`,
      `const server = new McpServer({ name: 'slow', version: '1' }, { logger: silentLogger });`,
      `server.tool({ name: 'slow', handler: (_args, ctx) => new Promise((resolve) => {`,
      `  ctx.signal.addEventListener('abort', () => { process.stderr.write('handler aborted\\n'); resolve('late'); });`,
      `  process.stderr.write('handler started\\n');`,
      `}) });`,
      `await serveStdio(server);`,
    ].join('\n');
    const child = spawnNode(['--input-type=module', '-e', script]);
    try {
      const started = deferred();
      child.process.stderr.on('data', () => {
        if (child.stderr().includes('handler started')) started.resolve();
      });
      child.client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'slow' }) });
      await within(started.promise, PROCESS_LIMIT_MS, 'the slow handler starting');
      child.process.kill('SIGTERM');
      const [code, signal] = await within(child.exit, PROCESS_LIMIT_MS, 'exit after SIGTERM');
      assert.deepEqual({ code, signal }, { code: 0, signal: null });
      assert.match(child.stderr(), /handler aborted/);
      assert.deepEqual(child.client.lines, [], 'the aborted call is not answered');
    } finally {
      if (child.process.exitCode === null) child.process.kill('SIGKILL');
    }
  });
});

describe('core stdio: the transport in-process', () => {
  it('T-01 an oversize line gets -32600 with no id, and the connection keeps serving', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const client = new LineClient(stdin, stdout);
    const server = testServer();
    await server.connect(new StdioServerTransport({ stdin, stdout, maxLineBytes: 256 }));
    client.send({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: modern({ padding: 'x'.repeat(300) }),
    });
    const rejected = await client.waitFor((m) => m.error !== undefined);
    assert.deepEqual(rejected, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: message exceeds the 256-byte line limit' },
    });
    const response = await client.request(2, 'tools/list', modern());
    assert.deepEqual(response.result, {
      tools: [],
      ttlMs: 0,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
    assert.equal(client.messages().filter((m) => m.id === 1).length, 0, 'the oversize request was never run');
    await server.close();
  });

  it('every line carries the caller (default LOCAL_CALLER) and STDIO_TRANSPORT, in one frozen extra', async () => {
    const stdin = new PassThrough();
    const transport = new StdioServerTransport({ stdin, stdout: new PassThrough() });
    const extras: Array<MessageExtra | undefined> = [];
    transport.onmessage = (_message, extra) => extras.push(extra);
    await transport.start();
    stdin.write('{"jsonrpc":"2.0","method":"a"}\n{"jsonrpc":"2.0","method":"b"}\n');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(extras.length, 2);
    assert.deepEqual(extras[0], { auth: LOCAL_CALLER, transport: STDIO_TRANSPORT });
    assert.equal(extras[0]?.auth, LOCAL_CALLER);
    assert.ok(Object.isFrozen(extras[0]));
    assert.equal(extras[1], extras[0], 'no allocation per message');
    await transport.close();
  });

  it('the caller option reaches a tool as ctx.auth', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const client = new LineClient(stdin, stdout);
    const caller: Caller = Object.freeze({ subject: 'ci-runner', via: 'local', scopes: Object.freeze([]) });
    const server = testServer();
    server.tool({ name: 'whoami', handler: (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.via}` });
    await server.connect(new StdioServerTransport({ stdin, stdout, caller }));
    const response = await client.request(1, 'tools/call', modern({ name: 'whoami' }));
    assert.deepEqual(response.result?.content, [{ type: 'text', text: 'ci-runner via local' }]);
    await server.close();
  });

  it('T-01 a result containing newlines is still one line on stdout', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const client = new LineClient(stdin, stdout);
    const server = testServer();
    server.tool({ name: 'poem', handler: () => 'line one\nline two\r\n' });
    await server.connect(new StdioServerTransport({ stdin, stdout }));
    const response = await client.request(1, 'tools/call', modern({ name: 'poem' }));
    assert.deepEqual(response.result?.content, [{ type: 'text', text: 'line one\nline two\r\n' }]);
    assert.equal(client.lines.length, 1);
    await server.close();
  });

  it('T-07 SIGTERM during a slow call aborts the handler, ends serveStdio, and answers nothing more', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const client = new LineClient(stdin, stdout);
    const started = deferred();
    const aborted = deferred<unknown>();
    const server = testServer();
    server.tool({
      name: 'slow',
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener(
            'abort',
            () => {
              aborted.resolve(ctx.signal.reason);
              resolve('late');
            },
            { once: true },
          );
          started.resolve();
        }),
    });
    const listenersBefore = process.listenerCount('SIGTERM');
    const serving = await serveStdio(server, { stdin, stdout });
    client.send({ jsonrpc: '2.0', id: 'slow', method: 'tools/call', params: modern({ name: 'slow' }) });
    await started.promise;
    process.emit('SIGTERM', 'SIGTERM');
    const reason = await aborted.promise;
    await serving.closed;
    assert.ok(reason instanceof Error && reason.message === 'connection closed', String(reason));
    assert.equal(serving.connection.closed, true);
    assert.deepEqual(client.lines, [], 'no response for the aborted call');
    assert.equal(process.listenerCount('SIGTERM'), listenersBefore, 'the signal handlers are gone again');
  });

  it('T-09 stdin EOF ends serveStdio: in-flight calls are aborted and closed resolves', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const started = deferred();
    const aborted = deferred();
    const server = testServer();
    server.tool({
      name: 'slow',
      handler: (_args, ctx) =>
        new Promise<string>(() => {
          ctx.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
          started.resolve();
        }),
    });
    const serving = await serveStdio(server, { stdin, stdout });
    stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'slow' }) }) +
        '\n',
    );
    await started.promise;
    stdin.end();
    await aborted.promise;
    await serving.closed;
    assert.equal(serving.connection.closed, true);
  });
});
