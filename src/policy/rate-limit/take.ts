// One point from every bucket a request counts in, or from none: when one bucket refuses (or its store fails), the
// points the others took are given back, so a refused call costs nothing.

import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Bucket } from './buckets.js';
import type { CountNow } from './count-now.js';
import type { KeyBound } from './key-bound.js';
import { overLimit, unavailable } from './refusals.js';
import type { StoreHealth } from './store-health.js';

/**
 * A refusal from a store: a RateLimiterRes (from this copy of rate-limiter-flexible, or another copy a plugged-in
 * store brought along). Anything else a store rejects with is a failure of the store.
 */
function isRefusal(reason: unknown): reason is RateLimiterRes {
  return (
    reason instanceof RateLimiterRes ||
    (typeof reason === 'object' &&
      reason !== null &&
      !(reason instanceof Error) &&
      typeof (reason as { msBeforeNext?: unknown }).msBeforeNext === 'number')
  );
}

/** A store call that throws instead of rejecting is the same failure as a rejection. */
function attempt(run: () => Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  try {
    return run();
  } catch (error) {
    return Promise.reject(error);
  }
}

const ignore = (): void => undefined;

/** Every consume's outcome, or undefined when `ms` passed first. */
function settleWithin(
  pending: readonly Promise<RateLimiterRes>[],
  ms: number,
): Promise<PromiseSettledResult<RateLimiterRes>[] | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms, undefined);
    void Promise.allSettled(pending).then((settled) => {
      clearTimeout(timer);
      resolve(settled);
    });
  });
}

export class Taker {
  readonly #bound: KeyBound;
  readonly #health: StoreHealth;
  /** How long a plugged-in store may take to answer; undefined for the memory store, which answers at once. */
  readonly #timeoutMs: number | undefined;

  constructor(bound: KeyBound, health: StoreHealth, timeoutMs: number | undefined) {
    this.#bound = bound;
    this.#health = health;
    this.#timeoutMs = timeoutMs;
  }

  /**
   * Takes one point for `key` from every bucket of `list`, in parallel (one round trip to a remote store), or
   * throws the Denial to answer with: the refusing limit that frees last (429), or 503 when a store failed or did
   * not answer in time. Each store's consume is atomic on its own, so N parallel requests against a limit of N
   * admit exactly N. Under a race, a call may be refused by a point another refused call is about to give back;
   * none is ever admitted over.
   */
  async take(list: readonly Bucket[], key: string): Promise<void> {
    const pending = list.map((bucket) => attempt(() => bucket.limiter.consume(key)));
    const settled =
      this.#timeoutMs === undefined
        ? await Promise.allSettled(pending)
        : await settleWithin(pending, this.#timeoutMs);
    if (settled === undefined) {
      // A store that hangs (a connection that queues commands) must not hold the request, nor its concurrency
      // slot: refused now, and whatever the store counts once it answers is given back then.
      pending.forEach((consumed, index) => {
        const bucket = list[index] as Bucket; // one pending consume per bucket
        consumed.then(
          () => this.#refund(bucket, key),
          (reason: unknown) => {
            if (isRefusal(reason)) this.#refund(bucket, key);
          },
        );
      });
      this.#health.failed(new Error(`the store did not answer within ${this.#timeoutMs} ms`));
      throw unavailable();
    }
    let refused: Bucket | undefined;
    let waitMs = 0;
    let failure: { error: unknown } | undefined;
    for (let index = 0; index < list.length; index++) {
      const bucket = list[index] as Bucket; // settled has one entry per bucket
      const outcome = settled[index] as PromiseSettledResult<RateLimiterRes>;
      if (outcome.status === 'fulfilled') this.#seen(bucket, key, outcome.value);
      else if (isRefusal(outcome.reason)) {
        this.#seen(bucket, key, outcome.reason);
        if (refused === undefined || outcome.reason.msBeforeNext > waitMs) {
          refused = bucket;
          waitMs = outcome.reason.msBeforeNext;
        }
      } else failure ??= { error: outcome.reason };
    }
    if (refused === undefined && failure === undefined) {
      this.#health.ok();
      return;
    }
    // All or nothing: every bucket that counted this call (the refusing ones too) gets its point back.
    for (let index = 0; index < list.length; index++) {
      const outcome = settled[index] as PromiseSettledResult<RateLimiterRes>;
      if (outcome.status === 'rejected' && !isRefusal(outcome.reason)) continue;
      this.#refund(list[index] as Bucket, key);
    }
    if (failure !== undefined) {
      this.#health.failed(failure.error);
      throw unavailable();
    }
    this.#health.ok();
    const bucket = refused as Bucket; // not undefined: no failure, so something refused
    throw overLimit(bucket.describe, bucket.kind, waitMs);
  }

  /**
   * take() for a list of memory buckets, done in this turn: true once every bucket counted the call, false (nothing
   * taken) when some bucket's store answers only through promises, so take() must run. Throws the same Denial.
   */
  takeNow(list: readonly Bucket[], key: string): boolean {
    for (let index = 0; index < list.length; index++) {
      if ((list[index] as Bucket).now === undefined) return false;
    }
    let refused: Bucket | undefined;
    let waitMs = 0;
    let counted = 0;
    try {
      for (; counted < list.length; counted++) {
        const bucket = list[counted] as Bucket;
        const res = (bucket.now as CountNow)(key, 1);
        this.#seen(bucket, key, res);
        if (
          res.consumedPoints > bucket.limit.points &&
          (refused === undefined || res.msBeforeNext > waitMs)
        ) {
          refused = bucket;
          waitMs = res.msBeforeNext;
        }
      }
    } catch (error) {
      // A memory Map does not fail; should it ever, the call is refused as any store failure is, and nothing kept.
      this.#giveBack(list, key, counted);
      this.#health.failed(error);
      throw unavailable();
    }
    if (refused === undefined) return true;
    this.#giveBack(list, key, list.length);
    throw overLimit(refused.describe, refused.kind, waitMs);
  }

  /** All or nothing: the first `count` buckets of `list` (memory ones) get their point back. */
  #giveBack(list: readonly Bucket[], key: string, count: number): void {
    for (let index = 0; index < count; index++) {
      const bucket = list[index] as Bucket;
      this.#seen(bucket, key, (bucket.now as CountNow)(key, -1));
    }
  }

  #refund(bucket: Bucket, key: string): void {
    attempt(() => bucket.limiter.reward(key)).then((res) => this.#seen(bucket, key, res), ignore);
  }

  #seen(bucket: Bucket, key: string, res: RateLimiterRes): void {
    if (bucket.bounded) this.#bound.seen(bucket.id, bucket.limiter, key, res);
  }
}
