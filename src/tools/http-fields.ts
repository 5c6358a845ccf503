// The settings of the "http" section of toolwire.json (and of the `toolwire serve` flags named after them): what each
// accepts, its default and what it is for. http-config.ts reads them; the JSON Schema is recorded from that reading.

import {
  DEFAULT_BODY_IDLE_TIMEOUT_MS,
  DEFAULT_BODY_TIMEOUT_MS,
  DEFAULT_HEADERS_TIMEOUT_MS,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_PATH,
  DEFAULT_RETRY_AFTER_SECONDS,
  LEGACY_DEFAULTS,
  type HttpOptions,
  type LegacyHttpOptions,
} from '../transports/http/options.js';

const MiB = 1024 * 1024;
const DAY_MS = 86_400_000;

export type FieldKind =
  | { kind: 'integer'; fallback: number | undefined; min: number; max: number; unit: string }
  | { kind: 'boolean'; fallback: boolean }
  | {
      kind: 'list';
      fallback: readonly string[] | undefined;
      maxItems: number;
      check: (item: string) => string | undefined;
    }
  | { kind: 'string'; fallback: string; expected: string; check: (value: string) => boolean };

/**
 * Every setting of HttpOptions a config file can hold, by dotted path (logger, authenticate and routes are code, not
 * configuration).
 */
export type HttpPath =
  | Exclude<keyof HttpOptions, 'cors' | 'legacy' | 'logger' | 'authenticate' | 'routes'>
  | 'cors.origins'
  | 'legacy.enabled'
  | `legacy.${keyof LegacyHttpOptions}`;

/** One setting: its dotted path in "http" (at most one level of nesting), what it accepts and what it is for. */
export type HttpField = FieldKind & { path: HttpPath; description: string };

const HOST_NAME =
  /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*\.?$/;
const IPV6 = /^\[[0-9A-Fa-f:.]{2,45}\]$/;

/** "name", "name:port", "[v6]" or "[v6]:port": what a Host header carries. */
const hostProblem = (entry: string): string | undefined => {
  const match = /^(.*?)(?::(\d{1,5}))?$/.exec(entry);
  const host = match?.[1] ?? '';
  const port = match?.[2] === undefined ? 0 : Number(match[2]);
  return (HOST_NAME.test(host) || IPV6.test(host)) && port <= 65_535
    ? undefined
    : 'must be a host name or address, with an optional port, as clients send it in the Host header (like "mcp.example.com", "mcp.example.com:8443" or "[::1]:3333")';
};

/** An origin as browsers send it: http(s), host, optional port, nothing else; "*" too where `star` allows it. */
const originProblem =
  (star: boolean) =>
  (entry: string): string | undefined => {
    if (star && entry === '*') return undefined;
    const url = URL.canParse(entry) ? new URL(entry) : undefined;
    const ok =
      url !== undefined &&
      (url.protocol === 'http:' || url.protocol === 'https:') &&
      url.username === '' &&
      url.password === '' &&
      url.pathname === '/' &&
      url.search === '' &&
      url.hash === '' &&
      !entry.endsWith('?') &&
      !entry.endsWith('#');
    return ok
      ? undefined
      : `must be an origin (scheme, host and optional port) like "https://app.example.com"${star ? ', or "*"' : ''}`;
  };

