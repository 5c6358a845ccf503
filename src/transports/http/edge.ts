// The HTTP edge a policy plugs into: the `authenticate` hook (who is calling: a Caller, or a challenge such as 401 with
// WWW-Authenticate) and `routes` (documents served beside the MCP path, like RFC 9728 protected-resource metadata).
// Their public types, the read-only view of a request they get, and the checks run on them at construction.

import type { Caller, TransportFacts } from '../../protocol/index.js';
import { DefinitionError } from '../../server/index.js';
import type { HttpExchange } from './exchange.js';

/** What the edge hooks see of an HTTP request: no body (it is not read before the caller is known). */
export interface HttpRequestInfo {
  /** Upper-case method name. */
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** The client's IP address, when known (node:http's peer; the fetch handler's clientAddress option). */
  readonly remoteAddress?: string;
  /**
   * The same object for every request of one client connection (node:http's socket), absent when the adapter cannot
   * tell: a key for what may be remembered per connection (the bearer piece remembers the last token it checked).
   */
  readonly connection?: object | undefined;
  /** A request header by name (case does not matter); repeated headers come joined with ", ". */
  header(name: string): string | undefined;
  /** The first value of a query parameter (exact name), or undefined. */
  query(name: string): string | undefined;
  /**
   * Every parameter name in the URL's query string, as sent (decoded, in order, repeats kept): a policy refuses
   * credentials sent in the URL (`?access_token=`, any case), which the MCP authorization spec forbids.
   */
  queryNames(): readonly string[];
}

/**
 * The answer of an `authenticate` hook that refuses a request: a client-error status (401 when credentials are
 * missing or invalid, 403 when they do not suffice; any 400–499) or 503 when they cannot be checked now (with
 * Retry-After), headers to add (WWW-Authenticate), and the message of the JSON-RPC error body (a default for the
 * status otherwise).
 */
export interface HttpChallenge {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly message?: string;
}

/**
 * Establishes who is calling, before the body is read: a Caller (it reaches every message of the request as
 * `extra.auth`, and a legacy session remembers the one that opened it) or a challenge. A throw, a rejection or a
 * value that is neither becomes 500 with a neutral message; the details go to the log. A hook still pending after
 * 10 s counts as failed.
 */
export type HttpAuthenticate = (
  request: HttpRequestInfo,
) => Caller | HttpChallenge | Promise<Caller | HttpChallenge>;

/** A route's answer: status (default 200), headers, and a text body (Content-Type application/json by default). */
export interface HttpRouteResponse {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/**
 * Serves one exact path beside the MCP endpoint for GET and HEAD (OPTIONS gets the CORS preflight, other methods
 * 405), before `authenticate`: discovery documents must be readable without credentials. Failures are answered as
 * for `authenticate`; a body over 1 MiB is a failure.
 */
export type HttpRoute = (request: HttpRequestInfo) => HttpRouteResponse | Promise<HttpRouteResponse>;

/** The edge options as the core uses them. */
export interface ResolvedEdgeOptions {
  authenticate: HttpAuthenticate | undefined;
  routes: ReadonlyMap<string, HttpRoute> | undefined;
}

/**
 * One request as the edge hooks and policy see it (HttpRequestInfo and, as `extra.transport`, TransportFacts): a
 * window on the exchange, so a header costs nothing until someone reads it.
 */
export class HttpRequestView implements HttpRequestInfo, TransportFacts {
  readonly kind = 'http' as const;
  declare readonly remoteAddress?: string;
  readonly #exchange: HttpExchange;

  constructor(exchange: HttpExchange) {
    this.#exchange = exchange;
    const address = exchange.remoteAddress;
    // Absent, not undefined, when unknown (an optional member of TransportFacts).
    if (address !== undefined) (this as { remoteAddress?: string }).remoteAddress = address;
  }

  get method(): string {
    return this.#exchange.method;
  }

  get path(): string {
    return this.#exchange.path;
  }

  get connection(): object | undefined {
    return this.#exchange.connection;
  }

  header(name: string): string | undefined {
    return this.#exchange.header(name.toLowerCase());
  }

  query(name: string): string | undefined {
    return this.#exchange.query(name);
  }

  queryNames(): readonly string[] {
    return this.#exchange.queryNames();
  }
}

/** A route path: "/" then URL path characters, no query or fragment. */
const ROUTE_PATH = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/;

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

function resolveRoutes(routes: unknown, mcpPath: string): ReadonlyMap<string, HttpRoute> | undefined {
  if (routes === undefined) return undefined;
  if (typeof routes !== 'object' || routes === null || Array.isArray(routes)) {
    throw new DefinitionError(
      `HTTP transport: routes must be an object from exact paths to functions (request) => { status, headers, body }; got ${typeOf(routes)}`,
    );
  }
  const taken = [mcpPath, `${mcpPath}/sse`, `${mcpPath}/messages`];
  const resolved = new Map<string, HttpRoute>();
  for (const [path, route] of Object.entries(routes)) {
    if (!ROUTE_PATH.test(path)) {
      throw new DefinitionError(
        `HTTP transport: routes key ${JSON.stringify(path)} is not a path like "/.well-known/oauth-protected-resource" (it starts with "/" and has no "?" or "#")`,
      );
    }
    if (taken.includes(path)) {
      throw new DefinitionError(
        `HTTP transport: the route ${JSON.stringify(path)} collides with the MCP endpoint (${taken.map((p) => JSON.stringify(p)).join(', ')} are its paths)`,
      );
    }
    if (typeof route !== 'function') {
      throw new DefinitionError(
        `HTTP transport: routes[${JSON.stringify(path)}] must be a function (request) => { status, headers, body }; got ${typeOf(route)}`,
      );
    }
    resolved.set(path, route as HttpRoute); // checked to be a function just above
  }
  return resolved.size === 0 ? undefined : resolved;
}

/** Checks the edge hooks of HttpOptions once, at construction, so a mistake fails at startup, not per request. */
export function resolveEdgeOptions(
  options: { authenticate?: unknown; routes?: unknown },
  mcpPath: string,
): ResolvedEdgeOptions {
  const { authenticate } = options;
  if (authenticate !== undefined && typeof authenticate !== 'function') {
    throw new DefinitionError(
      `HTTP transport: authenticate must be a function (request) => Caller | { status, headers, message }; got ${typeOf(authenticate)}`,
    );
  }
  return {
    authenticate: authenticate as HttpAuthenticate | undefined, // checked to be a function (or absent) above
    routes: resolveRoutes(options.routes, mcpPath),
  };
}

/**
 * Whether two callers are the same principal: a legacy session answers only the caller that opened it (another one
 * is told the session does not exist, so no session id can be used to act as someone else).
 */
export const sameCaller = (a: Caller, b: Caller): boolean =>
  a === b || (a.subject === b.subject && a.via === b.via);
