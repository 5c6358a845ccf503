// Interop over stdio: the official SDK clients spawn examples/calculator.ts, list `calculate_sum` and call it with
// progress.
//   - @modelcontextprotocol/client 2.x pinned to the 2026-07-28 wire (server/discover, per-request _meta),
//   - @modelcontextprotocol/client 2.x on the legacy wire (the initialize handshake, its default),
//   - @modelcontextprotocol/sdk 1.x on the legacy wire.
// Every exchange is recorded, so that a failing assertion shows what went over the pipe.
//
// Known SDK race (typescript-sdk issue #2580, open; present in client 2.4.0 and sdk 1.32.2): the SDKs dispatch a
// response synchronously but a notification on a microtask, and the response retires the request's progress
// handler. When progress notifications and the response arrive in one stdout chunk, which is timing-dependent, the
// callback misses them and the SDK reports "Received a progress notification for an unknown token" through
// onerror. Each test therefore calls twice: once on the SDK as shipped (the result must be right and every
// notification on the wire must reach the callback or be that error, nothing else), then with responses dispatched
// after already-received notifications (the order upstream PR #2378 makes the default), where every progress
// notification must reach the callback.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { Client as ClientV2 } from '@modelcontextprotocol/client';
import { StdioClientTransport as StdioClientTransportV2 } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport as TransportV1 } from '@modelcontextprotocol/sdk/shared/transport.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const SERVER = {
  command: process.execPath,
  args: ['--import', 'tsx', 'examples/calculator.ts'],
  cwd: REPO_ROOT,
  stderr: 'pipe' as const,
};
const CLIENT_INFO = { name: 'toolwire-interop', version: '0.0.0' };
const SERVER_INFO = { name: 'calculator', version: '1.0.0' };
const MODERN = '2026-07-28';
const LATEST_LEGACY = '2025-11-25';
const SUM_ARGS = { name: 'calculate_sum', arguments: { a: 2, b: 3 } };

/** Per step; a spawn under tsx takes well under a second, so this only has to beat a hang. */
const STEP_TIMEOUT_MS = 10_000;
/** A whole test, spawn to exit. */
const TEST_TIMEOUT_MS = 30_000;
/** Both SDKs' close() ends stdin, then waits this long for the child before sending SIGTERM. */
const SDK_CLOSE_GRACE_MS = 2_000;

const EXPECTED_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'The first addend' },
    b: { type: 'number', description: 'The second addend' },
  },
  required: ['a', 'b'],
};
const EXPECTED_OUTPUT_SCHEMA = {
  type: 'object',
  properties: { sum: { type: 'number' } },
  required: ['sum'],
};

type Json = Record<string, unknown>;

interface ProgressEvent {
  progress: number;
  total?: number | undefined;
  message?: string | undefined;
}

/** Keeps only the fields the spec defines, so that SDK additions do not break comparisons. */
const progressEvent = ({ progress, total, message }: ProgressEvent): ProgressEvent => ({
  progress,
  ...(total !== undefined && { total }),
  ...(message !== undefined && { message }),
});

type Handler = (message: unknown, extra?: unknown) => void;

/** What both SDKs' StdioClientTransport declare and this test reads; `onmessage` and `send` are reached by cast. */
interface SdkStdioTransport {
  readonly pid: number | null;
  readonly stderr: unknown;
}

/** The members both transports have, with the message types of neither SDK. */
interface Wired {
  onmessage?: Handler | undefined;
  send: (message: unknown, options?: unknown) => Promise<void>;
}

const isResponse = (message: unknown): boolean =>
  typeof message === 'object' && message !== null && 'id' in message && !('method' in message);

/** Records the wire both ways and the server's stderr, and can reorder inbound dispatch (see the file comment). */
class WireLog {
  readonly entries: { dir: '→' | '←'; message: Json }[] = [];
  stderr = '';
  #outer = false;

