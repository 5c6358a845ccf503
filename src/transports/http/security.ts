// Request screening: Host and Origin allowlists (DNS rebinding), media types and charsets, and CORS headers.

import { DefinitionError } from '../../server/index.js';
import type { OutgoingHeaders } from './exchange.js';

/** One allowed Host: a name (IPv6 in brackets) and, optionally, the only port it may come with. */
export interface HostRule {
  host: string;
  port: string | undefined;
}

/** Splits "name", "name:port", "[v6]" or "[v6]:port"; undefined when it is none of these. */
function splitHost(value: string): HostRule | undefined {
  const text = value.trim().toLowerCase();
  if (text.startsWith('[')) {
    const close = text.indexOf(']');
    if (close < 0) return undefined;
    const rest = text.slice(close + 1);
    if (rest !== '' && !/^:\d+$/.test(rest)) return undefined;
    return { host: text.slice(0, close + 1), port: rest === '' ? undefined : rest.slice(1) };
  }
  const colon = text.lastIndexOf(':');
  if (colon < 0) return text === '' ? undefined : { host: text, port: undefined };
  const port = text.slice(colon + 1);
  if (!/^\d+$/.test(port) || text.indexOf(':') !== colon) return undefined;
  return { host: text.slice(0, colon), port };
}

export function parseHostRule(entry: string): HostRule {
  const rule = splitHost(entry);
  if (rule === undefined) {
    throw new DefinitionError(
      `HTTP transport: allowedHosts entry ${JSON.stringify(entry)} is not host or host:port`,
    );
  }
  return rule;
}

/**
 * Answers per header value, remembered: a client sends the same Host and Accept on every request. Bounded (the values
 * come from the network): a full memo is emptied and refilled.
 */
class Memo<T> {
  readonly #answers = new Map<string, T>();
  constructor(readonly limit = 256) {}
  get(key: string, compute: (key: string) => T): T {
    let answer = this.#answers.get(key);
    if (answer === undefined) {
      answer = compute(key);
      if (this.#answers.size >= this.limit) this.#answers.clear();
      this.#answers.set(key, answer);
    }
    return answer;
  }
}

const hostMemos = new WeakMap<readonly HostRule[], Memo<boolean>>();

function hostMatches(rules: readonly HostRule[], hostHeader: string): boolean {
  const given = splitHost(hostHeader);
  if (given === undefined) return false;
  return rules.some(
    (rule) => rule.host === given.host && (rule.port === undefined || rule.port === given.port),
  );
}

export function hostAllowed(rules: readonly HostRule[], hostHeader: string | undefined): boolean {
  if (hostHeader === undefined) return false;
  let memo = hostMemos.get(rules);
  if (memo === undefined) hostMemos.set(rules, (memo = new Memo()));
  return memo.get(hostHeader, (host) => hostMatches(rules, host));
}

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

export interface OriginPolicy {
  allowedOrigins: ReadonlySet<string>;
  corsOrigins: ReadonlySet<string> | undefined;
}

/** The Host header as a URL would spell it for `protocol` (lower case, default port dropped); undefined if malformed. */
function canonicalHost(hostHeader: string, protocol: string): string | undefined {
  try {
    const url = new URL(`${protocol}//${hostHeader.trim()}`);
    // A Host with a path, user or query in it is not a host.
    return url.pathname === '/' && url.username === '' && url.search === '' ? url.host : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Absent Origin passes (non-browser clients); otherwise it must be allowlisted or be this very loopback server:
 * same scheme (`protocol`, "http:" or "https:"), same host and same port as the request was sent to. A page at
 * https://127.0.0.1:port is another origin than this http server on that port, and may not call it.
 */
export function originAllowed(
  policy: OriginPolicy,
  origin: string,
  hostHeader: string | undefined,
  protocol: string,
): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  if (policy.allowedOrigins.has(url.origin)) return true;
  if (policy.corsOrigins !== undefined && (policy.corsOrigins.has('*') || policy.corsOrigins.has(url.origin)))
    return true;
  return (
    LOOPBACK_NAMES.has(url.hostname) &&
    url.protocol === protocol &&
    hostHeader !== undefined &&
    url.host === canonicalHost(hostHeader, protocol)
  );
}

/** The media types of an Accept header (lower-case, parameters dropped, q=0 entries left out). */
function acceptedTypes(accept: string): string[] {
  const types: string[] = [];
  for (const part of accept.split(',')) {
    const [type = '', ...params] = part.split(';');
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/i.test(p))) continue;
    types.push(type.trim().toLowerCase());
  }
  return types;
}

