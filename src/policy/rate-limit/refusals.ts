// How a rate limit refuses: the same JSON-RPC error on every transport (-31429 with data.retryAfterMs and
// data.limit), with HTTP 429 and Retry-After on HTTP; 503 when the counters cannot be read (fail closed).

import { ErrorCode } from '../../jsonrpc/index.js';
import { Denial } from '../../server/index.js';

/** What a refusal's `data` carries. */
export interface RateLimitedData {
  /** When a retry may pass, in ms (at least 1,000: what Retry-After can say). */
  readonly retryAfterMs: number;
  /** Which limit refused: "tool", "class:<class>", "total", "concurrency", or "unavailable" (the store failed). */
  readonly limit: string;
}

/** A slot frees when a call ends, which the caller cannot see: a short wait, then try again. */
const CONCURRENCY_RETRY_SECONDS = 1;
/** A store outage lasts longer than one call: a few seconds before the next attempt. */
export const UNAVAILABLE_RETRY_SECONDS = 5;

/** Whole seconds for Retry-After (never 0: a client would retry at once into the same refusal). */
const seconds = (ms: number): number => Math.max(1, Math.ceil(ms / 1000));

function denial(message: string, httpStatus: number, retrySeconds: number, limit: string): Denial {
  const data: RateLimitedData = { retryAfterMs: retrySeconds * 1000, limit };
  return new Denial(ErrorCode.RateLimited, message, {
    data,
    httpStatus,
    httpHeaders: { 'retry-after': String(retrySeconds) },
  });
}

/** Over a bucket's limit: `describe` is the limit in words ("tool "x" allows 5 calls per 60 s"). */
export function overLimit(describe: string, limit: string, msBeforeNext: number): Denial {
  const wait = seconds(msBeforeNext);
  return denial(`Rate limited: ${describe}; retry in ${wait} s`, 429, wait, limit);
}

/** Over the cap of calls in flight. */
export function overConcurrency(max: number): Denial {
  return denial(
    `Rate limited: at most ${max} call${max === 1 ? '' : 's'} may run at once per caller; retry in ${CONCURRENCY_RETRY_SECONDS} s`,
    429,
    CONCURRENCY_RETRY_SECONDS,
    'concurrency',
  );
}

/** The counters cannot be read (or the limiter is closed): refused, never allowed unchecked. */
export function unavailable(): Denial {
  return denial(
    `Rate limits cannot be checked right now; retry in ${UNAVAILABLE_RETRY_SECONDS} s`,
    503,
    UNAVAILABLE_RETRY_SECONDS,
    'unavailable',
  );
}
