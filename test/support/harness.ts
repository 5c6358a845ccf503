// A tiny raw JSON-RPC client over the in-memory linked pair: tests speak the wire directly and see every byte.

import type { JsonObject, RequestId } from '../../src/jsonrpc/index.js';
import { MODERN_REVISION, MetaKey, type Implementation, type Transport } from '../../src/protocol/index.js';
import {
  McpServer,
  silentLogger,
  type Logger,
  type ServerConnection,
  type ServerOptions,
} from '../../src/server/index.js';
import { createLinkedPair } from '../../src/transports/memory/index.js';

// Captured at load, so a test that fakes setTimeout (t.mock.timers) still gets real waiting limits here.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;

/** How long a test waits for a message before failing with what it did receive. */
const DEFAULT_WAIT_MS = 2000;

/** The identity every test server uses. */
export const TEST_INFO: Implementation = { name: 'core-test', version: '1.0.0' };

/** The `_meta` every modern result carries: the server's identity. */
export const SERVER_INFO_META: JsonObject = { [MetaKey.ServerInfo]: TEST_INFO };

/** A server named TEST_INFO that logs nowhere unless the test passes a logger. */
export const testServer = (options: ServerOptions = {}): McpServer =>
  new McpServer(TEST_INFO, { logger: silentLogger, ...options });

/** An error object as it arrives on the wire. */
export interface WireError {
  code: number;
  message: string;
  data?: unknown;
}

/** One JSON-RPC message the server sent: a response, a notification or (legacy) a request. */
export interface WireMessage {
  jsonrpc: string;
  id?: RequestId;
  method?: string;
  params?: JsonObject;
  result?: JsonObject;
  error?: WireError;
}

/** What arrived: one message, or an array of them (the answer to a 2025-03-26 batch). */
export type Received = WireMessage | WireMessage[];

export interface TrafficEntry {
  direction: 'client->server' | 'server->client';
  text: string;
}

export interface RequestOptions {
  /** The request id; by default the next integer from 1 on. */
  id?: RequestId;
  timeoutMs?: number;
}

export interface RawClient {
  /** Sends a value as JSON, or a string exactly as given (to send malformed text). */
  send(message: object | string): void;
  /** Sends a request and resolves with its response (same id, a result or an error, no method). */
  request(method: string, params?: JsonObject, options?: RequestOptions): Promise<WireMessage>;
  /** Every message received so far, in order. */
  received(): readonly Received[];
  /** Notifications received so far (a method and no id), in order. */
  notifications(): WireMessage[];
  /** The first single message, already received (from index `from` on) or still to come, that satisfies `predicate`. */
  waitFor(
    predicate: (message: WireMessage) => boolean,
    timeoutMs?: number,
    from?: number,
  ): Promise<WireMessage>;
  /** The first batch answer (a JSON array), already received or still to come. */
  waitForBatch(timeoutMs?: number): Promise<WireMessage[]>;
  /**
   * A server/discover round trip (id "flush-N"), then one macrotask turn. Whatever the server sent before
   * answering, or sends from work that was only waiting on microtasks, has arrived once this resolves.
   */
  flush(): Promise<void>;
  /** Every message on the wire in both directions, as the exact text sent. */
  readonly traffic: readonly TrafficEntry[];
  /** The server's side of the connection. */
  readonly connection: ServerConnection;
  /** The client's transport (close it to end the connection). */
  readonly transport: Transport;
}

const isWireMessage = (value: unknown): value is WireMessage =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The response to `id`: same id (same type), no method. */
export const isResponseTo =
  (id: RequestId) =>
  (message: WireMessage): boolean =>
    message.id === id && message.method === undefined;

/** A notification with this method, optionally passing a further check. */
export const isNotification =
  (method: string, check: (message: WireMessage) => boolean = () => true) =>
  (message: WireMessage): boolean =>
    message.id === undefined && message.method === method && check(message);

/** A request from the server to the client (legacy wire) with this method. */
export const isServerRequest =
  (method: string) =>
  (message: WireMessage): boolean =>
    message.id !== undefined && message.method === method;

interface Waiter {
  predicate: (message: Received) => boolean;
  resolve: (message: Received) => void;
}

