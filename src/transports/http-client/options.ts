// Options of the Streamable HTTP client transport, their defaults, and the request headers built from them.

export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;
export const DEFAULT_MAX_RECONNECT_ATTEMPTS = 5;
export const DEFAULT_MAX_RECONNECT_DELAY_MS = 30_000;
/** close() does not wait longer than this for the server to answer the session DELETE. */
export const DELETE_TIMEOUT_MS = 5000;

export interface HttpClientTransportOptions {
  /** Sent on every request (after the transport's own Content-Type and Accept, which always win). */
  headers?: Readonly<Record<string, string>>;
  /** Sent as `Authorization: Bearer <token>`; never logged or put in error messages. */
  bearerToken?: string;
  /** Defaults to the global fetch; inject one for proxies, custom agents or tests. */
  fetch?: typeof fetch;
  /** Largest JSON response body, and largest single SSE event, in bytes. */
  maxResponseBytes?: number;
  /**
   * When a POST of initialize is answered 400, 404 or 405, GET the URL for a 2024-11-05 HTTP+SSE `endpoint` event and
   * go on over that transport (the spec's backwards-compatibility fallback). Default true.
   */
  sseFallback?: boolean;
  reconnect?: {
    /** Consecutive reconnections that bring nothing new before a stream is given up. 0 disables resuming. */
    maxAttempts?: number;
    /** Ceiling of the exponential backoff between failed reconnections (a server's `retry:` is always honoured). */
    maxDelayMs?: number;
  };
}

export interface ResolvedOptions {
  baseHeaders: ReadonlyArray<readonly [string, string]>;
  fetch: typeof fetch;
  maxResponseBytes: number;
  maxAttempts: number;
  maxDelayMs: number;
}

export function resolveOptions(options: HttpClientTransportOptions): ResolvedOptions {
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes < 1) {
    throw new RangeError(`maxResponseBytes must be a positive integer, got ${maxResponseBytes}`);
  }
  const maxAttempts = options.reconnect?.maxAttempts ?? DEFAULT_MAX_RECONNECT_ATTEMPTS;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 0) {
    throw new RangeError(`reconnect.maxAttempts must be a non-negative integer, got ${maxAttempts}`);
  }
  const maxDelayMs = options.reconnect?.maxDelayMs ?? DEFAULT_MAX_RECONNECT_DELAY_MS;
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < 0) {
    throw new RangeError(`reconnect.maxDelayMs must be a non-negative number, got ${maxDelayMs}`);
  }
  // Building a Headers object validates names and values now, not on the first request.
  const checked = new Headers(options.headers);
  if (options.bearerToken !== undefined) {
    try {
      checked.set('authorization', `Bearer ${options.bearerToken}`);
    } catch {
      // The token itself stays out of the message.
      throw new TypeError('bearerToken contains characters that are not allowed in an HTTP header');
    }
  }
  const userFetch = options.fetch;
  return {
    baseHeaders: [...checked.entries()],
    // A wrapper, because some fetch implementations throw when called as a method of another object.
    fetch: userFetch ?? ((input, init) => fetch(input, init)),
    maxResponseBytes,
    maxAttempts,
    maxDelayMs,
  };
}

/** Session ids (spec: 0x21–0x7E) and protocol versions must be visible ASCII to be echoed in a header. */
export const isVisibleAscii = (id: string): boolean => /^[\x21-\x7e]+$/.test(id);

/** The media type of a Content-Type header, lower-cased, without parameters. */
export const mediaType = (header: string | null): string =>
  (header ?? '').split(';', 1)[0]?.trim().toLowerCase() ?? '';
