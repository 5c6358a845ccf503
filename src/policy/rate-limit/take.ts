// One point from every bucket a request counts in, or from none: when one bucket refuses (or its store fails), the
// points the others took are given back, so a refused call costs nothing.

import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Bucket } from './buckets.js';
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

export class Taker {
  readonly #bound: KeyBound;
  readonly #health: StoreHealth;

  constructor(bound: KeyBound, health: StoreHealth) {
    this.#bound = bound;
    this.#health = health;
  }

  /**
   * Takes one point for `key` from every bucket of `list`, in parallel (one round trip to a remote store), or
   * throws the Denial to answer with: the refusing limit that frees last (429), or 503 when a store failed.
   * Each store's consume is atomic on its own, so N parallel requests against a limit of N admit exactly N. Under a
   * race, a call may be refused by a point another refused call is about to give back; none is ever admitted over.
   */
  async take(list: readonly Bucket[], key: string): Promise<void> {
    const settled = await Promise.allSettled(
      list.map((bucket) => attempt(() => bucket.limiter.consume(key))),
    );
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
      const bucket = list[index] as Bucket;
      attempt(() => bucket.limiter.reward(key)).then((res) => this.#seen(bucket, key, res), ignore);
    }
    if (failure !== undefined) {
      this.#health.failed(failure.error);
      throw unavailable();
    }
    this.#health.ok();
    const bucket = refused as Bucket; // not undefined: no failure, so something refused
    throw overLimit(bucket.describe, bucket.kind, waitMs);
  }

  #seen(bucket: Bucket, key: string, res: RateLimiterRes): void {
    if (bucket.bounded) this.#bound.seen(bucket.id, bucket.limiter, key, res);
  }
}
