// The options of the bearer authenticator, checked once at construction: every mistake is a DefinitionError that
// names the option, so a misconfigured resource server fails at startup instead of refusing (or admitting) tokens.

import type { JWK } from 'jose';
import type { Logger } from '../../server/index.js';
import { DefinitionError } from '../../server/index.js';
import { urlProblem } from './safe-fetch.js';

export interface BearerOptions {
  /** Canonical URL of the MCP endpoint clients use, e.g. "https://mcp.example.com/mcp" (RFC 9728 `resource`). */
  resource: string;
  /** Issuer identifiers of the authorization servers listed in the protected-resource metadata. */
  authorizationServers: readonly string[];
  /** Accepted `iss` values; default: authorizationServers. */
  issuer?: string | readonly string[];
  /** Accepted `aud` values; default: resource (RFC 8707). A token without `aud` is refused. */
  audience?: string | readonly string[];
  /** The key set: configured (a URL or the keys), else discovered from each issuer's metadata (`jwks_uri`). */
  jwks?: { uri: string } | { keys: readonly JWK[] };
  /** Accepted JWS algorithms; default the asymmetric ones. Never "none", never HMAC (a public key is no secret). */
  algorithms?: readonly string[];
  /** Clock skew allowed on `exp` and `nbf`, in seconds; default 60. */
  clockToleranceSeconds?: number;
  /** RFC 7662 introspection for opaque (non-JWT) tokens, authenticated with client_secret_basic. */
  introspection?: { endpoint: string; clientId: string; clientSecret: string };
  /** `scopes_supported` in the metadata: a minimal baseline (default: none listed). */
  scopesSupported?: readonly string[];
  /** `scope` in the plain 401 challenge: what a first token should ask for. */
  requiredScopes?: readonly string[];
  /** RFC 9728 `resource_name`. */
  resourceName?: string;
  /** Bound of the verified-token cache (default 10,000 entries). */
  cache?: { maxEntries?: number };
  /** Allow http:// issuer, key set and introspection URLs off loopback. Default false: https only. */
  allowInsecureUrls?: boolean;
  /** Clock in milliseconds (tests). */
  now?: () => number;
  /** Where fetch failures of the authorization server are reported (never a token). Default: silent. */
  logger?: Logger;
}

/** The asymmetric JWS algorithms jose verifies; the default set, and the only ones that may be configured. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = Object.freeze([
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
]);

/** The options after checking, with defaults applied. */
export interface BearerConfig {
  readonly resource: URL;
  readonly authorizationServers: readonly string[];
  readonly issuers: readonly string[];
  readonly audiences: readonly string[];
  readonly jwks: { readonly uri: URL } | { readonly keys: readonly JWK[] } | undefined;
  readonly algorithms: string[];
  readonly clockToleranceSeconds: number;
  readonly introspection:
    { readonly endpoint: URL; readonly clientId: string; readonly clientSecret: string } | undefined;
  readonly scopesSupported: readonly string[] | undefined;
  readonly requiredScopes: readonly string[];
  readonly resourceName: string | undefined;
  readonly maxEntries: number;
  readonly allowInsecureUrls: boolean;
  readonly now: () => number;
  readonly logger: Logger | undefined;
}

const KNOWN = new Set([
  'resource',
  'authorizationServers',
  'issuer',
  'audience',
  'jwks',
  'algorithms',
  'clockToleranceSeconds',
  'introspection',
  'scopesSupported',
  'requiredScopes',
  'resourceName',
  'cache',
  'allowInsecureUrls',
  'now',
  'logger',
]);

// RFC 6749 §3.3 scope-token: visible ASCII but space, quote and backslash.
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

const fail = (message: string): never => {
  throw new DefinitionError(`bearer: ${message}`);
};

const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