/** Every setting of the "http" section, in the order the schema and `toolwire serve --help` list them. */
const FIELDS = [
  {
    path: 'allowedHosts',
    kind: 'list',
    fallback: undefined,
    maxItems: 256,
    check: hostProblem,
    description:
      'Host header values the server answers (DNS rebinding protection). Default on a loopback address: localhost, 127.0.0.1 and [::1] on any port; on any other address set it to the names clients use.',
  },
  {
    path: 'allowedOrigins',
    kind: 'list',
    fallback: [],
    maxItems: 256,
    check: originProblem(false),
    description:
      "Origin header values accepted besides the server's own loopback origin (requests from web pages of other origins get 403).",
  },
  {
    path: 'dnsRebindingProtection',
    kind: 'boolean',
    fallback: true,
    description:
      'Check the Host and Origin headers. Turning it off logs a warning: any web page could then reach the server.',
  },
  {
    path: 'cors.origins',
    kind: 'list',
    fallback: [],
    maxItems: 256,
    check: originProblem(true),
    description:
      'Origins that get CORS headers, for browser clients on other origins ("*" for every origin, with a warning). Default: none, no CORS headers at all.',
  },
  {
    path: 'maxBodyBytes',
    kind: 'integer',
    fallback: DEFAULT_MAX_BODY_BYTES,
    min: 1,
    max: 1024 * MiB,
    unit: 'bytes',
    description: 'The largest request body; larger ones get 413.',
  },
  {
    path: 'maxBufferedBodyBytes',
    kind: 'integer',
    fallback: undefined,
    min: 1,
    max: 16 * 1024 * MiB,
    unit: 'bytes',
    description:
      'Bytes of request bodies held at once over all requests; a request that does not fit gets 503 with Retry-After before its body is read. Default 32 MiB, or maxBodyBytes when that is larger; at least maxBodyBytes.',
  },
  {
    path: 'maxBufferedBodyBytesPerAddress',
    kind: 'integer',
    fallback: undefined,
    min: 1,
    max: 16 * 1024 * MiB,
    unit: 'bytes',
    description:
      "The share of maxBufferedBodyBytes the bodies of one client address may hold (loopback counts as one address, IPv6 per /64); past it that address gets 503 while others are served. Default a quarter of maxBufferedBodyBytes (8 MiB); at least maxBodyBytes. Behind a reverse proxy every client has the proxy's address: set it to maxBufferedBodyBytes.",
  },
  {
    path: 'maxJsonDepth',
    kind: 'integer',
    fallback: undefined,
    min: 1,
    max: 1_000,
    unit: 'levels',
    description: "The deepest JSON nesting accepted; deeper bodies get 400. Default: the server's (64).",
  },
  {
    path: 'bodyTimeoutMs',
    kind: 'integer',
    fallback: DEFAULT_BODY_TIMEOUT_MS,
    min: 1,
    max: DAY_MS,
    unit: 'milliseconds',
    description: "Time to receive a request's body once its headers are in; a slower sender gets 408.",
  },
  {
    path: 'bodyIdleTimeoutMs',
    kind: 'integer',
    fallback: DEFAULT_BODY_IDLE_TIMEOUT_MS,
    min: 1,
    max: DAY_MS,
    unit: 'milliseconds',
    description: 'The longest pause between two pieces of a body; a stalled sender gets 408.',
  },
  {
    path: 'headersTimeoutMs',
    kind: 'integer',
    fallback: DEFAULT_HEADERS_TIMEOUT_MS,
    min: 1,
    max: DAY_MS,
    unit: 'milliseconds',
    description: "Time to receive a request's headers; a slower sender gets 408.",
  },
  {
    path: 'keepAliveTimeoutMs',
    kind: 'integer',
    fallback: DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
    min: 1,
    max: DAY_MS,
    unit: 'milliseconds',
    description: 'How long an idle keep-alive connection stays open between requests.',
  },
  {
    path: 'maxConnections',
    kind: 'integer',
    fallback: DEFAULT_MAX_CONNECTIONS,
    min: 1,
    max: 1_000_000,
    unit: 'connections',
    description:
      'Open connections; the first request on one more gets 503 with Retry-After and Connection: close.',
  },
  {
    path: 'hardMaxConnections',
    kind: 'integer',
    fallback: undefined,
    min: 1,
    max: 2_000_000,
    unit: 'connections',
    description:
      'Connections beyond this are closed on accept, without an answer. Default twice maxConnections; at least maxConnections.',
  },
  {
    path: 'retryAfterSeconds',
    kind: 'integer',
    fallback: DEFAULT_RETRY_AFTER_SECONDS,
    min: 1,
    max: 86_400,
    unit: 'seconds',
    description:
      'The Retry-After of 503 answers to a full body buffer, the connection cap or full legacy sessions.',
  },
  {
    path: 'path',
    kind: 'string',
    fallback: DEFAULT_PATH,
    expected: 'a URL path starting with "/", without "?" or "#", like "/mcp"',
    check: (value) => /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@%/]*$/.test(value),
    description: 'The MCP endpoint.',
  },
  {
    path: 'legacy.enabled',
    kind: 'boolean',
    fallback: true,
    description:
      'Serve clients of MCP 2024-11-05 … 2025-11-25 (the initialize handshake) on the same endpoint.',
  },
  {
    path: 'legacy.maxSessions',
    kind: 'integer',
    fallback: LEGACY_DEFAULTS.maxSessions,
    min: 1,
    max: 1_000_000,
    unit: 'sessions',
    description:
      'Legacy sessions open at once; when full, a new initialize ends the longest-idle session with nothing in flight, and gets 503 only when every session is busy.',
  },
  {
    path: 'legacy.maxSessionsPerAddress',
    kind: 'integer',
    fallback: LEGACY_DEFAULTS.maxSessionsPerAddress,
    min: 1,
    max: 1_000_000,
    unit: 'sessions',
    description:
      "Legacy sessions one client address may hold (loopback counts as one address, IPv6 per /64); past it a new initialize ends that address's longest-idle session. Behind a reverse proxy every client has the proxy's address: raise it.",
  },
  {
    path: 'legacy.idleTimeoutMs',
    kind: 'integer',
    fallback: LEGACY_DEFAULTS.idleTimeoutMs,
    min: 1_000,
    max: DAY_MS,
    unit: 'milliseconds',
    description:
      'A legacy session with no request, no open stream and nothing in flight for this long is ended.',
  },
  {
    path: 'legacy.maxEventsPerStream',
    kind: 'integer',
    fallback: LEGACY_DEFAULTS.maxEventsPerStream,
    min: 1,
    max: 100_000,
    unit: 'events',
    description: 'Events kept per SSE stream for replay with Last-Event-ID (the oldest are dropped first).',
  },
  {
    path: 'legacy.retryMs',
    kind: 'integer',
    fallback: LEGACY_DEFAULTS.retryMs,
    min: 1,
    max: 3_600_000,
    unit: 'milliseconds',
    description: 'The SSE retry sent when a 2025-11-25 request closes its stream to be polled.',
  },
] as const satisfies readonly HttpField[];

/** Settings of the transport this table lacks; every one must be reachable from `toolwire serve`. */
type Unreachable = Exclude<HttpPath, (typeof FIELDS)[number]['path']>;
/** Fails to compile, naming the setting, when the transport gains one the table lacks. */
const _everySetting: [Unreachable] extends [never] ? true : Unreachable = true;

export const HTTP_FIELDS: readonly HttpField[] = FIELDS;
