// Safe retries: which failures may pass when the same request is sent again, which requests may be sent again at
// all, and how long to wait (capped exponential backoff with jitter, or the server's Retry-After).

import { Method, TransportError } from '../protocol/index.js';
import { McpError } from './errors.js';

export interface RetryOptions {
  /** Attempts in all, the first included. Default 4; 1 turns retries off. */
  maxAttempts?: number;
  /** The first wait; each later one doubles, up to maxDelayMs. Default 250 ms. */
  baseDelayMs?: number;
  /** The longest wait. A Retry-After beyond it ends the retries (waiting less than asked would be refused again). */
  maxDelayMs?: number;
  /** Told before each retry (the CLI says it on stderr). */
  onRetry?: (event: RetryEvent) => void;
  /** The jitter's source of randomness, in [0, 1). Default Math.random; tests pass a fixed one. */
  random?: () => number;
}

export interface RetryEvent {
  method: string;
  /** The attempt about to be made: 2 for the first retry. */
  attempt: number;
  maxAttempts: number;
  delayMs: number;
  /** Why the previous attempt failed. */
  reason: string;
}

export interface RetryPolicy {
  readonly maxAttempts: number;
  readonly baseDelayMs: number;
  readonly maxDelayMs: number;
  readonly onRetry: ((event: RetryEvent) => void) | undefined;
  readonly random: () => number;
}

export const DEFAULT_RETRY = { maxAttempts: 4, baseDelayMs: 250, maxDelayMs: 5000 } as const;

/**
 * Requests that change nothing on the server, so sending one twice does no harm: discovery, initialize (a second
 * session at worst, which expires), ping, the lists, and reading a task's status. tools/call joins them per call,
 * only for a tool a trusted server annotates read-only or idempotent.
 */
export const SAFE_TO_REPEAT: ReadonlySet<string> = new Set([
  Method.ServerDiscover,
  Method.Initialize,
  Method.Ping,
  Method.ToolsList,
  Method.PromptsList,
  Method.ResourcesList,
  Method.ResourcesTemplatesList,
  Method.TasksGet,
  'tasks/list', // legacy tasks (2025-11-25)
]);

/** HTTP statuses that say "not now": a JSON-RPC error carried by one of them is retried like a transport failure. */
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** The policy `retry` option describes; undefined for `false`. Bad numbers are refused when the client is made. */
export function resolveRetry(options: RetryOptions | false | undefined): RetryPolicy | undefined {
  if (options === false) return undefined;
  const given = options ?? {};
  const maxAttempts = given.maxAttempts ?? DEFAULT_RETRY.maxAttempts;
  const baseDelayMs = given.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs;
  const maxDelayMs = given.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs;
  if (!Number.isSafeInteger(maxAttempts) || maxAttempts < 1 || maxAttempts > 100)
    throw new RangeError(`retry.maxAttempts must be an integer from 1 to 100, got ${maxAttempts}`);
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0)
    throw new RangeError(`retry.baseDelayMs must be a non-negative number, got ${baseDelayMs}`);
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < baseDelayMs)
    throw new RangeError(`retry.maxDelayMs must be a number no smaller than baseDelayMs, got ${maxDelayMs}`);
  return {
    maxAttempts,
    baseDelayMs,
    maxDelayMs,
    onRetry: given.onRetry,
    random: given.random ?? Math.random,
  };
}

/**
 * The wait before attempt `next` (2 for the first retry): the server's Retry-After when it gave one (undefined,
 * meaning "do not retry", when that exceeds maxDelayMs), else base·2^(n-2) capped at maxDelayMs, with "equal
 * jitter" (between half and all of it) so that clients failed by one restart do not all come back at once.
 */
export function retryDelay(
  policy: RetryPolicy,
  next: number,
  retryAfterMs: number | undefined,
): number | undefined {
  if (retryAfterMs !== undefined) return retryAfterMs <= policy.maxDelayMs ? retryAfterMs : undefined;
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, next - 2));
  return Math.round(ceiling / 2 + (ceiling / 2) * policy.random());
}

/** Whether a failure may pass on a second attempt, and the Retry-After that came with it. */
export function transientFailure(error: unknown): { retryAfterMs: number | undefined } | undefined {
  if (error instanceof TransportError)
    return error.transient ? { retryAfterMs: error.retryAfterMs } : undefined;
  if (
    error instanceof McpError &&
    error.httpStatus !== undefined &&
    TRANSIENT_STATUSES.has(error.httpStatus)
  ) {
    return { retryAfterMs: error.retryAfterMs };
  }
  return undefined;
}
