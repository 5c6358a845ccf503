// HTTP transport options: the public shape, the documented defaults, and the loud warnings for opt-outs.

import { DefinitionError, type Logger, type McpServer } from '../../server/index.js';
import { resolveEdgeOptions, type HttpAuthenticate, type HttpRoute } from './edge.js';
import { atLeast, limit, retryAfter } from './option-checks.js';
import { parseHostRule, type HostRule } from './security.js';
import {
  resolveServerOptions,
  type ResolvedServerOptions,
  type ServerLimitOptions,
} from './server-options.js';

export { DEFAULT_RETRY_AFTER_SECONDS } from './option-checks.js';
export {
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_CONNECTIONS,
  type ResolvedServerOptions,
} from './server-options.js';

export interface LegacyHttpOptions {
  /**
   * Legacy sessions open at once. Default 1,000. When full, a new initialize ends the longest-idle session that has no
   * request in flight (those without an open stream first), so a flood of pinged sessions cannot lock new clients
   * out; only when every session is busy does it get 503.
   */
  maxSessions?: number;
  /**
   * Sessions one client address may hold; past it, a new initialize from that address ends the address's own
   * longest-idle session. Default 100: ten addresses' worth of the default maxSessions, plenty for one machine's
   * clients. Loopback counts as ONE address (127.0.0.0/8, ::1 and ::ffff:127.x alike, since a local process can use
   * any of them), so a local flood churns its own sessions, not everyone's; IPv6 clients count per /64. Behind a
   * reverse proxy every client has the proxy's address: raise this (or set Infinity). The fetch handler knows an
   * address only through its clientAddress option; without it this cap does not apply there.
   */
  maxSessionsPerAddress?: number;
  /** A session with no request, no open stream and nothing in flight for this long is ended. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** Events kept per SSE stream for replay with Last-Event-ID (oldest dropped first). Default 100. */
  maxEventsPerStream?: number;
  /** The SSE `retry` (ms) sent when a 2025-11-25 request closes its stream to be polled. Default 1,000. */
  retryMs?: number;
}

export interface HttpOptions extends ServerLimitOptions {
  /** The MCP endpoint. Default '/mcp'. */
  path?: string;
  /** Host allowlist ("host" or "host:port"). Default on loopback: localhost, 127.0.0.1 and [::1] on any port. */
  allowedHosts?: string[];
  /** Origin allowlist (e.g. "https://app.example.com"). Default: none, except the server's own loopback origin. */
  allowedOrigins?: string[];
  /** Host and Origin validation against DNS rebinding. Default true; turning it off logs a warning. */
  dnsRebindingProtection?: boolean;
  /** Largest request body in bytes; larger ones get 413. Default 4 MiB. */
  maxBodyBytes?: number;
  /**
   * Bytes of request bodies buffered at once, over all requests. A body reserves its Content-Length before it is
   * read (a chunked one is counted as it arrives) and gives it back when read, failed or abandoned; a request that
   * does not fit gets 503 with Retry-After, before its body is read. Default 32 MiB, and never less than
   * maxBodyBytes: eight bodies of the largest size at once (thousands of ordinary few-KiB ones), so a flood of
   * slow senders cannot make the process hold 100 × 4 MiB.
   */
  maxBufferedBodyBytes?: number;
  /**
   * Bytes of maxBufferedBodyBytes that the bodies of one client address may hold at once; past it that address's
   * requests get 503 with Retry-After (before their body is read) while other addresses are still served. Addresses
   * are grouped as for legacy.maxSessionsPerAddress: all of loopback is one, IPv6 counts per /64. Default a quarter
   * of maxBufferedBodyBytes (8 MiB), never less than maxBodyBytes, never more than maxBufferedBodyBytes.
   *
   * What one address can still hold, with the defaults: 8 MiB of buffered bodies (two 4 MiB bodies, or many small
   * ones), each for at most bodyTimeoutMs (30 s) and only while it sends a piece every bodyIdleTimeoutMs (5 s); by
   * reconnecting it can keep holding them, but never more, so 24 MiB stay for everyone else. Four addresses (four
   * IPv4 hosts, or four /64s, which one IPv6 /48 holds 65,536 of) together can still fill the whole budget: past
   * that, only limits in front of the server (per-client rate and connection limits) help. Behind a reverse proxy
   * every client has the proxy's address and shares one share: set this to maxBufferedBodyBytes there, or, with the
   * fetch handler, give clientAddress the client address your proxy vouches for.
   */
  maxBufferedBodyBytesPerAddress?: number;
  /**
   * Time to receive a request's body once its headers are in; a slower sender gets 408 and is disconnected.
   * Default 30 s: a full 4 MiB body needs only about 140 KB/s. It bounds receiving only: the request's own time
   * limit (what it runs decides it: the tool's timeoutMs) starts when the body is in, and a long streamed answer is
   * never cut by this.
   */
  bodyTimeoutMs?: number;
  /** Longest pause between two pieces of a body; a stalled sender gets 408 and is disconnected. Default 5 s. */
  bodyIdleTimeoutMs?: number;
  /** The Retry-After (seconds) of 503 answers to a full body buffer or connection cap. Default 1. */
  retryAfterSeconds?: number;
  /** Deepest JSON nesting accepted; deeper bodies get 400. Default: the server's (64). */
  maxJsonDepth?: number;
  /** CORS for browser clients on other origins. Default false: no CORS headers at all. */
  cors?: { origins: string[] } | false;
  /** Serve legacy clients (2024-11-05 … 2025-11-25) on the same endpoint. Default true, with the defaults above. */
  legacy?: boolean | LegacyHttpOptions;
  /** Where transport diagnostics go. Default: the server's logger. */
  logger?: Logger;
  /**
   * Who is calling: run for every request to the MCP endpoint (and the legacy /sse and /messages paths) after the
   * Host, Origin and CORS preflight checks and before the body is read. It returns the Caller (every message of the
   * request carries it as `extra.auth`) or a challenge `{ status: 401, headers: { 'WWW-Authenticate': … } }`
   * answered at once. Default: none, every caller is ANONYMOUS_CALLER.
   */
  authenticate?: HttpAuthenticate;
  /**
   * Documents served beside the MCP endpoint, by exact path, for GET and HEAD, before authenticate: RFC 9728
   * protected-resource metadata at "/.well-known/oauth-protected-resource" and
   * "/.well-known/oauth-protected-resource/mcp", for example. A path of the endpoint itself is refused.
   */
  routes?: Readonly<Record<string, HttpRoute>>;
}