  /**
   * Must run before `client.connect`: both SDKs chain a pre-set `onmessage`. The transport stays an instance of the
   * SDK's own class: v2 runs its server/discover probe on a disposable sibling process only for that exact class, so
   * the probe is not in this log (the discover result is checked through the client instead).
   */
  tap(transport: SdkStdioTransport): void {
    const writable = transport as unknown as Wired;
    const send = writable.send.bind(transport);
    writable.send = (message, options) => {
      this.entries.push({ dir: '→', message: message as Json });
      return send(message, options);
    };
    writable.onmessage = (message) => {
      if (!this.#outer) this.entries.push({ dir: '←', message: message as Json });
    };
    const stderr = transport.stderr as NodeJS.ReadableStream | null;
    stderr?.on('data', (chunk: Buffer | string) => (this.stderr += chunk.toString()));
  }

  /**
   * After connect: dispatches each response on a later macrotask, so that the SDK's microtask-deferred handlers
   * for notifications received before it run first, as they arrived.
   */
  dispatchResponsesInOrder(transport: SdkStdioTransport): void {
    const wired = transport as unknown as Wired;
    const dispatch = wired.onmessage;
    assert.ok(dispatch, 'the SDK installed its dispatcher');
    this.#outer = true;
    wired.onmessage = (message, extra) => {
      this.entries.push({ dir: '←', message: message as Json });
      if (isResponse(message)) setImmediate(() => dispatch(message, extra));
      else dispatch(message, extra);
    };
  }

  sent(method: string): Json[] {
    return this.entries.filter((e) => e.dir === '→' && e.message.method === method).map((e) => e.message);
  }

  progressFor(token: unknown): ProgressEvent[] {
    return this.entries
      .filter((e) => e.dir === '←' && e.message.method === 'notifications/progress')
      .map((e) => e.message.params as ProgressEvent & { progressToken: unknown })
      .filter((params) => params.progressToken === token)
      .map(progressEvent);
  }

  toString(): string {
    const wire = this.entries.map((e) => `${e.dir} ${JSON.stringify(e.message)}`).join('\n');
    return `wire:\n${wire || '(nothing)'}\nserver stderr:\n${this.stderr.trim() || '(nothing)'}`;
  }
}

/** Rejects after `ms`, with the wire so far, so that nothing in a test can stall the suite. */
async function within<T>(what: string, ms: number, work: Promise<T>, log: WireLog): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} did not finish within ${ms} ms\n${log.toString()}`)),
      ms,
    );
  });
  try {
    return await Promise.race([work, timeout]);
  } catch (error) {
    if (error instanceof Error && error.message.includes('\nwire:\n')) throw error;
    throw new Error(`${what} failed: ${String(error)}\n${log.toString()}`, { cause: error });
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The spawned child, read from the transport's private `_process` field (both SDKs name it so and clear it in
 * close(), so this runs while connected). Only used to observe how the child exits.
 */
function childOf(transport: object): ChildProcess {
  const child: unknown = Reflect.get(transport, '_process');
  assert.ok(
    typeof child === 'object' && child !== null && 'exitCode' in child,
    'the SDK transport has a child',
  );
  return child as ChildProcess;
}

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** What both SDK clients share, as this test drives them. */
interface SdkClient {
  onerror?: (error: Error) => void;
  connect(transport: never): Promise<void>;
  listTools(params?: undefined, options?: { timeout?: number }): Promise<{ tools: unknown[] }>;
  close(): Promise<void>;
}

type CallSum = (onprogress: (event: ProgressEvent) => void) => Promise<unknown>;

class Session {
  readonly log = new WireLog();
  readonly errors: Error[] = [];
  readonly #client: SdkClient;
  readonly #transport: SdkStdioTransport;
  readonly #callSum: CallSum;
  #exited: ReturnType<typeof exitOf> | undefined;
  #closed = false;

  constructor(client: SdkClient, transport: SdkStdioTransport, callSum: CallSum) {
    this.#client = client;
    this.#transport = transport;
    this.#callSum = callSum;
    client.onerror = (error) => this.errors.push(error);
    this.log.tap(transport);
  }

  async connect(): Promise<void> {
    await within('connect', STEP_TIMEOUT_MS, this.#client.connect(this.#transport as never), this.log);
    this.#exited = exitOf(childOf(this.#transport));
    assert.ok(this.#transport.pid !== null);
  }

  listTools(): Promise<{ tools: unknown[] }> {
    return within(
      'tools/list',
      STEP_TIMEOUT_MS,
      this.#client.listTools(undefined, { timeout: STEP_TIMEOUT_MS }),
      this.log,
    );
  }

  /** Calls calculate_sum; returns the result, the callbacks and the progress notifications the wire carried. */
  async callSum(): Promise<{
    result: unknown;
    delivered: ProgressEvent[];
    onWire: ProgressEvent[];
    token: unknown;
  }> {
    const delivered: ProgressEvent[] = [];
    const calls = this.log.sent('tools/call').length;
    const result = await within(
      'tools/call',
      STEP_TIMEOUT_MS,
      this.#callSum((event) => delivered.push(progressEvent(event))),
      this.log,
    );
    const request = this.log.sent('tools/call')[calls];
    const token = ((request?.params as Json | undefined)?._meta as Json | undefined)?.progressToken;
    assert.ok(token !== undefined, `the client sent a progress token\n${this.log.toString()}`);
    // Let notifications that the SDK deferred, and that lost the race, settle into onerror.
    await new Promise((resolve) => setImmediate(resolve));
    return { result, delivered, onWire: this.log.progressFor(token), token };
  }

  dispatchResponsesInOrder(): void {
    this.log.dispatchResponsesInOrder(this.#transport);
  }

  /** Closes the client; the child must exit by itself on stdin EOF with code 0, before the SDK would signal it. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const started = performance.now();
    await within('close', 3 * SDK_CLOSE_GRACE_MS, this.#client.close(), this.log);
    if (this.#exited === undefined) return;
    const exit = await within('child exit', SDK_CLOSE_GRACE_MS, this.#exited, this.log);
    const elapsed = performance.now() - started;
    assert.deepEqual(exit, { code: 0, signal: null }, `the server exits with code 0\n${this.log.toString()}`);
    assert.ok(
      elapsed < SDK_CLOSE_GRACE_MS,
      `the server exits on stdin EOF, before the SDK's SIGTERM (${Math.round(elapsed)} ms)\n${this.log.toString()}`,
    );
  }
}