function url(value: unknown, name: string, allowInsecure: boolean): URL {
  if (typeof value !== 'string') return fail(`${name} must be an absolute URL string; got ${typeOf(value)}`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return fail(`${name} must be an absolute URL; got ${JSON.stringify(value.slice(0, 200))}`);
  }
  const problem = urlProblem(parsed, allowInsecure);
  if (problem !== undefined) fail(`${name} ${problem}; got ${JSON.stringify(value.slice(0, 200))}`);
  return parsed;
}

function strings(value: unknown, name: string, check?: (item: string) => string | undefined): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list)) return fail(`${name} must be an array of strings; got ${typeOf(value)}`);
  return list.map((item: unknown, index) => {
    if (typeof item !== 'string' || item === '') {
      return fail(
        `${name}[${index}] must be a non-empty string; got ${item === '' ? 'an empty one' : typeOf(item)}`,
      );
    }
    const problem = check?.(item);
    if (problem !== undefined) fail(`${name}[${index}] ${problem}`);
    return item;
  });
}

const nonEmpty = (list: string[], name: string): string[] =>
  list.length > 0 ? list : fail(`${name} must list at least one value`);

const scopeProblem = (scope: string): string | undefined =>
  SCOPE_TOKEN.test(scope)
    ? undefined
    : `is not a scope token (no spaces, quotes or backslashes): ${JSON.stringify(scope)}`;

function algorithms(value: unknown): string[] {
  if (value === undefined) return [...ASYMMETRIC_ALGORITHMS];
  return nonEmpty(
    strings(value, 'algorithms', (alg) => {
      if (alg.toLowerCase() === 'none') return 'is "none": unsigned tokens are never accepted';
      if (/^HS\d+$/i.test(alg)) {
        return `is ${JSON.stringify(alg)}: HMAC with a public key set would let anyone holding the public key sign tokens (key confusion)`;
      }
      return ASYMMETRIC_ALGORITHMS.includes(alg)
        ? undefined
        : `is ${JSON.stringify(alg)}, not one of ${ASYMMETRIC_ALGORITHMS.join(', ')}`;
    }),
    'algorithms',
  );
}

function jwks(value: unknown, allowInsecure: boolean): BearerConfig['jwks'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`jwks must be { uri } or { keys }; got ${typeOf(value)}`);
  }
  const { uri, keys } = value as { uri?: unknown; keys?: unknown }; // an object, checked above
  if ((uri === undefined) === (keys === undefined)) return fail('jwks must have exactly one of uri and keys');
  if (uri !== undefined) return { uri: url(uri, 'jwks.uri', allowInsecure) };
  if (!Array.isArray(keys) || keys.length === 0) return fail('jwks.keys must be a non-empty array of JWKs');
  keys.forEach((key: unknown, index) => {
    if (typeof key !== 'object' || key === null || Array.isArray(key)) {
      fail(`jwks.keys[${index}] must be a JWK object; got ${typeOf(key)}`);
    }
    const { kty, d } = key as { kty?: unknown; d?: unknown }; // an object, checked above
    if (kty === 'oct') {
      fail(`jwks.keys[${index}] is a symmetric key (kty "oct"): only public keys verify tokens`);
    }
    if (d !== undefined) fail(`jwks.keys[${index}] is a private key: configure its public half`);
    if (kty !== 'RSA' && kty !== 'EC' && kty !== 'OKP') {
      fail(`jwks.keys[${index}].kty must be "RSA", "EC" or "OKP"; got ${JSON.stringify(kty)}`);
    }
  });
  return { keys: Object.freeze(keys.map((key: JWK) => Object.freeze({ ...key }))) };
}

function introspection(value: unknown, allowInsecure: boolean): BearerConfig['introspection'] {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return fail(`introspection must be { endpoint, clientId, clientSecret }; got ${typeOf(value)}`);
  }
  const { endpoint, clientId, clientSecret } = value as Record<string, unknown>; // an object, checked above
  if (typeof clientId !== 'string' || clientId === '') {
    fail('introspection.clientId must be a non-empty string');
  }
  if (typeof clientSecret !== 'string' || clientSecret === '') {
    fail('introspection.clientSecret must be a non-empty string');
  }
  return Object.freeze({
    endpoint: url(endpoint, 'introspection.endpoint', allowInsecure),
    clientId: clientId as string, // checked just above
    clientSecret: clientSecret as string,
  });
}