export interface ResolvedLegacyOptions {
  maxSessions: number;
  maxSessionsPerAddress: number;
  idleTimeoutMs: number;
  maxEventsPerStream: number;
  retryMs: number;
}

export interface ResolvedHttpOptions {
  path: string;
  /** Undefined when the Host header is not checked. */
  hosts: HostRule[] | undefined;
  /** False when the Origin header is not checked. */
  checkOrigin: boolean;
  allowedOrigins: ReadonlySet<string>;
  corsOrigins: ReadonlySet<string> | undefined;
  maxBodyBytes: number;
  maxBufferedBodyBytes: number;
  maxBufferedBodyBytesPerAddress: number;
  bodyTimeoutMs: number;
  bodyIdleTimeoutMs: number;
  retryAfterSeconds: number;
  maxJsonDepth: number;
  /** Undefined: every caller is ANONYMOUS_CALLER. */
  authenticate: HttpAuthenticate | undefined;
  /** Undefined when there are none. */
  routes: ReadonlyMap<string, HttpRoute> | undefined;
  /** What listenHttp (and hardenNodeServer) set on a node:http server. */
  server: ResolvedServerOptions;
  legacy: ResolvedLegacyOptions | undefined;
  logger: Logger;
  /** Interval of SSE keep-alive comments. */
  keepAliveMs: number;
}

export const DEFAULT_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_MAX_BUFFERED_BODY_BYTES = 32 * 1024 * 1024;
export const DEFAULT_BODY_TIMEOUT_MS = 30_000;
export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 5_000;
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
export const LEGACY_DEFAULTS: ResolvedLegacyOptions = {
  maxSessions: 1_000,
  maxSessionsPerAddress: 100,
  idleTimeoutMs: 600_000,
  maxEventsPerStream: 100,
  retryMs: 1_000,
};
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

const normaliseOrigin = (origin: string): string => {
  try {
    return new URL(origin).origin;
  } catch {
    throw new DefinitionError(
      `HTTP transport: ${JSON.stringify(origin)} is not an origin like https://host:port`,
    );
  }
};

function resolveLegacy(value: HttpOptions['legacy'], logger: Logger): ResolvedLegacyOptions | undefined {
  if (value === false) return undefined;
  const given = value === undefined || value === true ? {} : value;
  return {
    maxSessions: limit(given.maxSessions, LEGACY_DEFAULTS.maxSessions, 'legacy.maxSessions', logger),
    maxSessionsPerAddress: limit(
      given.maxSessionsPerAddress,
      LEGACY_DEFAULTS.maxSessionsPerAddress,
      'legacy.maxSessionsPerAddress',
      logger,
    ),
    idleTimeoutMs: limit(given.idleTimeoutMs, LEGACY_DEFAULTS.idleTimeoutMs, 'legacy.idleTimeoutMs', logger),
    maxEventsPerStream: limit(
      given.maxEventsPerStream,
      LEGACY_DEFAULTS.maxEventsPerStream,
      'legacy.maxEventsPerStream',
      logger,
    ),
    retryMs: limit(given.retryMs, LEGACY_DEFAULTS.retryMs, 'legacy.retryMs', logger),
  };
}

