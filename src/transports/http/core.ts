// The HTTP transport core, written once for both adapters: screening (Host, Origin, CORS), routing by path and
// method, and shutdown. It works on HttpExchange only, never on node:http or fetch objects.

import { ErrorCode } from '../../jsonrpc/index.js';
import type { McpServer } from '../../server/index.js';
import { BodyBudget } from './body-budget.js';
import type { HttpContext } from './context.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { openSseSession } from './legacy/http-sse.js';
import { SessionRegistry } from './legacy/session-registry.js';
import { handleLegacyDelete, handleLegacyGet } from './legacy/streams.js';
import type { ResolvedHttpOptions } from './options.js';
import { handlePost } from './post.js';
import { sendError } from './respond.js';
import { corsHeaders, hostAllowed, originAllowed, preflightHeaders } from './security.js';

export class HttpCore {
  readonly context: HttpContext;
  #closed = false;

  constructor(server: McpServer, options: ResolvedHttpOptions) {
    this.context = {
      server,
      options,
      bodyLimits: {
        budget: new BodyBudget(options.maxBufferedBodyBytes, options.maxBufferedBodyBytesPerAddress),
        timeoutMs: options.bodyTimeoutMs,
        idleTimeoutMs: options.bodyIdleTimeoutMs,
      },
      sessions:
        options.legacy === undefined ? undefined : new SessionRegistry(options.legacy, options.logger),
      channels: new Set(),
    };
  }

  /** Legacy sessions open right now (both kinds). */
  get sessionCount(): number {
    return this.context.sessions?.size ?? 0;
  }

  /** Bytes of request bodies being buffered right now (the shared budget in use). */
  get bufferedBodyBytes(): number {
    return this.context.bodyLimits.budget.used;
  }

  /** Bytes of request bodies from the bucket of `address` being buffered right now (0 when shares are off). */
  bufferedBodyBytesFrom(address: string): number {
    return this.context.bodyLimits.budget.heldBy(address);
  }

  /** Handles one exchange; never rejects (a failure becomes a 500 and a log line). */
  async handle(exchange: HttpExchange): Promise<void> {
    try {
      await this.#route(exchange);
    } catch (error) {
      this.context.options.logger.error('HTTP transport: request failed', error);
      sendError(exchange, 500, {}, undefined, ErrorCode.InternalError, 'Internal error');
    }
  }

  /** Stops taking requests, ends the ones in flight and every session. The McpServer itself stays open. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const channel of [...this.context.channels]) channel.abort('the server is shutting down');
    this.context.sessions?.closeAll();
  }

  async #route(exchange: HttpExchange): Promise<void> {
    const { options, sessions } = this.context;
    const host = exchange.header('host');
    const origin = exchange.header('origin');
    if (options.hosts !== undefined && !hostAllowed(options.hosts, host)) {
      sendError(
        exchange,
        421,
        {},
        undefined,
        ErrorCode.InvalidRequest,
        `Misdirected Request: Host ${JSON.stringify(host ?? '')} is not allowed here (see allowedHosts)`,
      );
      return;
    }
    if (
      options.checkOrigin &&
      origin !== undefined &&
      !originAllowed(options, origin, host, exchange.protocol)
    ) {
      sendError(
        exchange,
        403,
        {},
        undefined,
        ErrorCode.InvalidRequest,
        `Forbidden: Origin ${JSON.stringify(origin)} is not allowed (see allowedOrigins)`,
      );
      return;
    }
    const headers: OutgoingHeaders = corsHeaders(options.corsOrigins, origin) ?? {};
    if (this.#closed) {
      sendError(
        exchange,
        503,
        headers,
        undefined,
        ErrorCode.InternalError,
        'Service Unavailable: the server is shutting down',
      );
      return;
    }
    const { path, method } = exchange;
    if (method === 'OPTIONS') {
      this.#preflight(exchange, headers);
      return;
    }
    if (path === options.path) {
      switch (method) {
        case 'POST':
          return handlePost(this.context, exchange, headers, 'endpoint');
        case 'GET':
          return handleLegacyGet(this.context, exchange, headers);
        case 'DELETE':
          return handleLegacyDelete(this.context, exchange, headers);
        default:
          sendError(
            exchange,
            405,
            { ...headers, allow: 'GET, POST, DELETE' },
            undefined,
            ErrorCode.InvalidRequest,
            `Method Not Allowed: ${method}`,
          );
          return;
      }
    }
    if (sessions !== undefined && path === `${options.path}/sse` && method === 'GET') {
      openSseSession(this.context, sessions, exchange, headers);
      return;
    }
    if (sessions !== undefined && path === `${options.path}/messages` && method === 'POST') {
      return handlePost(this.context, exchange, headers, 'messages');
    }
    sendError(
      exchange,
      404,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      `Not Found: the MCP endpoint is ${options.path}`,
    );
  }

  /** CORS preflight: allowed origins get the CORS answer; anyone else a bare 204 that browsers will refuse. */
  #preflight(exchange: HttpExchange, headers: OutgoingHeaders): void {
    const cors = 'access-control-allow-origin' in headers;
    exchange.respond(204, {
      ...headers,
      allow: 'GET, POST, DELETE, OPTIONS',
      ...(cors && preflightHeaders(exchange.header('access-control-request-headers'))),
    });
  }
}
