// What a node:http server serving MCP needs beyond the request listener: receive timeouts set on purpose (not Node's
// 60 s / 300 s) and two caps on open connections (past the soft one a request gets 503 with Retry-After, past the
// hard one a socket is dropped). listenHttp applies them to its own server; hardenNodeServer to the user's.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Server as HttpsServer } from 'node:https';
import type { Socket } from 'node:net';
import { Server as TlsServer } from 'node:tls';
import { DefinitionError, stderrLogger, type Logger } from '../../server/index.js';
import { NodeExchange } from './node-adapter.js';
import { DEFAULT_BODY_TIMEOUT_MS, type HttpOptions, type ResolvedHttpOptions } from './options.js';
import { limit, retryAfter } from './option-checks.js';
import { sendBusy } from './respond.js';
import { resolveServerOptions, type ResolvedServerOptions } from './server-options.js';

/** node:http takes 0 for "no limit". */
const nodeMs = (ms: number): number => (ms === Infinity ? 0 : ms);

/**
 * How often node:http looks for connections past their header or request deadline. Its default (30 s) would let a
 * slow sender outlive a 10 s deadline by 30 s; a quarter of the shortest deadline, at most 1 s, keeps the overrun
 * small. The check walks only connections that are mid-request.
 */
function checkingInterval(headersMs: number, requestMs: number): number {
  const shortest = Math.min(headersMs, requestMs);
  return shortest === Infinity ? 30_000 : Math.min(1_000, Math.max(10, Math.floor(shortest / 4)));
}

/** Counts open sockets; those accepted past `soft` are remembered, and each of their requests gets 503. */
class ConnectionCap {
  readonly #soft: number;
  readonly #logger: Logger;
  readonly #over = new WeakSet<Socket>();
  #open = 0;
  #warned = false;

  constructor(soft: number, logger: Logger) {
    this.#soft = soft;
    this.#logger = logger;
  }

  // A field, not a method: it is the server's 'connection' listener.
  readonly accept = (socket: Socket): void => {
    this.#open++;
    socket.once('close', this.#closed);
    if (this.#open <= this.#soft) return;
    this.#over.add(socket);
    if (!this.#warned) {
      this.#warned = true; // once per overload, not once per socket
      this.#logger.warn(
        `HTTP transport: ${this.#open} connections open (maxConnections ${this.#soft}); new ones get 503 until some close`,
      );
    }
  };

  readonly #closed = (): void => {
    this.#open--;
    if (this.#open <= this.#soft) this.#warned = false;
  };

  refuses(socket: Socket): boolean {
    return this.#over.has(socket);
  }
}

/** The events node:http hands a request to (with its response): the cap answers them before any listener does. */
const REQUEST_EVENTS: ReadonlySet<string | symbol> = new Set([
  'request',
  'checkContinue',
  'checkExpectation',
]);

/** Servers already given their settings: a second cap and a second emit wrapper would count every socket twice. */
const hardened = new WeakSet<Server | HttpsServer>();

/** The one path both listenHttp and hardenNodeServer take: the resolved settings applied to a server not yet listening. */
function applyServerOptions(server: Server | HttpsServer, options: ResolvedServerOptions): void {
  if (server.listening) {
    throw new DefinitionError(
      'HTTP transport: hardenNodeServer must be called before server.listen() (node:http starts its deadline checks when it starts listening, and connections opened before would not be counted)',
    );
  }
  if (hardened.has(server)) {
    throw new DefinitionError(
      'HTTP transport: this server has its limits already (hardenNodeServer was called twice)',
    );
  }
  hardened.add(server);
  const { headersTimeoutMs, receiveTimeoutMs, keepAliveTimeoutMs, maxConnections, hardMaxConnections } =
    options;
  server.headersTimeout = nodeMs(headersTimeoutMs);
  // node:http's requestTimeout runs from the first byte of a request to its last, and stops there: a response
  // that streams for minutes is not cut. Headers plus body bounds exactly the receiving.
  server.requestTimeout = nodeMs(receiveTimeoutMs);
  // Not in @types/node as a property, but node:http reads it from the server when it starts listening.
  (server as { connectionsCheckingInterval?: number }).connectionsCheckingInterval = checkingInterval(
    headersTimeoutMs,
    receiveTimeoutMs,
  );
  server.keepAliveTimeout = nodeMs(keepAliveTimeoutMs);
  if (hardMaxConnections !== Infinity) server.maxConnections = hardMaxConnections;
  const cap = new ConnectionCap(maxConnections, options.logger);
  // An https server hands node:http the TLS socket (req.socket) in 'secureConnection'; 'connection' is the raw one.
  server.on(server instanceof TlsServer ? 'secureConnection' : 'connection', cap.accept);
  // The refusal must come before every request listener, including ones added later and the user's own: wrapping
  // emit is the one place node:http goes through for each request.
  // Its overloads differ between http and https; what it forwards is what node:http gave.
  const emit = server.emit.bind(server) as (event: string | symbol, ...args: unknown[]) => boolean;
  server.emit = ((event: string | symbol, ...args: unknown[]): boolean => {
    if (REQUEST_EVENTS.has(event)) {
      // node:http emits these events with (req, res), always.
      const [req, res] = args as [IncomingMessage, ServerResponse];
      if (cap.refuses(req.socket)) {
        sendBusy(
          new NodeExchange(req, res),
          {},
          options.retryAfterSeconds,
          `too many open connections (limit ${maxConnections})`,
        );
        return true;
      }
    }
    return emit(event, ...args);
  }) as typeof server.emit; // the same signature, widened above
}

/** The HttpOptions hardenNodeServer reads; pass the same object as to createNodeHandler so both agree. */
export type NodeServerOptions = Pick<
  HttpOptions,
  | 'headersTimeoutMs'
  | 'keepAliveTimeoutMs'
  | 'maxConnections'
  | 'hardMaxConnections'
  | 'bodyTimeoutMs'
  | 'retryAfterSeconds'
  | 'logger'
>;

/**
 * Gives a node:http (or https) server you created yourself what listenHttp gives its own: the header, request and
 * keep-alive timeouts, a deadline check every second at most, and the connection caps (503 with Retry-After past
 * maxConnections, dropped on accept past hardMaxConnections). createNodeHandler alone bounds bodies but cannot
 * reach the server these live on. Call it before server.listen(); it returns the server.
 *
 * @example
 * const options = { maxConnections: 500 };
 * const server = hardenNodeServer(createServer(createNodeHandler(mcp, options)), options);
 * server.listen(3333, '127.0.0.1');
 */
export function hardenNodeServer<S extends Server | HttpsServer>(
  server: S,
  options: NodeServerOptions = {},
): S {
  const logger = options.logger ?? stderrLogger;
  applyServerOptions(
    server,
    resolveServerOptions(options, {
      bodyTimeoutMs: limit(options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs', logger),
      retryAfterSeconds: retryAfter(options.retryAfterSeconds),
      logger,
    }),
  );
  return server;
}

/** listenHttp's server: `listener` on a fresh node:http server with the transport's settings. */
export function createNodeServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: ResolvedHttpOptions,
): Server {
  const server = createServer(listener);
  applyServerOptions(server, options.server);
  return server;
}
