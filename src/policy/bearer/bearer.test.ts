// The authenticator in process, with configured keys (no network): what a Caller holds (and never holds), several
// algorithms and issuers, the challenge for a malformed Authorization header, and verify's outcomes.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { HttpRequestInfo } from '../../transports/http/index.js';
import { bearer } from './index.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';

const request = (authorization?: string): HttpRequestInfo => ({
  method: 'POST',
  path: '/mcp',
  header: (name) => (name.toLowerCase() === 'authorization' ? authorization : undefined),
  query: () => undefined,
  queryNames: () => [],
});

async function setup(alg: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: alg, alg };
  const now = Date.now();
  const sign = (claims: JWTPayload, typ?: string): Promise<string> =>
    new SignJWT({ iss: ISSUER, aud: RESOURCE, sub: 'alice', exp: Math.floor(now / 1000) + 60, ...claims })
      .setProtectedHeader({ alg, kid: alg, ...(typ !== undefined && { typ }) })
      .sign(privateKey);
  return { jwk, sign, now };
}

describe('policy bearer: the authenticator with configured keys', () => {
  for (const alg of ['RS256', 'PS256', 'ES256', 'EdDSA']) {
    it(`verifies ${alg} tokens against configured keys`, async () => {
      const { jwk, sign, now } = await setup(alg);
      const auth = bearer({
        resource: RESOURCE,
        authorizationServers: [ISSUER],
        jwks: { keys: [jwk] },
        now: () => now,
      });
      const outcome = await auth.verify(await sign({}));
      assert.equal(outcome.ok && outcome.caller.subject, 'alice');
      auth.close();
    });
  }

  it('a Caller: scopes from scp, client from azp, a frozen subset of claims that leaves out anything else', async () => {
    const { jwk, sign, now } = await setup('ES256');
    const auth = bearer({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      jwks: { keys: [jwk] },
      now: () => now,
    });
    const token = await sign({
      scp: ['files:read', 'files:read', 'tools:call'],
      azp: 'cli',
      roles: ['admin'],
      act: { sub: 'upstream', token: 'nested-secret' },
      custom: 'x',
    });
    const outcome = await auth.verify(token);
    assert.ok(outcome.ok);
    const { caller } = outcome;
    assert.deepEqual(caller.scopes, ['files:read', 'tools:call']);
    assert.equal(caller.clientId, 'cli');
    assert.equal(caller.via, 'bearer');
    assert.deepEqual(Object.keys(caller.claims ?? {}).sort(), ['aud', 'azp', 'exp', 'iss', 'roles', 'sub']);
    assert.ok(Object.isFrozen(caller.claims?.roles));
    assert.ok(!JSON.stringify(caller).includes(token.split('.')[2] ?? '-'));
    assert.ok(!JSON.stringify(caller).includes('nested-secret'));
  });

  it('accepts typ at+jwt (RFC 9068), its media type, plain JWT, or none', async () => {
    const { jwk, sign, now } = await setup('ES256');
    const auth = bearer({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      jwks: { keys: [jwk] },
      now: () => now,
    });
    for (const typ of ['at+jwt', 'application/at+JWT', 'JWT', undefined]) {
      const outcome = await auth.verify(await sign({ jti: String(typ) }, typ));
      assert.ok(outcome.ok, String(typ));
    }
  });

  it('concurrent first checks of one token share one check and one Caller object', async () => {
    const { jwk, sign, now } = await setup('ES256');
    const auth = bearer({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      jwks: { keys: [jwk] },
      now: () => now,
    });
    const token = await sign({ jti: 'concurrent' });
    const outcomes = await Promise.all(Array.from({ length: 20 }, () => auth.verify(token)));
    const callers = new Set(outcomes.map((outcome) => (outcome.ok ? outcome.caller : undefined)));
    assert.equal(callers.size, 1);
    assert.ok(!callers.has(undefined));
    assert.deepEqual(await auth.verify('a'.repeat(16 * 1024 + 1)), {
      ok: false,
      reason: 'invalid',
      message: 'the token is over 16384 characters',
    });
  });

  it('accepts several issuers and audiences when configured', async () => {
    const { jwk, sign, now } = await setup('RS256');
    const auth = bearer({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      issuer: [ISSUER, 'https://auth2.example.com'],
      audience: [RESOURCE, 'api://tools'],
      jwks: { keys: [jwk] },
      now: () => now,
    });
    const outcome = await auth.verify(await sign({ iss: 'https://auth2.example.com', aud: ['api://tools'] }));
    assert.ok(outcome.ok);
    assert.deepEqual(await auth.verify(await sign({ aud: 'api://other' })), {
      ok: false,
      reason: 'invalid',
      message: 'the token was not issued for this resource (audience)',
    });
  });

  it('a token without sub, or with a scope that is not a string, is invalid', async () => {
    const { jwk, sign, now } = await setup('RS256');
    const auth = bearer({
      resource: RESOURCE,
      authorizationServers: [ISSUER],
      jwks: { keys: [jwk] },
      now: () => now,
    });
    assert.deepEqual(await auth.verify(await sign({ sub: undefined as unknown as string })), {
      ok: false,
      reason: 'invalid',
      message: 'the token has no "sub" claim',
    });
    assert.deepEqual(await auth.verify(await sign({ scope: 5 })), {
      ok: false,
      reason: 'invalid',
      message: 'the token\'s "scope" is not a space-separated string (nor "scp" a list of strings)',
    });
    assert.deepEqual(await auth.verify('not a token at all'), {
      ok: false,
      reason: 'invalid',
      message: 'the token is not a JWT, and this server introspects no tokens',
    });
  });

  it('B3: a malformed Authorization header is 401 invalid_request, the header quoted nowhere', async () => {
    const auth = bearer({ resource: RESOURCE, authorizationServers: [ISSUER] });
    const challenge = await auth.authenticate(request('Basic YWxpY2U6c2VjcmV0'));
    assert.deepEqual(challenge, {
      status: 401,
      headers: {
        'www-authenticate':
          'Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_request", error_description="the Authorization header must be \\"Bearer <token>\\" (one token, RFC 6750)"',
      },
      message:
        'Unauthorized: the credentials were sent in a way this server refuses (see the WWW-Authenticate header)',
    });
  });

  it('a resource at the root serves one metadata path, and its URL has no trailing path', () => {
    const auth = bearer({ resource: 'https://mcp.example.com', authorizationServers: [ISSUER] });
    assert.deepEqual(Object.keys(auth.routes), ['/.well-known/oauth-protected-resource']);
    assert.equal(auth.resourceMetadataUrl, 'https://mcp.example.com/.well-known/oauth-protected-resource');
  });
});