function assertCalculatorListed(listed: { tools: unknown[] }, log: WireLog): void {
  const tools = listed.tools as Json[];
  assert.deepEqual(
    tools.map((tool) => tool.name),
    ['calculate_sum'],
    log.toString(),
  );
  const tool = tools[0]!;
  assert.equal(tool.title, 'Add two numbers');
  assert.match(String(tool.description), /Adds two numbers/);
  const { $schema: inputDialect, ...input } = tool.inputSchema as Json;
  const { $schema: outputDialect, additionalProperties, ...output } = tool.outputSchema as Json;
  assert.deepEqual(input, EXPECTED_INPUT_SCHEMA);
  assert.deepEqual(output, EXPECTED_OUTPUT_SCHEMA);
  assert.ok(additionalProperties === undefined || additionalProperties === false);
  for (const dialect of [inputDialect, outputDialect]) {
    assert.ok(
      dialect === undefined || dialect === 'https://json-schema.org/draft/2020-12/schema',
      String(dialect),
    );
  }
  assert.deepEqual(tool.annotations, { readOnlyHint: true, openWorldHint: false, idempotentHint: true });
}

function assertSum(result: unknown, log: WireLog): void {
  const { content, structuredContent, isError } = result as Json;
  assert.notEqual(isError, true, log.toString());
  assert.deepEqual(structuredContent, { sum: 5 }, log.toString());
  assert.ok(Array.isArray(content) && content.length === 1, log.toString());
  const [block] = content as { type: string; text?: string }[];
  assert.equal(block?.type, 'text');
  assert.deepEqual(JSON.parse(block?.text ?? 'null'), { sum: 5 }, 'the text block is the JSON of the result');
}

/**
 * The handler reports 0, 1 and 2 of 2. The server coalesces reports within its interval: the first goes out at once
 * and the last is flushed before the response, so those two are always there and the middle one may not be.
 */
function assertProgressSeries(events: ProgressEvent[], what: string, log: WireLog): void {
  assert.ok(events.length >= 2, `${what}: at least two (${JSON.stringify(events)})\n${log.toString()}`);
  for (let i = 1; i < events.length; i++) {
    assert.ok(events[i]!.progress > events[i - 1]!.progress, `${what} increases: ${JSON.stringify(events)}`);
  }
  assert.deepEqual(events[0], { progress: 0, total: 2, message: 'adding' });
  assert.deepEqual(events.at(-1), { progress: 2, total: 2, message: 'done' });
}

const isUnknownToken = (error: Error, token: unknown): boolean =>
  error.message.includes('progress notification for an unknown token') &&
  error.message.includes(`"progressToken":${JSON.stringify(token)}`);

async function exercise(session: Session): Promise<void> {
  const { log } = session;
  assertCalculatorListed(await session.listTools(), log);

  // 1. The SDK as shipped.
  const shipped = await session.callSum();
  assertSum(shipped.result, log);
  assertProgressSeries(shipped.onWire, 'progress on the wire', log);
  // Dispatch keeps arrival order, so the callbacks see a prefix; the rest lost the SDK's race, each as one onerror.
  assert.deepEqual(shipped.delivered, shipped.onWire.slice(0, shipped.delivered.length), log.toString());
  const lost = session.errors.filter((error) => isUnknownToken(error, shipped.token));
  assert.equal(lost.length, shipped.onWire.length - shipped.delivered.length, log.toString());
  assert.deepEqual(
    session.errors.filter((error) => !lost.includes(error)).map(String),
    [],
    'no other client error',
  );
  session.errors.length = 0;

  // 2. Responses dispatched after the notifications received before them: every notification reaches the callback.
  session.dispatchResponsesInOrder();
  const ordered = await session.callSum();
  assertSum(ordered.result, log);
  assertProgressSeries(ordered.delivered, 'progress callbacks', log);
  assert.deepEqual(ordered.delivered, ordered.onWire, log.toString());
  assert.notEqual(ordered.token, shipped.token, 'a fresh token per call');
  assert.deepEqual(session.errors.map(String), [], 'no client error');
}

