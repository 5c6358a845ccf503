// One issuer's public keys, fetched and kept: refreshed when old, refetched on an unknown `kid` at most once per
// 30 s (a flood of tokens with made-up kids makes no flood of fetches), and after a failed fetch nobody asks again
// for a few seconds: every request in between gets 503 with Retry-After instead of waiting on a dead endpoint.

import {
  createLocalJWKSet,
  errors,
  type CryptoKey,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWK,
  type JWSHeaderParameters,
} from 'jose';
import type { Logger } from '../../server/index.js';
import { TokenFailure, invalid, unavailable, UNAVAILABLE_RETRY_SECONDS } from './failure.js';
import { fetchJson, type FetchLimits } from './safe-fetch.js';

/** Least time between two fetches caused by unknown key ids. */
export const REFETCH_COOLDOWN_MS = 30_000;
/** Keys older than this are refreshed on the next use. */
export const MAX_KEY_AGE_MS = 10 * 60_000;
/** When a refresh fails, keys up to this old stay in use (an outage of the key endpoint is not an outage of ours). */
export const MAX_STALE_MS = 60 * 60_000;
const MAX_KEYS = 100;

type Resolver = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** Where the keys come from: the configured keys, or a URL found (once) by `locate`. */
export type KeySource = { readonly keys: readonly JWK[] } | { readonly locate: () => Promise<URL> };

export interface KeySetDeps {
  readonly now: () => number;
  readonly limits: FetchLimits;
  readonly logger: Logger | undefined;
  /** For messages: whose keys these are. */
  readonly label: string;
}

/** Only public signature keys: a set that also holds private or symmetric keys has those left out. */
function publicKeys(json: unknown, label: string): JSONWebKeySet {
  const keys = (json as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw unavailable(`the key set of ${label} has no "keys" array`);
  const kept = keys
    .filter(
      (key: unknown): key is JWK =>
        typeof key === 'object' &&
        key !== null &&
        (key as JWK).d === undefined &&
        ['RSA', 'EC', 'OKP'].includes(String((key as JWK).kty)) &&
        ((key as JWK).use === undefined || (key as JWK).use === 'sig'),
    )
    .slice(0, MAX_KEYS);
  return { keys: kept };
}

export class KeySet {
  readonly #source: KeySource;
  readonly #deps: KeySetDeps;
  #resolver: Resolver | undefined;
  #fetchedAt = -Infinity;
  #attemptedAt = -Infinity;
  #failedUntil = -Infinity;
  #jwksUri: URL | undefined;
  #pending: Promise<void> | undefined;
  /** Fetches made (successful or not): tests and metrics read it. */
  fetches = 0;

  constructor(source: KeySource, deps: KeySetDeps) {
    this.#source = source;
    this.#deps = deps;
    if ('keys' in source) {
      this.#resolver = createLocalJWKSet({ keys: [...source.keys] });
      this.#fetchedAt = Infinity; // configured keys never age
    }
  }

  /** The key for a token's protected header (jose's key-resolver shape). */
  readonly key = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> => {
    const now = this.#deps.now();
    if (this.#resolver === undefined || now - this.#fetchedAt > MAX_KEY_AGE_MS) await this.#refresh(now);
    try {
      return await this.#select(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey) || 'keys' in this.#source) throw error;
      if (now - this.#attemptedAt < REFETCH_COOLDOWN_MS) throw error; // an unknown kid refetches at a bounded rate
      // If that refetch fails, the kid may well be in the set we could not read: 503, not 401.
      if (!(await this.#refresh(now))) throw unavailable(`the key set of ${this.#deps.label} is unavailable`);
      return this.#select(header, token);
    }
  };

  #select(header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<CryptoKey> {
    // #refresh either set a resolver or threw.
    return (this.#resolver as Resolver)(header, token);
  }

  /**
   * Fetches the key set once for every request waiting on it: true when it did. When it fails, keys not too stale
   * stay in use (false); without such keys the failure is thrown.
   */
  async #refresh(now: number): Promise<boolean> {
    if (now < this.#failedUntil) {
      if (this.#usable(now)) return false;
      throw unavailable(
        `the key set of ${this.#deps.label} is unavailable`,
        (this.#failedUntil - now) / 1000,
      );
    }
    this.#pending ??= this.#fetch(now).finally(() => (this.#pending = undefined));
    try {
      await this.#pending;
      return true;
    } catch (error) {
      if (this.#usable(now)) return false;
      throw error;
    }
  }

  #usable(now: number): boolean {
    return this.#resolver !== undefined && now - this.#fetchedAt <= MAX_STALE_MS;
  }

  async #fetch(now: number): Promise<void> {
    this.#attemptedAt = now;
    this.fetches++;
    try {
      if (!('locate' in this.#source)) return;
      this.#jwksUri ??= await this.#source.locate();
      const { status, json } = await fetchJson(
        this.#jwksUri,
        {},
        this.#deps.limits,
        `the key set of ${this.#deps.label}`,
      );
      if (status < 200 || status > 299) {
        throw unavailable(`the key set of ${this.#deps.label} answered HTTP ${status}`);
      }
      this.#resolver = createLocalJWKSet(publicKeys(json, this.#deps.label));
      this.#fetchedAt = now;
    } catch (error) {
      this.#failedUntil = now + UNAVAILABLE_RETRY_SECONDS * 1000;
      const failure =
        error instanceof TokenFailure
          ? error
          : unavailable(`the key set of ${this.#deps.label} could not be read`);
      this.#deps.logger?.warn(`bearer: ${failure.message}`);
      throw failure;
    }
  }
}

/** jose's key-selection errors as the client hears them. */
export function keyProblem(error: unknown): TokenFailure | undefined {
  if (error instanceof errors.JWKSNoMatchingKey) {
    return invalid('no key of the issuer matches the token ("kid")');
  }
  if (error instanceof errors.JWKSMultipleMatchingKeys) {
    return invalid('the token does not name its key ("kid")');
  }
  return undefined;
}
