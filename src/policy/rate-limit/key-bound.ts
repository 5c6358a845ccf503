// The bound on what the default memory store keeps: every window it opens is tracked in start order, and past
// maxKeys the oldest are forgotten, so a flood of new addresses costs bounded memory instead of a Map without end.

import type { RateLimiterAbstract, RateLimiterRes } from 'rate-limiter-flexible';

/** One window the memory store holds: when it ends, and where to delete it. */
interface Window {
  readonly limiter: RateLimiterAbstract;
  readonly key: string;
  endsAt: number;
}

/**
 * Tracks the keys of the memory buckets. RateLimiterMemory keeps a record (and a timer) per key until its window
 * ends; a flood of distinct keys within one window would keep them all. Windows are kept here in the order they
 * opened, which for one bucket is also the order they end: ended ones are dropped from the front as new ones come,
 * and past `maxKeys` the oldest live window is deleted from its store (that caller starts a fresh window: the price
 * of a bound, paid by whoever has been quiet longest).
 */
export class KeyBound {
  readonly #maxKeys: number;
  readonly #now: () => number;
  /** "<bucket id>\n<key>" → its window, oldest first (a Map keeps insertion order). */
  readonly #windows = new Map<string, Window>();

  constructor(maxKeys: number, now: () => number) {
    this.#maxKeys = maxKeys;
    this.#now = now;
  }

  /** How many keys the memory buckets hold at most right now. */
  get size(): number {
    return this.#windows.size;
  }

  /** After a consume or reward on a memory bucket: a window that just opened is tracked. */
  seen(bucketId: number, limiter: RateLimiterAbstract, key: string, res: RateLimiterRes): void {
    if (!res.isFirstInDuration) return; // the common case: the window is tracked already
    const id = `${bucketId}\n${key}`;
    const now = this.#now();
    const windows = this.#windows;
    windows.delete(id); // re-inserted at the end: it is the newest window now
    windows.set(id, { limiter, key, endsAt: now + Math.max(res.msBeforeNext, 0) });
    for (const [oldest, window] of windows) {
      if (windows.size <= this.#maxKeys && window.endsAt > now) break;
      windows.delete(oldest);
      // The memory store's delete is synchronous underneath (and cannot fail); its promise carries nothing.
      void window.limiter.delete(window.key);
    }
  }

  /** Deletes every tracked key from its store (on close). */
  clear(): void {
    for (const window of this.#windows.values()) void window.limiter.delete(window.key);
    this.#windows.clear();
  }
}
