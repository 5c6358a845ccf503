// How transport failures read: an HTTP status with a body snippet, an error with its cause; and which of them may
// pass when the same request is sent again (what the client's retries go by).

import { TransportError, type TransientFacts } from '../../protocol/index.js';
import { snippet } from './body.js';

/** Statuses that say "not now" rather than "no": overloaded, restarting, or behind a proxy that lost the server. */
const TRANSIENT_STATUSES = new Set([429, 502, 503, 504]);
/** A Retry-After further away than this is read as this (a day): the client's own limits decide past it. */
const MAX_RETRY_AFTER_MS = 86_400_000;

/** A status without a JSON-RPC body: the status, and the start of whatever the body was. */
export function httpError(method: string, response: Response, text: string): TransportError {
  const cut = snippet(text);
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  const location = response.status >= 300 && response.status <= 399 ? response.headers.get('location') : null;
  const what = response.ok
    ? `${status} with a body that is not JSON-RPC`
    : location === null
      ? status
      : `${status}, a redirect to ${snippet(location)}, which is not followed (it would take the request and its headers there): use that URL if it is the server's`;
  return new TransportError(
    `${method} answered ${what}${cut ? `: ${cut}` : ''}`,
    response.status,
    cut,
    transientStatus(response),
  );
}

/**
 * Connection failures a server restart or an overloaded proxy causes (undici names a socket closed mid-answer
 * UND_ERR_SOCKET). Others, such as a port fetch refuses to use or a name that does not resolve, will not pass.
 */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'ECONNABORTED',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
]);

/** A network failure: transient (worth another attempt) when a cause in its chain has a transient code. */
export function networkError(message: string, error: unknown, status?: number): TransportError {
  let transient = false;
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const code = (cause as { code?: unknown }).code;
    if (typeof code === 'string' && TRANSIENT_CODES.has(code)) transient = true;
    cause = cause.cause;
  }
  return new TransportError(`${message}: ${describe(error)}`, status, undefined, { transient });
}

/** Whether a response's status is a transient one, and its Retry-After. */
export function transientStatus(response: Response): TransientFacts {
  if (!TRANSIENT_STATUSES.has(response.status)) return {};
  const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'), Date.now());
  return retryAfterMs === undefined ? { transient: true } : { transient: true, retryAfterMs };
}

/** Retry-After as delay-seconds or an HTTP date (RFC 9110 §10.2.3), in ms from `now`; undefined when unreadable. */
export function parseRetryAfter(value: string | null, now: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date) || !/[a-z]/i.test(text)) return undefined;
  return Math.min(Math.max(0, date - now), MAX_RETRY_AFTER_MS);
}

/** An error's message plus its cause's (fetch puts the useful part, such as ECONNREFUSED, in the cause). */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause: unknown = error.cause;
  return cause instanceof Error && cause.message !== error.message
    ? `${error.message}: ${cause.message}`
    : error.message;
}