function integer(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    return fail(
      `${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(value) ?? typeOf(value)}`,
    );
  }
  return value;
}

/** Checks the options and applies the defaults. */
export function resolveBearerOptions(options: BearerOptions): BearerConfig {
  if (typeof options !== 'object' || options === null) {
    fail(`options must be an object; got ${typeOf(options)}`);
  }
  for (const key of Object.keys(options)) {
    if (!KNOWN.has(key)) fail(`unknown option ${JSON.stringify(key)} (known: ${[...KNOWN].join(', ')})`);
  }
  const allowInsecure = options.allowInsecureUrls ?? false;
  if (typeof allowInsecure !== 'boolean') fail('allowInsecureUrls must be a boolean');
  const resource = url(options.resource, 'resource', allowInsecure);
  if (resource.search !== '') fail('resource must not have a query string (RFC 8707 canonical URI)');
  const authorizationServers = nonEmpty(
    strings(options.authorizationServers, 'authorizationServers'),
    'authorizationServers',
  );
  authorizationServers.forEach((issuer, index) => {
    const parsed = url(issuer, `authorizationServers[${index}]`, allowInsecure);
    if (parsed.search !== '') {
      fail(`authorizationServers[${index}] must not have a query string (RFC 8414 issuer)`);
    }
  });
  const issuers =
    options.issuer === undefined
      ? authorizationServers
      : nonEmpty(strings(options.issuer, 'issuer'), 'issuer');
  if (options.issuer !== undefined && options.jwks === undefined) {
    // The key set is discovered from each accepted issuer's metadata, so each must be a URL we may fetch.
    issuers.forEach((issuer, index) => url(issuer, `issuer[${index}]`, allowInsecure));
  }
  const audiences =
    options.audience === undefined
      ? [options.resource]
      : nonEmpty(strings(options.audience, 'audience'), 'audience');
  const clock = options.clockToleranceSeconds ?? 60;
  if (typeof clock !== 'number' || !Number.isFinite(clock) || clock < 0 || clock > 600) {
    fail(`clockToleranceSeconds must be a number from 0 to 600; got ${JSON.stringify(clock)}`);
  }
  const cache = options.cache ?? {};
  if (typeof cache !== 'object' || cache === null) fail(`cache must be { maxEntries }; got ${typeOf(cache)}`);
  if (
    options.resourceName !== undefined &&
    (typeof options.resourceName !== 'string' || options.resourceName.length > 200)
  ) {
    fail('resourceName must be a string of at most 200 characters');
  }
  if (options.now !== undefined && typeof options.now !== 'function') {
    fail('now must be a function () => milliseconds');
  }
  if (
    options.logger !== undefined &&
    (typeof options.logger !== 'object' || typeof options.logger.warn !== 'function')
  ) {
    fail('logger must be a Logger (debug, info, warn, error)');
  }
  return Object.freeze({
    resource,
    authorizationServers: Object.freeze(authorizationServers),
    issuers: Object.freeze(issuers),
    audiences: Object.freeze(audiences),
    jwks: jwks(options.jwks, allowInsecure),
    algorithms: algorithms(options.algorithms),
    clockToleranceSeconds: clock,
    introspection: introspection(options.introspection, allowInsecure),
    scopesSupported:
      options.scopesSupported === undefined
        ? undefined
        : Object.freeze(strings(options.scopesSupported, 'scopesSupported', scopeProblem)),
    requiredScopes: Object.freeze(strings(options.requiredScopes ?? [], 'requiredScopes', scopeProblem)),
    resourceName: options.resourceName,
    maxEntries: integer(cache.maxEntries, 'cache.maxEntries', 1, 1_000_000, 10_000),
    allowInsecureUrls: allowInsecure,
    now: options.now ?? Date.now,
    logger: options.logger,
  });
}