/** Connects a raw client to `server` over a fresh in-memory pair. */
export async function connect(server: McpServer): Promise<RawClient> {
  const traffic: TrafficEntry[] = [];
  const [clientSide, serverSide] = createLinkedPair({
    onTraffic: (direction, text) =>
      traffic.push({ direction: direction === 'a->b' ? 'client->server' : 'server->client', text }),
  });
  const received: Received[] = [];
  const waiters = new Set<Waiter>();
  clientSide.onmessage = (raw) => {
    const parsed: unknown = typeof raw === 'string' ? JSON.parse(raw) : raw;
    const message: Received = Array.isArray(parsed)
      ? parsed.filter(isWireMessage)
      : isWireMessage(parsed)
        ? parsed
        : { jsonrpc: `not an object: ${JSON.stringify(parsed)}` };
    received.push(message);
    for (const waiter of [...waiters]) {
      if (waiter.predicate(message)) {
        waiters.delete(waiter);
        waiter.resolve(message);
      }
    }
  };
  const connection = await server.connect(serverSide);
  await clientSide.start();

  const waitForAny = <T extends Received>(
    guard: (message: Received) => message is T,
    timeoutMs: number,
    from = 0,
  ): Promise<T> => {
    const already = received.slice(from).find(guard);
    if (already !== undefined) return Promise.resolve(already);
    return new Promise((resolve, reject) => {
      const timer = realSetTimeout(() => {
        waiters.delete(waiter);
        reject(new Error(`nothing matched within ${timeoutMs} ms; received ${JSON.stringify(received)}`));
      }, timeoutMs);
      const waiter: Waiter = {
        predicate: guard,
        resolve: (message) => {
          realClearTimeout(timer);
          if (guard(message)) resolve(message);
        },
      };
      waiters.add(waiter);
    });
  };
  const waitFor = (
    predicate: (message: WireMessage) => boolean,
    timeoutMs = DEFAULT_WAIT_MS,
    from = 0,
  ): Promise<WireMessage> =>
    waitForAny((m): m is WireMessage => !Array.isArray(m) && predicate(m), timeoutMs, from);
  const waitForBatch = (timeoutMs = DEFAULT_WAIT_MS): Promise<WireMessage[]> =>
    waitForAny((m): m is WireMessage[] => Array.isArray(m), timeoutMs);

  const send = (message: object | string): void =>
    clientSide.send(typeof message === 'string' ? message : JSON.stringify(message));
  let nextId = 0;
  const request = (
    method: string,
    params?: JsonObject,
    options: RequestOptions = {},
  ): Promise<WireMessage> => {
    const id = options.id ?? ++nextId;
    const body: JsonObject = { jsonrpc: '2.0', id, method };
    if (params !== undefined) body.params = params;
    // Only what arrives from now on can answer it: ids may be reused once answered.
    const from = received.length;
    send(body);
    return waitFor(isResponseTo(id), options.timeoutMs, from);
  };
  let flushes = 0;

  return {
    send,
    request,
    received: () => received,
    notifications: () =>
      received.filter(
        (m): m is WireMessage => !Array.isArray(m) && m.id === undefined && m.method !== undefined,
      ),
    waitFor,
    waitForBatch,
    async flush() {
      await request('server/discover', modern(), { id: `flush-${++flushes}` });
      // The pair delivers by microtask and handlers settle by microtask: one macrotask turn lets every such chain
      // (a late response, a stray notification) finish, so a test can assert that nothing more arrives.
      await new Promise((resolve) => setImmediate(resolve));
    },
    traffic,
    connection,
    transport: clientSide,
  };
}

/** The per-request `_meta` of a 2026-07-28 request, plus anything in `extra` (progressToken, logLevel…). */
export const modernMeta = (extra: JsonObject = {}): JsonObject => ({
  [MetaKey.ProtocolVersion]: MODERN_REVISION,
  [MetaKey.ClientCapabilities]: {},
  ...extra,
});

/** Params of a modern request: `params` plus the modern `_meta` (with `meta` merged in). */
export const modern = (params: JsonObject = {}, meta: JsonObject = {}): JsonObject => ({
  ...params,
  _meta: modernMeta(meta),
});

/** Opens a legacy session: initialize with `revision` (and `capabilities`), then notifications/initialized. */
export async function initializeLegacy(
  client: RawClient,
  revision: string,
  capabilities: JsonObject = {},
): Promise<WireMessage> {
  const response = await client.request('initialize', {
    protocolVersion: revision,
    capabilities,
    clientInfo: { name: 'raw-test-client', version: '0.0.0' },
  });
  client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return response;
}

/** The text of the first content block of a tools/call result (for results whose text holds a random part). */
export function firstText(response: WireMessage): string {
  const content = response.result?.content;
  const first: unknown = Array.isArray(content) ? content[0] : undefined;
  if (typeof first !== 'object' || first === null || !('text' in first) || typeof first.text !== 'string') {
    throw new Error(`no text content in ${JSON.stringify(response)}`);
  }
  return first.text;
}

/** A logger that keeps every line, so tests can assert what reached the server log (and what did not). */
export interface CapturingLogger extends Logger {
  readonly lines: { level: string; message: string; details: string }[];
  /** Everything logged as one string: messages, and error messages with their stacks. */
  text(): string;
}

const detailText = (details: unknown): string => {
  if (details === undefined) return '';
  if (details instanceof Error) return details.stack ?? `${details.name}: ${details.message}`;
  try {
    return JSON.stringify(details) ?? String(details);
  } catch {
    return String(details);
  }
};

export function capturingLogger(): CapturingLogger {
  const lines: { level: string; message: string; details: string }[] = [];
  const at =
    (level: string) =>
    (message: string, details?: unknown): void => {
      lines.push({ level, message, details: detailText(details) });
    };
  return {
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    lines,
    text: () => lines.map((line) => `${line.level}: ${line.message} ${line.details}`).join('\n'),
  };
}

/** A promise settled from outside: handlers use it to tell the test "I started", "I was aborted". */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((settle) => (resolve = settle));
  return { promise, resolve };
}