/** True when the Accept header admits `type` exactly or through a wildcard. */
export function accepts(accept: string | undefined, type: string): boolean {
  if (accept === undefined) return false;
  const major = type.slice(0, type.indexOf('/'));
  return acceptedTypes(accept).some((t) => t === type || t === '*/*' || t === `${major}/*`);
}

const bothMemo = new Memo<boolean>();

/** The Streamable HTTP POST rule: Accept must admit both application/json and text/event-stream. */
export const acceptsJsonAndSse = (accept: string | undefined): boolean =>
  accept !== undefined &&
  bothMemo.get(accept, (value) => accepts(value, 'application/json') && accepts(value, 'text/event-stream'));

/** Charset labels that name UTF-8 (the WHATWG Encoding Standard's, lower-case). */
const UTF8_LABELS: ReadonlySet<string> = new Set(['utf-8', 'utf8', 'unicode-1-1-utf-8']);

function mediaTypeRefusal(value: string | undefined): string | undefined {
  const [type = '', ...params] = (value ?? '').split(';');
  if (type.trim().toLowerCase() !== 'application/json') {
    return 'Unsupported Media Type: POST bodies must be Content-Type: application/json';
  }
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    if (UTF8_LABELS.has(charset.toLowerCase())) continue;
    // JSON exchanged between systems is UTF-8 (RFC 8259 §8.1); decoding another charset as UTF-8 would garble it.
    const shown = JSON.stringify(charset.length > 40 ? `${charset.slice(0, 40)}…` : charset);
    return `Unsupported Media Type: POST bodies must be UTF-8 JSON, but the Content-Type names charset ${shown} (send charset=utf-8 or no charset)`;
  }
  return undefined;
}

// '' stands for "accepted": the memo takes undefined to mean "not seen yet".
const mediaTypeMemo = new Memo<string>();

/** Why a POST's Content-Type is refused (415): not application/json, or a charset other than UTF-8. */
export function unsupportedMediaType(value: string | undefined): string | undefined {
  if (value === 'application/json') return undefined;
  if (value === undefined) return mediaTypeRefusal(value);
  return mediaTypeMemo.get(value, (v) => mediaTypeRefusal(v) ?? '') || undefined;
}

// WWW-Authenticate: a browser client must read the challenge of a 401 to find the authorization server.
const EXPOSED = 'Mcp-Session-Id, MCP-Protocol-Version, WWW-Authenticate';
const DEFAULT_ALLOWED_HEADERS =
  'Content-Type, Accept, Authorization, MCP-Protocol-Version, Mcp-Session-Id, Mcp-Method, Mcp-Name, Last-Event-ID';

/** CORS headers for a response to `origin`, or undefined when CORS is off or the origin is not listed. */
export function corsHeaders(
  corsOrigins: ReadonlySet<string> | undefined,
  origin: string | undefined,
): OutgoingHeaders | undefined {
  if (corsOrigins === undefined || origin === undefined) return undefined;
  let normalised: string;
  try {
    normalised = new URL(origin).origin;
  } catch {
    return undefined;
  }
  if (!corsOrigins.has('*') && !corsOrigins.has(normalised)) return undefined;
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSED };
}

/** The extra headers of a CORS preflight answer; requested headers are echoed so Mcp-Param-* pass. */
export const preflightHeaders = (requested: string | undefined, methods: string): OutgoingHeaders => ({
  'access-control-allow-methods': methods,
  'access-control-allow-headers': requested ?? DEFAULT_ALLOWED_HEADERS,
  'access-control-max-age': '600',
});
