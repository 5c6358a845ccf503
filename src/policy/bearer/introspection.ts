// Opaque tokens through RFC 7662 introspection: a POST of the token with the resource server's own client
// credentials (client_secret_basic), then the same checks a JWT gets (active, issuer, audience, expiry). An inactive
// answer is remembered briefly, so a flood of one bad token is not a flood of calls (concurrent checks of one token
// are shared one level up, in bearer.ts).

import { AUDIENCE_REFUSED } from './audience.js';
import type { BearerConfig } from './options.js';
import { TokenFailure, invalid, unavailable, UNAVAILABLE_RETRY_SECONDS } from './failure.js';
import { fetchJson, type FetchLimits } from './safe-fetch.js';
import { TokenCache } from './token-cache.js';

/** How long an "inactive" answer is believed without asking again. */
export const INACTIVE_TTL_MS = 30_000;
const MAX_INACTIVE = 1_000;

/** RFC 6749 §2.3.1: client id and secret are form-encoded before they are joined for HTTP Basic. */
const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export class Introspector {
  readonly #config: BearerConfig;
  readonly #endpoint: NonNullable<BearerConfig['introspection']>;
  readonly #limits: FetchLimits;
  readonly #forThisResource: (aud: unknown) => boolean;
  readonly #inactive: TokenCache<string>;
  #failedUntil = -Infinity;
  /** Calls made to the endpoint: tests and metrics read it. */
  calls = 0;

  constructor(config: BearerConfig, limits: FetchLimits, forThisResource: (aud: unknown) => boolean) {
    this.#config = config;
    this.#forThisResource = forThisResource;
    this.#endpoint = config.introspection as NonNullable<BearerConfig['introspection']>; // only made when configured
    this.#limits = limits;
    this.#inactive = new TokenCache(MAX_INACTIVE, config.now);
  }

  /** The checked claims of an active token, or a failure. `hash` keys the memory of inactive tokens. */
  async claims(token: string, hash: string): Promise<Record<string, unknown>> {
    const known = this.#inactive.get(hash);
    if (known !== undefined) throw invalid(known);
    const now = this.#config.now();
    if (now < this.#failedUntil) {
      throw unavailable('the introspection endpoint is unavailable', (this.#failedUntil - now) / 1000);
    }
    this.calls++;
    let answer: unknown;
    try {
      const { status, json } = await fetchJson(
        this.#endpoint.endpoint,
        {
          method: 'POST',
          headers: {
            authorization: basic(this.#endpoint.clientId, this.#endpoint.clientSecret),
            'content-type': 'application/x-www-form-urlencoded',
          },
          body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
        },
        this.#limits,
        'the introspection endpoint',
      );
      if (status !== 200) throw unavailable(`the introspection endpoint answered HTTP ${status}`);
      answer = json;
    } catch (error) {
      this.#failedUntil = now + UNAVAILABLE_RETRY_SECONDS * 1000;
      const failure =
        error instanceof TokenFailure ? error : unavailable('the introspection endpoint failed');
      this.#config.logger?.warn(`bearer: ${failure.message}`);
      throw failure;
    }
    try {
      return this.#check(answer);
    } catch (error) {
      if (error instanceof TokenFailure && error.reason === 'invalid') {
        this.#inactive.set(hash, error.message, now + INACTIVE_TTL_MS);
      }
      throw error;
    }
  }

  /** RFC 7662 §2.2 and the checks a JWT gets: active, an accepted issuer, this audience, not expired, valid now. */
  #check(answer: unknown): Record<string, unknown> {
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      throw unavailable('the introspection endpoint answered something that is not a JSON object');
    }
    const claims = answer as Record<string, unknown>; // an object, checked above
    if (claims.active !== true) throw invalid('the token is not active');
    if (typeof claims.iss !== 'string') throw invalid('the token has no "iss" claim');
    if (!this.#config.issuers.includes(claims.iss)) {
      throw invalid('the token was issued by an issuer this resource does not accept');
    }
    if (claims.aud === undefined) throw invalid('the token has no "aud" claim');
    if (!this.#forThisResource(claims.aud)) throw invalid(AUDIENCE_REFUSED);
    const nowSeconds = this.#config.now() / 1000;
    const skew = this.#config.clockToleranceSeconds;
    if (claims.exp !== undefined && (typeof claims.exp !== 'number' || claims.exp <= nowSeconds - skew)) {
      throw invalid('the token has expired');
    }
    if (claims.nbf !== undefined && (typeof claims.nbf !== 'number' || claims.nbf > nowSeconds + skew)) {
      throw invalid('the token is not valid yet ("nbf")');
    }
    return claims;
  }

  clear(): void {
    this.#inactive.clear();
  }
}
