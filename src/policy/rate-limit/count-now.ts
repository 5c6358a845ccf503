// The default memory store counted in this turn: RateLimiterMemory keeps its counters in a MemoryStorage (a Map)
// and settles the promise of consume and reward before returning it, so counting there directly gives the same
// answer without two promises per bucket per call (the policy row's profile had the memory store's promises and
// their microtasks among its top costs).

import { RateLimiterMemory, type RateLimiterAbstract, type RateLimiterRes } from 'rate-limiter-flexible';

/** Adds `points` (negative to give back) to `key`'s counter and answers the store's result, as consume would. */
export type CountNow = (key: string, points: number) => RateLimiterRes;

/** What this reads of RateLimiterMemory (rate-limiter-flexible 11; checked, so another version falls back). */
interface MemoryInternals {
  readonly _memoryStorage?: { incrby?: unknown };
  readonly points: number;
  readonly duration: number;
  readonly execEvenly: boolean;
  readonly blockDuration: number;
  getKey(key: string): string;
}

/**
 * The synchronous counter of a plain RateLimiterMemory (no execEvenly delay, no block duration: this module never
 * sets them), or undefined for any other limiter, which is then asked through its promises.
 */
export function countNow(limiter: RateLimiterAbstract): CountNow | undefined {
  if (!(limiter instanceof RateLimiterMemory)) return undefined;
  const memory = limiter as unknown as MemoryInternals;
  const storage = memory._memoryStorage;
  if (storage === undefined || typeof storage.incrby !== 'function') return undefined;
  if (memory.execEvenly || memory.blockDuration > 0 || typeof memory.getKey !== 'function') return undefined;
  const incrby = storage.incrby as (key: string, value: number, durationSec: number) => RateLimiterRes;
  const points = memory.points;
  const duration = memory.duration;
  return (key, value) => {
    const res = incrby.call(storage, memory.getKey(key), value, duration);
    (res as { remainingPoints: number }).remainingPoints = Math.max(points - res.consumedPoints, 0);
    return res;
  };
}
