// The bearer options are checked at construction: each mistake is a DefinitionError that names the option.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bearer, type BearerOptions } from './index.js';
import { ASYMMETRIC_ALGORITHMS, resolveBearerOptions } from './options.js';

const BASE: BearerOptions = {
  resource: 'https://mcp.example.com/mcp',
  authorizationServers: ['https://auth.example.com'],
};

const refuses = (options: Record<string, unknown>, message: string): void =>
  assert.throws(() => bearer({ ...BASE, ...options } as BearerOptions), { name: 'DefinitionError', message });

describe('policy bearer: options', () => {
  it('applies the defaults: issuers from authorizationServers, audience the resource, asymmetric algorithms', () => {
    const config = resolveBearerOptions(BASE);
    assert.deepEqual(config.issuers, ['https://auth.example.com']);
    assert.deepEqual(config.audiences, ['https://mcp.example.com/mcp']);
    assert.deepEqual(config.algorithms, ASYMMETRIC_ALGORITHMS);
    assert.equal(config.clockToleranceSeconds, 60);
    assert.equal(config.maxEntries, 10_000);
    assert.deepEqual(config.requiredScopes, []);
    assert.equal(config.scopesSupported, undefined);
  });

  it('B2: refuses "none" and HMAC algorithms, and unknown ones', () => {
    refuses({ algorithms: ['none'] }, 'bearer: algorithms[0] is "none": unsigned tokens are never accepted');
    refuses(
      { algorithms: ['RS256', 'HS256'] },
      'bearer: algorithms[1] is "HS256": HMAC with a public key set would let anyone holding the public key sign tokens (key confusion)',
    );
    refuses(
      { algorithms: ['XS1'] },
      `bearer: algorithms[0] is "XS1", not one of ${ASYMMETRIC_ALGORITHMS.join(', ')}`,
    );
    refuses({ algorithms: [] }, 'bearer: algorithms must list at least one value');
  });

  it('B2: refuses symmetric and private keys in a configured key set', () => {
    refuses(
      { jwks: { keys: [{ kty: 'oct', k: 'c2VjcmV0' }] } },
      'bearer: jwks.keys[0] is a symmetric key (kty "oct"): only public keys verify tokens',
    );
    refuses(
      { jwks: { keys: [{ kty: 'EC', crv: 'P-256', x: 'a', y: 'b', d: 'c' }] } },
      'bearer: jwks.keys[0] is a private key: configure its public half',
    );
    refuses({ jwks: { keys: [] } }, 'bearer: jwks.keys must be a non-empty array of JWKs');
    refuses(
      { jwks: { uri: 'https://a.example/jwks', keys: [] } },
      'bearer: jwks must have exactly one of uri and keys',
    );
  });

  it('refuses insecure URLs off loopback unless allowed, and allows loopback http', () => {
    refuses(
      { jwks: { uri: 'http://auth.example.com/jwks' } },
      'bearer: jwks.uri must be https (http only on loopback, or with allowInsecureUrls: true); got "http://auth.example.com/jwks"',
    );
    refuses(
      { authorizationServers: ['ftp://auth.example.com'] },
      'bearer: authorizationServers[0] must be an https URL; got "ftp://auth.example.com"',
    );
    refuses(
      { introspection: { endpoint: 'http://10.0.0.1/introspect', clientId: 'a', clientSecret: 'b' } },
      'bearer: introspection.endpoint must be https (http only on loopback, or with allowInsecureUrls: true); got "http://10.0.0.1/introspect"',
    );
    refuses(
      { jwks: { uri: 'https://user:pw@a.example/jwks' } },
      'bearer: jwks.uri must not carry credentials; got "https://user:pw@a.example/jwks"',
    );
    assert.doesNotThrow(() => bearer({ ...BASE, jwks: { uri: 'http://127.0.0.1:8080/jwks' } }).close());
    assert.doesNotThrow(() =>
      bearer({ ...BASE, jwks: { uri: 'http://auth.internal/jwks' }, allowInsecureUrls: true }).close(),
    );
  });

  it('refuses a resource that is not a canonical URL', () => {
    refuses({ resource: 'mcp' }, 'bearer: resource must be an absolute URL; got "mcp"');
    refuses(
      { resource: 'https://mcp.example.com/mcp?x=1' },
      'bearer: resource must not have a query string (RFC 8707 canonical URI)',
    );
    refuses(
      { resource: 'https://mcp.example.com/mcp#f' },
      'bearer: resource must not have a fragment; got "https://mcp.example.com/mcp#f"',
    );
    refuses({ resource: undefined }, 'bearer: resource must be an absolute URL string; got undefined');
  });

  it('names a misspelt option, and every other bad value', () => {
    refuses(
      { audiance: 'x' },
      'bearer: unknown option "audiance" (known: resource, authorizationServers, issuer, audience, jwks, algorithms, clockToleranceSeconds, introspection, scopesSupported, requiredScopes, resourceName, cache, allowInsecureUrls, now, logger)',
    );
    refuses({ authorizationServers: [] }, 'bearer: authorizationServers must list at least one value');
    refuses({ audience: [''] }, 'bearer: audience[0] must be a non-empty string; got an empty one');
    refuses(
      { clockToleranceSeconds: -1 },
      'bearer: clockToleranceSeconds must be a number from 0 to 600; got -1',
    );
    refuses(
      { cache: { maxEntries: 0 } },
      'bearer: cache.maxEntries must be an integer from 1 to 1000000; got 0',
    );
    refuses(
      { requiredScopes: ['files read'] },
      'bearer: requiredScopes[0] is not a scope token (no spaces, quotes or backslashes): "files read"',
    );
    refuses(
      { introspection: { endpoint: 'https://a.example/i', clientId: 'a' } },
      'bearer: introspection.clientSecret must be a non-empty string',
    );
    refuses({ now: 5 }, 'bearer: now must be a function () => milliseconds');
  });
});
