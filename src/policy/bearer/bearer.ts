// The OAuth 2.1 resource server as the MCP authorization spec asks: an `authenticate` hook for the HTTP edge that
// turns a bearer token into a frozen Caller (a JWT checked against the issuer's keys, or an opaque token through
// introspection), the RFC 9728 metadata routes, and the challenges for 401, 403 step-up and 503.

import type { Caller } from '../../protocol/index.js';
import type {
  HttpAuthenticate,
  HttpChallenge,
  HttpRequestInfo,
  HttpRoute,
} from '../../transports/http/index.js';
import { MAX_CREDENTIAL_LENGTH, presentedCredential } from '../credentials.js';
import { audienceMatcher } from './audience.js';
import { callerFromClaims } from './caller.js';
import { bearerChallenge, unauthorized, unavailableChallenge } from './challenge.js';
import { TokenFailure, invalid, unavailable, type VerifyOutcome } from './failure.js';
import { Introspector } from './introspection.js';
import { discoverJwksUri } from './issuer-metadata.js';
import { verifyJwt, looksLikeJwt } from './jwt.js';
import { KeySet } from './key-set.js';
import { metadataRoutes, metadataUrl } from './metadata.js';
import { resolveBearerOptions, type BearerOptions } from './options.js';
import { FETCH_TIMEOUT_MS, MAX_RESPONSE_BYTES, type FetchLimits } from './safe-fetch.js';
import { TokenCache, tokenHash } from './token-cache.js';

/** The longest an opaque token's introspection answer is believed (a revoked token is refused within this time). */
export const INTROSPECTION_CACHE_MS = 5 * 60_000;
/** Distinct tokens checked at once whose checks are shared; past this, checks are simply not shared. */
const MAX_PENDING = 1_000;

export interface Bearer {
  /** The HTTP edge hook: a Caller (via "bearer"), or a 401 / 503 challenge. */
  readonly authenticate: HttpAuthenticate;
  /** authenticate, for a token already read from the request (a composition that parsed the header itself). */
  /**
   * Checks a token taken from a request. `connection` (HttpRequestInfo.connection) lets the check of a token its
   * connection presented just before be remembered: see LastToken.
   */
  authenticateToken(
    token: string,
    connection?: object,
  ): Caller | HttpChallenge | Promise<Caller | HttpChallenge>;
  /** RFC 9728 metadata at /.well-known/oauth-protected-resource and its path-inserted form for the resource path. */
  readonly routes: Record<string, HttpRoute>;
  /** Absolute URL of the path-inserted metadata document (the `resource_metadata` of every challenge). */
  readonly resourceMetadataUrl: string;
  /** Checks a token: the Caller (the same object while it is cached), or why not. Never throws. */
  verify(token: string): Promise<VerifyOutcome>;
  /** The WWW-Authenticate header of a 403 step-up for the scopes the caller lacks. */
  stepUpHeaders(missingScopes: readonly string[]): Record<string, string>;
  /** Aborts pending fetches and forgets cached tokens and keys' state. */
  close(): void;
}

/**
 * The token a connection presented, as it was checked, so that the next request on that connection with the same
 * token skips the SHA-256 of the cache key (a token is hashed, never compared, to find its cache entry: the one place
 * a secret meets attacker-chosen text). A keep-alive client sends the same token on every request of a connection,
 * so comparing with the one before compares the caller's own token with itself. A connection that ever presents
 * another token (a proxy carrying several users' requests) is marked shared and never remembered again, so one
 * user's token is compared with another's at most once per connection. The answer lasts as long as the cache entry
 * it came from (the token's expiry, or the introspection cache's limit).
 */
class LastToken {
  #token: string | undefined;
  readonly #caller: Caller;
  readonly #expiresAt: number;

  constructor(token: string, caller: Caller, expiresAt: number) {
    this.#token = token;
    this.#caller = caller;
    this.#expiresAt = expiresAt;
  }

