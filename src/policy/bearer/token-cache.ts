// Verified tokens, remembered by the SHA-256 of the token until they expire: the hot path hashes the token and
// finds the same frozen Caller, with no signature check and no call to the authorization server. Bounded: the least
// recently used entry goes first, and an expired entry is dropped when met.

import { sha256 } from '../../protocol/sha256.js';

/** The cache key of a token: its SHA-256, so the cache never holds the token itself (runs on every request). */
export const tokenHash = (token: string): string => sha256(token, 'base64url');

interface Entry<T> {
  readonly value: T;
  readonly expiresAt: number;
  /** The cache's tick when the entry last moved to the recent end. */
  moved: number;
}

export class TokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Counts moves to the recent end; an entry moved within the last quarter of the capacity stays put. */
  #tick = 0;

  constructor(maxEntries: number, now: () => number) {
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /**
   * The value stored under `key`, unless it expired (then it is dropped). A hit becomes one of the most recent
   * entries: it moves to the recent end unless it is among the last quarter moved there already, so a token used
   * on every request is not deleted and re-inserted on every request (the order stays LRU to within that quarter).
   */
  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.#now()) {
      this.#entries.delete(key);
      return undefined;
    }
    if (this.#tick - entry.moved > this.#maxEntries >> 2) {
      this.#entries.delete(key);
      this.#entries.set(key, entry); // re-inserted: Map order is the recency order
      entry.moved = ++this.#tick;
    }
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms); a value already expired is not stored. */
  set(key: string, value: T, expiresAt: number): void {
    const now = this.#now();
    if (expiresAt <= now) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#evict(now);
    this.#entries.set(key, { value, expiresAt, moved: ++this.#tick });
  }

  clear(): void {
    this.#entries.clear();
  }

  /** When the entry under `key` expires (ms), or undefined when there is none. */
  expiresAt(key: string): number | undefined {
    return this.#entries.get(key)?.expiresAt;
  }

  /** Makes room for one entry: expired ones first (a bounded look at the oldest), else the least recently used. */
  #evict(now: number): void {
    let looked = 0;
    for (const [key, entry] of this.#entries) {
      if (++looked > 64) break;
      if (entry.expiresAt <= now) this.#entries.delete(key);
    }
    while (this.#entries.size >= this.#maxEntries) {
      const oldest = this.#entries.keys().next();
      if (oldest.done === true) break;
      this.#entries.delete(oldest.value);
    }
  }
}
