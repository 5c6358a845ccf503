// The "http" section of toolwire.json and the `toolwire serve` flags that set the same things: one table of fields,
// read through ConfigReader, so the file, the flags and the JSON Schema accept exactly the same settings.

import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_PATH,
  DEFAULT_REQUEST_TIMEOUT_MS,
  LEGACY_DEFAULTS,
  type HttpOptions,
} from '../transports/http/options.js';
import { ConfigReader } from './config-reader.js';

const MiB = 1024 * 1024;
const DAY_MS = 86_400_000;

type FieldKind =
  | { kind: 'integer'; fallback: number | undefined; min: number; max: number; unit: string }
  | { kind: 'boolean'; fallback: boolean }
  | {
      kind: 'list';
      fallback: readonly string[] | undefined;
      maxItems: number;
      check: (item: string) => string | undefined;
    }
  | { kind: 'string'; fallback: string; expected: string; check: (value: string) => boolean };

/** One setting: its dotted path in "http" (at most one level of nesting), what it accepts and what it is for. */
export type HttpField = FieldKind & { path: string; description: string };

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
export const HTTP_FIELDS: readonly HttpField[] = [
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
    path: 'maxJsonDepth',
    kind: 'integer',
    fallback: undefined,
    min: 1,
    max: 1_000,
    unit: 'levels',
    description: "The deepest JSON nesting accepted; deeper bodies get 400. Default: the server's (64).",
  },
  {
    path: 'requestTimeoutMs',
    kind: 'integer',
    fallback: DEFAULT_REQUEST_TIMEOUT_MS,
    min: 1,
    max: DAY_MS,
    unit: 'milliseconds',
    description: 'The wall-clock limit of one request (subscriptions/listen and GET streams are exempt).',
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
    description: 'Legacy sessions open at once; one more initialize gets 503.',
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
];

/** Keys of the "http" object, or of one of its sections ("cors", "legacy"). */
const keysIn = (section: string | undefined): string[] => [
  ...new Set(
    HTTP_FIELDS.map((field) => field.path.split('.')).flatMap(([first, second]) =>
      section === undefined ? [first as string] : first === section && second !== undefined ? [second] : [],
    ),
  ),
];

/** The values read, by dotted path: only those given, so every default stays the transport's own. */
export type HttpValues = ReadonlyMap<string, unknown>;

function readField(read: ConfigReader, name: string, field: HttpField): unknown {
  read.describe(name, field.description);
  // Without a fallback the transport works the default out (from the bind address, the server, another limit).
  if (field.fallback === undefined) read.has(name);
  switch (field.kind) {
    case 'integer':
      return read.integer(name, field.fallback ?? field.min, field.min, field.max, field.unit);
    case 'boolean':
      return read.boolean(name, field.fallback);
    case 'list':
      return read.stringList(name, field.fallback ?? [], { maxItems: field.maxItems, check: field.check });
    case 'string':
      return read.string(name, field.fallback, field.expected, field.check);
  }
}

/** Reads the "http" object (or the flags' object of the same shape) into values by dotted path. */
export function readHttpSection(read: ConfigReader): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const sections = new Map<string, ConfigReader>();
  for (const field of HTTP_FIELDS) {
    const [first, second] = field.path.split('.') as [string, string | undefined];
    let reader = read;
    let name = first;
    if (second !== undefined) {
      const section = sections.get(first) ?? read.section(first, keysIn(first));
      sections.set(first, section);
      reader = section;
      name = second;
    }
    const value = readField(reader, name, field);
    if (reader.given(name)) values.set(field.path, value);
  }
  return values;
}

/** The reader of the "http" object of toolwire.json. */
export const httpSectionReader = (raw: unknown): ConfigReader =>
  new ConfigReader(raw, 'http', keysIn(undefined));

/** `--allowed-hosts` for "allowedHosts", `--legacy-max-sessions` for "legacy.maxSessions". */
export const flagOf = (path: string): string =>
  `--${path.replace(/\./g, '-').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * Reads `toolwire serve` flags given as strings (each repeatable; lists also comma-separated) with the same checks as
 * the file, naming the flag in messages.
 */
export function readHttpFlags(given: ReadonlyMap<string, readonly string[]>): Map<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const field of HTTP_FIELDS) {
    const words = given.get(field.path);
    if (words === undefined || words.length === 0) continue;
    const last = words[words.length - 1] as string;
    const value =
      field.kind === 'list'
        ? words.flatMap((word) => word.split(',')).map((item) => item.trim())
        : field.kind === 'integer' && /^\d+$/.test(last)
          ? Number(last)
          : field.kind === 'boolean' && (last === 'true' || last === 'false')
            ? last === 'true'
            : last;
    const [first, second] = field.path.split('.') as [string, string | undefined];
    if (second === undefined) raw[first] = value;
    else raw[first] = { ...(raw[first] as Record<string, unknown> | undefined), [second]: value };
  }
  return readHttpSection(
    new ConfigReader(raw, 'http', keysIn(undefined), {
      nameOf: (path) => flagOf(path.replace(/^http\./, '')),
    }),
  );
}

/** The transport's options from the values read (file first, flags over it). */
export function toHttpOptions(values: HttpValues): HttpOptions {
  const get = <T>(path: string): T | undefined => values.get(path) as T | undefined; // typed by HTTP_FIELDS
  const options: HttpOptions = {};
  const path = get<string>('path');
  if (path !== undefined) options.path = path;
  const hosts = get<string[]>('allowedHosts');
  if (hosts !== undefined) options.allowedHosts = hosts;
  const origins = get<string[]>('allowedOrigins');
  if (origins !== undefined) options.allowedOrigins = origins;
  const protect = get<boolean>('dnsRebindingProtection');
  if (protect !== undefined) options.dnsRebindingProtection = protect;
  const cors = get<string[]>('cors.origins');
  if (cors !== undefined) options.cors = cors.length === 0 ? false : { origins: cors };
  for (const limit of ['maxBodyBytes', 'maxJsonDepth', 'requestTimeoutMs'] as const) {
    const value = get<number>(limit);
    if (value !== undefined) options[limit] = value;
  }
  if (get<boolean>('legacy.enabled') === false) options.legacy = false;
  else {
    const legacy: Exclude<HttpOptions['legacy'], boolean | undefined> = {};
    for (const limit of ['maxSessions', 'idleTimeoutMs', 'maxEventsPerStream', 'retryMs'] as const) {
      const value = get<number>(`legacy.${limit}`);
      if (value !== undefined) legacy[limit] = value;
    }
    if (Object.keys(legacy).length > 0) options.legacy = legacy;
  }
  return options;
}