  /** The Caller when `token` is the one remembered and still valid at `now`; undefined otherwise. */
  answer(token: string, now: number): Caller | undefined {
    const remembered = this.#token;
    if (remembered === undefined || now >= this.#expiresAt) return undefined;
    if (remembered === token) return this.#caller;
    this.#token = undefined; // shared: never compared again
    return undefined;
  }

  /** True once the answer expired while the connection was not marked shared: a new one may take its place. */
  replaceable(now: number): boolean {
    return this.#token !== undefined && now >= this.#expiresAt;
  }
}

export function bearer(options: BearerOptions): Bearer {
  const config = resolveBearerOptions(options);
  const resourceMetadataUrl = metadataUrl(config.resource);
  const closing = new AbortController();
  const limits: FetchLimits = {
    timeoutMs: FETCH_TIMEOUT_MS,
    maxBytes: MAX_RESPONSE_BYTES,
    signal: closing.signal,
  };
  const verified = new TokenCache<Caller>(config.maxEntries, config.now);
  const forThisResource = audienceMatcher(config.audiences);
  const introspector =
    config.introspection === undefined ? undefined : new Introspector(config, limits, forThisResource);
  const pending = new Map<string, Promise<VerifyOutcome>>();

  // One key set for configured keys or a configured URL; else one per accepted issuer, found from its metadata.
  const keySets = new Map<string, KeySet>();
  const keysFor = (issuer: string): KeySet => {
    const shared = config.jwks === undefined ? issuer : '';
    let keys = keySets.get(shared);
    if (keys === undefined) {
      const jwks = config.jwks;
      const source =
        jwks === undefined
          ? { locate: () => discoverJwksUri(issuer, limits, config.allowInsecureUrls) }
          : 'keys' in jwks
            ? jwks
            : { locate: () => Promise.resolve(jwks.uri) };
      keys = new KeySet(source, {
        now: config.now,
        limits,
        logger: config.logger,
        label: `issuer ${issuer}`,
      });
      keySets.set(shared, keys); // at most one per configured issuer: bounded by the configuration
    }
    return keys;
  };

  /** Verifies a token not in the cache, and caches its Caller until the token expires. */
  async function verifyFresh(token: string, hash: string): Promise<Caller> {
    if (looksLikeJwt(token)) {
      const claims = await verifyJwt(token, config, keysFor, forThisResource);
      const caller = callerFromClaims(claims);
      verified.set(hash, caller, (claims.exp as number) * 1000); // exp is a required claim, checked by jose
      return caller;
    }
    if (introspector === undefined) {
      throw invalid('the token is not a JWT, and this server introspects no tokens');
    }
    const claims = await introspector.claims(token, hash);
    const caller = callerFromClaims(claims);
    const limit = config.now() + INTROSPECTION_CACHE_MS;
    verified.set(hash, caller, typeof claims.exp === 'number' ? Math.min(claims.exp * 1000, limit) : limit);
    return caller;
  }

  /**
   * verify, for a token whose hash is known (authenticate computed it for its cache lookup). Concurrent first
   * requests with one token share one check, so they too get one Caller object (caches key on its identity).
   */
  function verifyHashed(token: string, hash: string): Promise<VerifyOutcome> {
    const cached = verified.get(hash);
    if (cached !== undefined) return Promise.resolve({ ok: true, caller: cached });
    const shared = pending.get(hash);
    if (shared !== undefined) return shared;
    const check = settle(token, hash);
    if (pending.size < MAX_PENDING) {
      pending.set(hash, check);
      void check.finally(() => pending.delete(hash));
    }
    return check;
  }

  /** One check of a token, as an outcome (never a rejection). */
  async function settle(token: string, hash: string): Promise<VerifyOutcome> {
    try {
      // presentedCredential bounds header tokens; verify() may be handed one from elsewhere.
      if (token.length > MAX_CREDENTIAL_LENGTH) {
        throw invalid(`the token is over ${MAX_CREDENTIAL_LENGTH} characters`);
      }
      return { ok: true, caller: await verifyFresh(token, hash) };
    } catch (error) {
      const failure = error instanceof TokenFailure ? error : unavailable('the token could not be checked');
      if (!(error instanceof TokenFailure)) config.logger?.error('bearer: token check failed', error);
      return failure.reason === 'invalid'
        ? { ok: false, reason: 'invalid', message: failure.message }
        : {
            ok: false,
            reason: 'unavailable',
            message: failure.message,
            retryAfterSeconds: failure.retryAfterSeconds,
          };
    }
  }

  const verify = (token: string): Promise<VerifyOutcome> => verifyHashed(token, tokenHash(token));

  const challengeFor = (outcome: Exclude<VerifyOutcome, { ok: true }>): HttpChallenge =>
    outcome.reason === 'unavailable'
      ? unavailableChallenge(outcome.retryAfterSeconds ?? 1)
      : unauthorized(resourceMetadataUrl, config.requiredScopes, {
          error: 'invalid_token',
          description: outcome.message,
        });

  // The token each connection presented last, once checked. Replaced whole on close (a WeakMap cannot be cleared).
  let lastTokens = new WeakMap<object, LastToken>();

  /** The hot path: a cached token answers synchronously, the same Caller object every time. */
  const authenticateToken = (
    token: string,
    connection?: object,
  ): Caller | HttpChallenge | Promise<Caller | HttpChallenge> => {
    const last = connection === undefined ? undefined : lastTokens.get(connection);
    if (last !== undefined) {
      const caller = last.answer(token, config.now());
      if (caller !== undefined) return caller;
    }
    const hash = tokenHash(token);
    const cached = verified.get(hash);
    if (cached !== undefined) {
      if (connection !== undefined && (last === undefined || last.replaceable(config.now()))) {
        lastTokens.set(connection, new LastToken(token, cached, verified.expiresAt(hash) as number));
      }
      return cached;
    }
    return verifyHashed(token, hash).then((outcome) => (outcome.ok ? outcome.caller : challengeFor(outcome)));
  };

  const authenticate: HttpAuthenticate = (request: HttpRequestInfo) => {
    const presented = presentedCredential(request);
    if (presented.kind === 'none') return unauthorized(resourceMetadataUrl, config.requiredScopes);
    if (presented.kind === 'malformed') {
      return unauthorized(resourceMetadataUrl, config.requiredScopes, {
        error: 'invalid_request',
        description: presented.problem,
      });
    }
    return authenticateToken(presented.token, request.connection);
  };

  return {
    authenticate,
    authenticateToken,
    routes: metadataRoutes(config, options.resource),
    resourceMetadataUrl,
    verify,
    stepUpHeaders: (missingScopes) => ({
      'www-authenticate': bearerChallenge(resourceMetadataUrl, missingScopes, {
        error: 'insufficient_scope',
        description: `this needs the scope${missingScopes.length === 1 ? '' : 's'} ${missingScopes.join(' ')}`,
      }),
    }),
    close() {
      closing.abort();
      verified.clear();
      lastTokens = new WeakMap();
      introspector?.clear();
    },
  };
}
