// Verified tokens, remembered by the SHA-256 of the token until they expire: the hot path hashes the token and
// finds the same frozen Caller, with no signature check and no call to the authorization server. Bounded: the least
// recently used entry goes first, and an expired entry is dropped when met.

import * as crypto from 'node:crypto';

/** The cache key of a token: its SHA-256, so the cache never holds the token itself. */
// crypto.hash (Node 20.12 and later) makes no Hash object: this runs on every request with a bearer token.
const oneShot = (crypto as { hash?: (algorithm: string, data: string, encoding: 'base64url') => string })
  .hash;
export const tokenHash = (token: string): string =>
  oneShot === undefined
    ? crypto.createHash('sha256').update(token).digest('base64url')
    : oneShot('sha256', token, 'base64url');

interface Entry<T> {
  readonly value: T;
  readonly expiresAt: number;
}

export class TokenCache<T> {
  readonly #entries = new Map<string, Entry<T>>();
  readonly #maxEntries: number;
  readonly #now: () => number;

  constructor(maxEntries: number, now: () => number) {
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  get size(): number {
    return this.#entries.size;
  }

  /** The value stored under `key`, unless it expired (then it is dropped). A hit becomes the most recent entry. */
  get(key: string): T | undefined {
    const entry = this.#entries.get(key);
    if (entry === undefined) return undefined;
    this.#entries.delete(key);
    if (entry.expiresAt <= this.#now()) return undefined;
    this.#entries.set(key, entry); // re-inserted: Map order is the recency order
    return entry.value;
  }

  /** Stores `value` until `expiresAt` (ms); a value already expired is not stored. */
  set(key: string, value: T, expiresAt: number): void {
    const now = this.#now();
    if (expiresAt <= now) return;
    this.#entries.delete(key);
    if (this.#entries.size >= this.#maxEntries) this.#evict(now);
    this.#entries.set(key, { value, expiresAt });
  }

  clear(): void {
    this.#entries.clear();
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