/** One address's share of the body budget: at least one largest body, at most the whole budget. */
function perAddressShare(options: HttpOptions, maxBodyBytes: number, total: number, logger: Logger): number {
  const share = atLeast(
    limit(
      options.maxBufferedBodyBytesPerAddress,
      Math.max(Math.floor(total / 4), maxBodyBytes),
      'maxBufferedBodyBytesPerAddress',
      logger,
    ),
    maxBodyBytes,
    'maxBufferedBodyBytesPerAddress',
    'maxBodyBytes',
  );
  return Math.min(share, total);
}

/**
 * Fills in defaults. `loopback` says whether the server is bound to a loopback address: only then can the
 * default Host allowlist be right, so a non-loopback bind without allowedHosts skips the Host check (loudly).
 */
export function resolveHttpOptions(
  server: McpServer,
  options: HttpOptions = {},
  loopback = true,
): ResolvedHttpOptions {
  const logger = options.logger ?? server.logger;
  const path = options.path ?? DEFAULT_PATH;
  if (!path.startsWith('/')) throw new DefinitionError('HTTP transport: path must start with "/"');
  // Still passed by callers written for earlier versions (and by plain JavaScript): say what replaced it.
  if ((options as { requestTimeoutMs?: unknown }).requestTimeoutMs !== undefined) {
    throw new DefinitionError(
      "HTTP transport: requestTimeoutMs is no longer an option; a request's time limit is what it runs: the tool's timeoutMs (or the prompt's, the resource's), else the server's defaultTimeoutMs. Remove it",
    );
  }
  const edge = resolveEdgeOptions(options, path);
  const protect = options.dnsRebindingProtection ?? true;
  if (!protect) {
    logger.warn(
      'HTTP transport: dnsRebindingProtection is off; Host and Origin headers are not checked, so web pages can reach this server through DNS rebinding',
    );
  }
  let hosts: HostRule[] | undefined;
  if (protect) {
    if (options.allowedHosts !== undefined) hosts = options.allowedHosts.map(parseHostRule);
    else if (loopback) hosts = LOOPBACK_HOSTS.map(parseHostRule);
    else {
      logger.warn(
        'HTTP transport: bound to a non-loopback address without allowedHosts, so the Host header is not checked; set allowedHosts to the names clients use',
      );
    }
  }
  const cors = options.cors === undefined || options.cors === false ? undefined : options.cors.origins;
  const maxBodyBytes = limit(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes', logger);
  const maxBufferedBodyBytes = atLeast(
    limit(
      options.maxBufferedBodyBytes,
      Math.max(DEFAULT_MAX_BUFFERED_BODY_BYTES, maxBodyBytes),
      'maxBufferedBodyBytes',
      logger,
    ),
    maxBodyBytes,
    'maxBufferedBodyBytes',
    'maxBodyBytes',
  );
  const bodyTimeoutMs = limit(options.bodyTimeoutMs, DEFAULT_BODY_TIMEOUT_MS, 'bodyTimeoutMs', logger);
  const retryAfterSeconds = retryAfter(options.retryAfterSeconds);
  if (cors?.includes('*')) {
    logger.warn('HTTP transport: CORS allows every origin ("*"); any web page can call this server');
  }
  return {
    path,
    hosts,
    checkOrigin: protect,
    allowedOrigins: new Set((options.allowedOrigins ?? []).map(normaliseOrigin)),
    corsOrigins:
      cors === undefined ? undefined : new Set(cors.map((o) => (o === '*' ? o : normaliseOrigin(o)))),
    maxBodyBytes,
    maxBufferedBodyBytes,
    maxBufferedBodyBytesPerAddress: perAddressShare(options, maxBodyBytes, maxBufferedBodyBytes, logger),
    bodyTimeoutMs,
    bodyIdleTimeoutMs: limit(
      options.bodyIdleTimeoutMs,
      DEFAULT_BODY_IDLE_TIMEOUT_MS,
      'bodyIdleTimeoutMs',
      logger,
    ),
    retryAfterSeconds,
    maxJsonDepth: limit(options.maxJsonDepth, server.maxJsonDepth, 'maxJsonDepth', logger),
    authenticate: edge.authenticate,
    routes: edge.routes,
    server: resolveServerOptions(options, { bodyTimeoutMs, retryAfterSeconds, logger }),
    legacy: resolveLegacy(options.legacy, logger),
    logger,
    keepAliveMs: DEFAULT_KEEP_ALIVE_MS,
  };
}
