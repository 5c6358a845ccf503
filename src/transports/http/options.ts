// HTTP transport options: the public shape, the documented defaults, and the loud warnings for opt-outs.

import { DefinitionError, type Logger, type McpServer } from '../../server/index.js';
import { parseHostRule, type HostRule } from './security.js';

export interface LegacyHttpOptions {
  /** Legacy sessions open at once; one more initialize gets 503. Default 1,000. */
  maxSessions?: number;
  /** A session with no request, no open stream and nothing in flight for this long is ended. Default 10 minutes. */
  idleTimeoutMs?: number;
  /** Events kept per SSE stream for replay with Last-Event-ID (oldest dropped first). Default 100. */
  maxEventsPerStream?: number;
  /** The SSE `retry` (ms) sent when a 2025-11-25 request closes its stream to be polled. Default 1,000. */
  retryMs?: number;
}

export interface HttpOptions {
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
  /** Deepest JSON nesting accepted; deeper bodies get 400. Default: the server's (64). */
  maxJsonDepth?: number;
  /** Wall-clock limit of one request (subscriptions/listen and GET streams exempt). Default 120 s. */
  requestTimeoutMs?: number;
  /** CORS for browser clients on other origins. Default false: no CORS headers at all. */
  cors?: { origins: string[] } | false;
  /** Serve legacy clients (2024-11-05 … 2025-11-25) on the same endpoint. Default true, with the defaults above. */
  legacy?: boolean | LegacyHttpOptions;
  /** Where transport diagnostics go. Default: the server's logger. */
  logger?: Logger;
}

export interface ResolvedLegacyOptions {
  maxSessions: number;
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
  maxJsonDepth: number;
  requestTimeoutMs: number;
  legacy: ResolvedLegacyOptions | undefined;
  logger: Logger;
  /** Interval of SSE keep-alive comments. */
  keepAliveMs: number;
}

export const DEFAULT_PATH = '/mcp';
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
export const DEFAULT_KEEP_ALIVE_MS = 15_000;
export const LEGACY_DEFAULTS: ResolvedLegacyOptions = {
  maxSessions: 1_000,
  idleTimeoutMs: 600_000,
  maxEventsPerStream: 100,
  retryMs: 1_000,
};
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** A positive integer, or Infinity to turn the limit off (with a warning). */
function limit(value: number | undefined, fallback: number, name: string, logger: Logger): number {
  if (value === undefined) return fallback;
  if (value === Infinity) {
    logger.warn(`HTTP transport: ${name} is Infinity, so this limit is off`);
    return value;
  }
  if (!Number.isInteger(value) || value <= 0) {
    throw new DefinitionError(
      `HTTP transport: ${name} must be a positive integer (or Infinity to turn it off)`,
    );
  }
  return value;
}

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
    maxBodyBytes: limit(options.maxBodyBytes, DEFAULT_MAX_BODY_BYTES, 'maxBodyBytes', logger),
    maxJsonDepth: limit(options.maxJsonDepth, server.maxJsonDepth, 'maxJsonDepth', logger),
    requestTimeoutMs: limit(options.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS, 'requestTimeoutMs', logger),
    legacy: resolveLegacy(options.legacy, logger),
    logger,
    keepAliveMs: DEFAULT_KEEP_ALIVE_MS,
  };
}
