// The HTTP transport core, written once for both adapters: screening (Host, Origin, CORS), a policy's routes, who is
// calling (the authenticate hook, before any body is read), routing by path and method, and shutdown. It works on
// HttpExchange only, never on node:http or fetch objects.

import { ErrorCode } from '../../jsonrpc/index.js';
import { ANONYMOUS_CALLER, type Caller } from '../../protocol/index.js';
import { LiveList } from '../../protocol/live-list.js';
import type { McpServer } from '../../server/index.js';
import { authenticateRequest } from './authenticate.js';
import { BodyBudget } from './body-budget.js';
import type { HttpContext } from './context.js';
import { HttpRequestView } from './edge.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { openSseSession } from './legacy/http-sse.js';
import { SessionRegistry } from './legacy/session-registry.js';
import { handleLegacyDelete, handleLegacyGet } from './legacy/streams.js';
import type { ResolvedHttpOptions } from './options.js';
import { handlePost } from './post.js';
import { sendError } from './respond.js';
import { ROUTE_METHODS, serveRoute } from './routes.js';
import { corsHeaders, hostAllowed, originAllowed, preflightHeaders } from './security.js';

/** What a request to the MCP paths asks for, once its path and method are known. */
type Target = 'endpoint' | 'sse' | 'messages';

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
      channels: new LiveList(),
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
    for (const channel of this.context.channels.items()) channel.abort('the server is shutting down');
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
      this.#shuttingDown(exchange, headers);
      return;
    }
    const { path, method } = exchange;
    const route = options.routes?.get(path);
    if (method === 'OPTIONS') {
      this.#preflight(exchange, headers, route === undefined ? 'GET, POST, DELETE, OPTIONS' : ROUTE_METHODS);
      return;
    }
    // Discovery documents first: a client reads them to learn how to authenticate.
    if (route !== undefined)
      return serveRoute(route, new HttpRequestView(exchange), exchange, headers, options);
    const target: Target | undefined =
      path === options.path
        ? 'endpoint'
        : sessions === undefined
          ? undefined
          : path === `${options.path}/sse` && method === 'GET'
            ? 'sse'
            : path === `${options.path}/messages` && method === 'POST'
              ? 'messages'
              : undefined;
    if (target === undefined) {
      sendError(
        exchange,
        404,
        headers,
        undefined,
        ErrorCode.InvalidRequest,
        `Not Found: the MCP endpoint is ${options.path}`,
      );
      return;
    }
    const view = new HttpRequestView(exchange);
    const { authenticate } = options;
    if (authenticate === undefined) return this.#serve(exchange, headers, target, ANONYMOUS_CALLER, view);
    // Before the body is read: a client that cannot say who it is gets no buffer.
    const caller = authenticateRequest(authenticate, view, exchange, headers, options);
    if (caller instanceof Promise) {
      return caller.then((known) => {
        if (known === undefined) return;
        // The core may have closed while the hook ran.
        if (this.#closed) this.#shuttingDown(exchange, headers);
        else return this.#serve(exchange, headers, target, known, view);
      });
    }
    if (caller !== undefined) return this.#serve(exchange, headers, target, caller, view);
  }

  #serve(
    exchange: HttpExchange,
    headers: OutgoingHeaders,
    target: Target,
    caller: Caller,
    view: HttpRequestView,
  ): void | Promise<void> {
    const { context } = this;
    if (target === 'messages') return handlePost(context, exchange, headers, 'messages', caller, view);
    if (target === 'sse') {
      // Only routed when the legacy wire is on (#route checks).
      if (context.sessions !== undefined)
        openSseSession(context, context.sessions, exchange, headers, caller);
      return;
    }
    switch (exchange.method) {
      case 'POST':
        return handlePost(context, exchange, headers, 'endpoint', caller, view);
      case 'GET':
        return handleLegacyGet(context, exchange, headers, caller);
      case 'DELETE':
        return handleLegacyDelete(context, exchange, headers, caller);
      default:
        sendError(
          exchange,
          405,
          { ...headers, allow: 'GET, POST, DELETE' },
          undefined,
          ErrorCode.InvalidRequest,
          `Method Not Allowed: ${exchange.method}`,
        );
        return;
    }
  }

  #shuttingDown(exchange: HttpExchange, headers: OutgoingHeaders): void {
    sendError(
      exchange,
      503,
      headers,
      undefined,
      ErrorCode.InternalError,
      'Service Unavailable: the server is shutting down',
    );
  }

  /** CORS preflight: allowed origins get the CORS answer; anyone else a bare 204 that browsers will refuse. */
  #preflight(exchange: HttpExchange, headers: OutgoingHeaders, allow: string): void {
    const cors = 'access-control-allow-origin' in headers;
    exchange.respond(204, {
      ...headers,
      allow,
      ...(cors && preflightHeaders(exchange.header('access-control-request-headers'), allow)),
    });
  }
}
