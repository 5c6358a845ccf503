// Rate limits, quotas and concurrency caps as policy middleware: per caller key (callerKey) and tool, per annotation
// class, a caller's total, calls in flight. Installed after the scopes middleware, so a call refused for scopes
// never reaches a bucket.

import { Method } from '../../protocol/index.js';
import type { Middleware, Next, Outcome, ToolTarget } from '../../server/index.js';
import { Buckets, type Bucket } from './buckets.js';
import { callerKey } from './caller-key.js';
import { InFlight } from './in-flight.js';
import { checkOptions, type RateLimitOptions, type RateLimitSettings } from './options.js';
import { overConcurrency, unavailable } from './refusals.js';
import { StoreHealth } from './store-health.js';
import { Taker } from './take.js';

export interface RateLimitStats {
  /** Keys the default memory store holds (at most maxKeys); 0 with a plugged-in store. */
  readonly keys: number;
  /** Caller keys with a call in flight (0 without a concurrency cap). */
  readonly inFlight: number;
}

export interface RateLimiter {
  /** Install with `server.use(…)` after authorization (scopes): what is refused there never costs a point. */
  readonly middleware: Middleware;
  /** Forgets what the memory store holds; from then on every request that would count is refused (503). */
  close(): void;
  stats(): RateLimitStats;
}

/**
 * Rate limits as middleware. tools/call of a tool the caller may see counts in the tool's bucket (`tools[name]` or
 * `perCall`), in the buckets of its annotation classes and in `total`, all or none; it also holds a concurrency
 * slot until it ends. Other requests count only toward `total`: a tools/call naming no tool the caller may see
 * always, anything else when `countAllRequests`. Over a limit the request is refused with -31429 (HTTP 429 and
 * Retry-After); when the store fails, with 503, never let through unchecked. The options are checked here: a
 * TypeError names the one at fault.
 */
export function rateLimit(options: RateLimitOptions): RateLimiter {
  let settings: RateLimitSettings;
  try {
    settings = checkOptions(options);
  } catch (error) {
    throw error instanceof TypeError ? new TypeError(`rateLimit: ${error.message}`) : error;
  }
  const health = new StoreHealth(settings.logger);
  const buckets = new Buckets(settings);
  const taker = new Taker(
    buckets.bound,
    health,
    settings.store === undefined ? undefined : settings.storeTimeoutMs,
  );
  const inFlight = settings.concurrency === undefined ? undefined : new InFlight(settings.concurrency);
  const countAll = settings.countAllRequests;
  let closed = false;

  const countedLater = async (next: Next, key: string, list: readonly Bucket[]): Promise<Outcome> => {
    await taker.take(list, key);
    return next();
  };
  // Memory buckets count in this turn (no promise); a plugged-in store is asked through its promises.
  const counted = (next: Next, key: string, list: readonly Bucket[]): Promise<Outcome> =>
    taker.takeNow(list, key) ? next() : countedLater(next, key, list);

  // The slot is released when next() settles. The call's execution ends it on a result, an error, the tool's
  // timeout and a cancel alike, even while the handler ignores its signal (execute races the handler against the
  // abort). Waiting on request.signal as well would cost an AbortController and a listener per call (13 µs of ~5
  // measured): later middleware that waits (approval) must end on that signal, as the pipeline asks of it anyway.
  const capped = async (
    next: Next,
    key: string,
    list: readonly Bucket[],
    slots: InFlight,
  ): Promise<Outcome> => {
    if (!slots.acquire(key)) throw overConcurrency(slots.max);
    try {
      if (list.length > 0 && !taker.takeNow(list, key)) await taker.take(list, key);
      return await next();
    } finally {
      slots.release(key);
    }
  };

  const middleware: Middleware = (request, next) => {
    let tool: ToolTarget | undefined;
    let list: readonly Bucket[];
    if (request.method === Method.ToolsCall) {
      const target = request.target;
      if (target?.kind === 'tool') tool = target;
      list = buckets.requestBuckets;
    } else if (countAll) list = buckets.requestBuckets;
    else return next();
    const slots = tool === undefined ? undefined : inFlight;
    if (tool === undefined && list.length === 0) return next(); // a tools/call naming nothing, and no total
    if (closed) throw unavailable();
    if (tool !== undefined) {
      try {
        list = buckets.forTool(tool);
      } catch (error) {
        health.failed(error); // the store could not make this tool's counter
        throw unavailable();
      }
      if (list.length === 0 && slots === undefined) return next(); // no limit names this tool
    }
    const key = callerKey(request.caller, request.transport.remoteAddress);
    return slots === undefined ? counted(next, key, list) : capped(next, key, list, slots);
  };

  return {
    middleware,
    close() {
      closed = true;
      buckets.clear();
    },
    stats: () => ({ keys: buckets.bound.size, inFlight: inFlight?.size ?? 0 }),
  };
}

/**
 * Checks rate-limit options read from a file without building anything: a TypeError names the bad key as a path
 * from `root` (for toolwire.json, "policy.rateLimits"). rateLimit() runs the same checks.
 */
export function checkRateLimitOptions(value: unknown, root: string): void {
  checkOptions(value, root);
}