/** Connects, runs `checks` and the exercise, and always closes (so the child never outlives a failure). */
async function run(session: Session, checks: () => void): Promise<void> {
  try {
    await session.connect();
    checks();
    await exercise(session);
  } catch (error) {
    await session.close().catch(() => {});
    throw error;
  }
  await session.close();
}

describe('official SDK clients against examples/calculator.ts over stdio', () => {
  it('@modelcontextprotocol/client 2.x on the 2026-07-28 wire', { timeout: TEST_TIMEOUT_MS }, async () => {
    // A pin selects the modern era without fallback: connect() fails unless server/discover offers 2026-07-28.
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: { pin: MODERN } } });
    const transport = new StdioClientTransportV2(SERVER);
    const session = new Session(client, transport, (onprogress) =>
      client.callTool(SUM_ARGS, { onprogress, timeout: STEP_TIMEOUT_MS }),
    );
    await run(session, () => {
      assert.equal(client.getProtocolEra(), 'modern', session.log.toString());
      assert.equal(client.getNegotiatedProtocolVersion(), MODERN);
      assert.ok(
        client.getDiscoverResult()?.supportedVersions.includes(MODERN),
        'server/discover offers 2026-07-28',
      );
      assert.deepEqual(client.getServerVersion(), SERVER_INFO);
      assert.ok(client.getServerCapabilities()?.tools, 'the server advertises tools');
      assert.deepEqual(session.log.sent('initialize'), [], 'no initialize on the modern wire');
    });
    // Every request carried the per-request _meta envelope of 2026-07-28.
    for (const method of ['tools/list', 'tools/call']) {
      for (const request of session.log.sent(method)) {
        const meta = (request.params as Json)._meta as Json;
        assert.equal(meta['io.modelcontextprotocol/protocolVersion'], MODERN, method);
        assert.deepEqual(meta['io.modelcontextprotocol/clientInfo'], CLIENT_INFO, method);
      }
    }
  });

  it('@modelcontextprotocol/client 2.x on the legacy wire', { timeout: TEST_TIMEOUT_MS }, async () => {
    // mode 'legacy' is also the default: the plain 2025 initialize handshake, no server/discover probe.
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: 'legacy' } });
    const transport = new StdioClientTransportV2(SERVER);
    const session = new Session(client, transport, (onprogress) =>
      client.callTool(SUM_ARGS, { onprogress, timeout: STEP_TIMEOUT_MS }),
    );
    await run(session, () => {
      assert.equal(client.getProtocolEra(), 'legacy', session.log.toString());
      assert.equal(client.getNegotiatedProtocolVersion(), LATEST_LEGACY);
      assert.equal(client.getDiscoverResult(), undefined);
      assert.deepEqual(client.getServerVersion(), SERVER_INFO);
      assert.equal(session.log.entries[0]?.message.method, 'initialize', session.log.toString());
      assert.equal(session.log.sent('notifications/initialized').length, 1);
      assert.deepEqual(session.log.sent('server/discover'), []);
    });
  });

  it('@modelcontextprotocol/sdk 1.x on the legacy wire', { timeout: TEST_TIMEOUT_MS }, async () => {
    const client = new ClientV1(CLIENT_INFO);
    const transport = new StdioClientTransportV1(SERVER);
    // v1's Client has no getter for the negotiated version; it hands it to this optional transport hook.
    let negotiated: string | undefined;
    (transport as TransportV1).setProtocolVersion = (version: string) => (negotiated = version);
    const session = new Session(client, transport, (onprogress) =>
      client.callTool(SUM_ARGS, undefined, { onprogress, timeout: STEP_TIMEOUT_MS }),
    );
    await run(session, () => {
      assert.equal(negotiated, LATEST_LEGACY, session.log.toString());
      assert.deepEqual(client.getServerVersion(), SERVER_INFO);
      assert.equal(session.log.entries[0]?.message.method, 'initialize', session.log.toString());
      assert.equal(session.log.sent('notifications/initialized').length, 1);
    });
  });
});
