// The node:http server listenHttp runs: receive timeouts set on purpose (not Node's 60 s / 300 s), and two caps on
// open connections: past the soft one a request gets 503 with Retry-After, past the hard one a socket is dropped.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from '../../server/index.js';
import type { ResolvedHttpOptions } from './options.js';
import { NodeExchange } from './node-adapter.js';
import { sendBusy } from './respond.js';

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

export function createNodeServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  options: ResolvedHttpOptions,
): Server {
  const { headersTimeoutMs, keepAliveTimeoutMs, maxConnections, hardMaxConnections } = options.server;
  // node:http's requestTimeout runs from the first byte of a request to its last, and stops there: a response
  // that streams for minutes is not cut. Headers plus body bounds exactly the receiving.
  const requestMs = headersTimeoutMs + options.bodyTimeoutMs;
  const cap = new ConnectionCap(maxConnections, options.logger);
  const server = createServer(
    {
      headersTimeout: nodeMs(headersTimeoutMs),
      requestTimeout: nodeMs(requestMs),
      connectionsCheckingInterval: checkingInterval(headersTimeoutMs, requestMs),
    },
    (req, res) => {
      if (!cap.refuses(req.socket)) {
        listener(req, res);
        return;
      }
      sendBusy(
        new NodeExchange(req, res),
        {},
        options.retryAfterSeconds,
        `too many open connections (limit ${maxConnections})`,
      );
    },
  );
  server.keepAliveTimeout = nodeMs(keepAliveTimeoutMs);
  if (hardMaxConnections !== Infinity) server.maxConnections = hardMaxConnections;
  server.on('connection', cap.accept);
  return server;
}
