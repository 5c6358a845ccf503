// What listenHttp and hardenNodeServer set on a node:http server: the receive timeouts and the connection caps, their
// documented defaults, and how they are resolved.

import type { Logger } from '../../server/index.js';
import { atLeast, limit } from './option-checks.js';

/** The options of the node:http server itself (HttpOptions carries them too). */
export interface ServerLimitOptions {
  /**
   * listenHttp and hardenNodeServer: time to receive a request's headers (node:http headersTimeout, which Node
   * checks at most every second here, not every 30 s). A slow-header sender gets 408 and is disconnected. Default
   * 10 s (Node's is 60 s): real clients send their headers in one packet. Headers plus body (bodyTimeoutMs) also
   * become node:http's requestTimeout, which covers receiving the request only, never the response.
   */
  headersTimeoutMs?: number;
  /**
   * listenHttp and hardenNodeServer: how long an idle keep-alive connection stays open between requests. Default
   * 5 s (Node's): long enough for a client's next call to reuse the connection, short enough that idle ones do not
   * pile up against maxConnections.
   */
  keepAliveTimeoutMs?: number;
  /**
   * listenHttp and hardenNodeServer: open connections. One accepted beyond this gets 503 with Retry-After and
   * Connection: close to its first request, so a well-behaved client learns to back off. Default 1,000: as many as
   * the default maxSessions, each of which may hold a GET stream open. There is no share per client address: one
   * address may open all of them (each silent one is closed after headersTimeoutMs, each idle one after
   * keepAliveTimeoutMs, but it can open more), so a firewall or proxy in front should limit connections per client.
   */
  maxConnections?: number;
  /**
   * listenHttp and hardenNodeServer: connections beyond this are closed on accept, without a word (node:http
   * maxConnections). A 503 still costs a socket until the request arrives (up to headersTimeoutMs); this bounds
   * those. Default twice maxConnections.
   */
  hardMaxConnections?: number;
}

export interface ResolvedServerOptions {
  headersTimeoutMs: number;
  /** Headers plus body: node:http's requestTimeout, which ends with the last byte received. */
  receiveTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
  hardMaxConnections: number;
  retryAfterSeconds: number;
  logger: Logger;
}

export const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
export const DEFAULT_KEEP_ALIVE_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** What the server options need from the rest, resolved already (so each is checked, and warned about, once). */
export interface SharedServerSettings {
  bodyTimeoutMs: number;
  retryAfterSeconds: number;
  logger: Logger;
}

export function resolveServerOptions(
  options: ServerLimitOptions,
  shared: SharedServerSettings,
): ResolvedServerOptions {
  const { logger } = shared;
  const headersTimeoutMs = limit(
    options.headersTimeoutMs,
    DEFAULT_HEADERS_TIMEOUT_MS,
    'headersTimeoutMs',
    logger,
  );
  const maxConnections = limit(options.maxConnections, DEFAULT_MAX_CONNECTIONS, 'maxConnections', logger);
  return {
    headersTimeoutMs,
    receiveTimeoutMs: headersTimeoutMs + shared.bodyTimeoutMs,
    keepAliveTimeoutMs: limit(
      options.keepAliveTimeoutMs,
      DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
      'keepAliveTimeoutMs',
      logger,
    ),
    maxConnections,
    hardMaxConnections: atLeast(
      limit(options.hardMaxConnections, 2 * maxConnections, 'hardMaxConnections', logger),
      maxConnections,
      'hardMaxConnections',
      'maxConnections',
    ),
    retryAfterSeconds: shared.retryAfterSeconds,
    logger,
  };
}
