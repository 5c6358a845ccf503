// The OAuth client's pure parts, in process: WWW-Authenticate parsing, the well-known URL orders of RFC 9728 and
// RFC 8414 (with the OpenID fallbacks), the PRM resource rule, scope selection (offline_access rules), and the
// authorization-response checks of RFC 9207 (iss compared byte for byte, before anything else is acted on).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseChallenge } from '../src/client/oauth/challenge.js';
import { resourceMetadataUrls, serverMetadataUrls } from '../src/client/oauth/discovery.js';
import { chooseScopes, type Discovery } from '../src/client/oauth/flow.js';
import { codeFromRedirect } from '../src/client/oauth/authorization-response.js';
import { canonicalResource, resourceCovers } from '../src/client/oauth/resource.js';
import { parseStoredAuthorization } from '../src/client/oauth/store.js';

const hrefs = (urls: URL[]): string[] => urls.map((url) => url.href);

describe('WWW-Authenticate', () => {
  it('reads the Bearer challenge among several, with quoted and bare values', () => {
    assert.deepEqual(
      parseChallenge(
        'Basic realm="x", Bearer error="insufficient_scope", scope="a b", resource_metadata="https://s.example/.well-known/oauth-protected-resource/mcp", error_description="needs \\"b\\""',
      ),
      {
        scheme: 'bearer',
        error: 'insufficient_scope',
        scope: 'a b',
        resourceMetadata: 'https://s.example/.well-known/oauth-protected-resource/mcp',
        errorDescription: 'needs "b"',
      },
    );
    assert.deepEqual(parseChallenge('DPoP error=use_dpop_nonce, algs="ES256"'), {
      scheme: 'dpop',
      error: 'use_dpop_nonce',
    });
    assert.deepEqual(parseChallenge('Negotiate abc==, Bearer scope=x'), { scheme: 'bearer', scope: 'x' });
    assert.equal(parseChallenge(null), undefined);
    assert.equal(
      parseChallenge(`Bearer scope="${'a'.repeat(9000)}"`),
      undefined,
      'oversized headers are ignored',
    );
  });
});

describe('discovery order', () => {
  it('PRM: path-inserted first, then the root; only the root for a server at the root', () => {
    assert.deepEqual(hrefs(resourceMetadataUrls(new URL('https://s.example/public/mcp/'))), [
      'https://s.example/.well-known/oauth-protected-resource/public/mcp',
      'https://s.example/.well-known/oauth-protected-resource',
    ]);
    assert.deepEqual(hrefs(resourceMetadataUrls(new URL('https://s.example'))), [
      'https://s.example/.well-known/oauth-protected-resource',
    ]);
  });

  it('AS metadata: RFC 8414 path insertion, OpenID path insertion, OpenID path appending', () => {
    assert.deepEqual(hrefs(serverMetadataUrls('https://a.example/tenant1')), [
      'https://a.example/.well-known/oauth-authorization-server/tenant1',
      'https://a.example/.well-known/openid-configuration/tenant1',
      'https://a.example/tenant1/.well-known/openid-configuration',
    ]);
    assert.deepEqual(hrefs(serverMetadataUrls('https://a.example')), [
      'https://a.example/.well-known/oauth-authorization-server',
      'https://a.example/.well-known/openid-configuration',
    ]);
  });

  it('a PRM resource covers the server when it is the server or a parent path on the same origin', () => {
    assert.equal(resourceCovers('https://s.example/mcp', 'https://s.example/mcp'), true);
    assert.equal(resourceCovers('https://s.example', 'https://s.example/mcp'), true);
    assert.equal(resourceCovers('https://S.EXAMPLE/mcp/', 'https://s.example/mcp'), true);
    assert.equal(resourceCovers('https://s.example/mc', 'https://s.example/mcp'), false, 'segment boundary');
    assert.equal(resourceCovers('https://s.example/mcp/sub', 'https://s.example/mcp'), false);
    assert.equal(resourceCovers('http://s.example/mcp', 'https://s.example/mcp'), false);
    assert.equal(resourceCovers('https://s.example:8443/mcp', 'https://s.example/mcp'), false);
    assert.equal(resourceCovers('not a url', 'https://s.example/mcp'), false);
    assert.equal(canonicalResource('HTTPS://S.Example/'), 'https://s.example');
    assert.equal(canonicalResource('https://s.example/mcp?x=1#f'), 'https://s.example/mcp');
  });
});

describe('scope selection', () => {
  const discovery = (prmScopes: string[] | undefined, asScopes: string[] | undefined): Discovery => ({
    resource: 'https://s.example/mcp',
    resourceMetadata: {
      resource: 'https://s.example/mcp',
      authorizationServers: ['https://a.example'],
      ...(prmScopes && { scopesSupported: prmScopes }),
    },
    metadata: {
      issuer: 'https://a.example',
      tokenEndpoint: 'https://a.example/token',
      clientIdMetadataDocumentSupported: false,
      issParameterSupported: false,
      ...(asScopes && { scopesSupported: asScopes }),
    },
  });

  it('challenge scope, else scopes_supported, else none; previous scopes kept (step-up union)', () => {
    const d = discovery(['r', 'w'], undefined);
    assert.deepEqual(chooseScopes({ scheme: 'bearer', scope: 'w' }, d, [], [], true), ['w']);
    assert.deepEqual(chooseScopes(undefined, d, [], [], true), ['r', 'w']);
    assert.deepEqual(chooseScopes(undefined, discovery(undefined, undefined), [], [], true), []);
    assert.deepEqual(chooseScopes({ scheme: 'bearer', scope: 'w' }, d, [], ['r'], true), ['r', 'w']);
  });

  it('offline_access only when the AS lists it, and never when it does not', () => {
    assert.deepEqual(chooseScopes(undefined, discovery(['r'], ['r', 'offline_access']), [], [], true), [
      'r',
      'offline_access',
    ]);
    assert.deepEqual(chooseScopes(undefined, discovery(['r'], ['r', 'offline_access']), [], [], false), [
      'r',
    ]);
    assert.deepEqual(chooseScopes(undefined, discovery(['r', 'offline_access'], ['r']), [], [], true), ['r']);
  });
});

describe('authorization response (RFC 9207)', () => {
  const expected = {
    state: 'st',
    issuer: 'https://a.example',
    issParameterSupported: true,
    redirectUri: 'http://127.0.0.1:5000/callback',
  };
  const at = (query: string): string => `http://127.0.0.1:5000/callback?${query}`;
  const refused = (query: string, message: string, options = expected): void =>
    assert.throws(() => codeFromRedirect(at(query), options), {
      name: 'OAuthError',
      message: `the authorization response ${message}`,
    });

  it('takes the code when state and iss match exactly', () => {
    assert.equal(codeFromRedirect(at('code=c1&state=st&iss=https%3A%2F%2Fa.example'), expected), 'c1');
    assert.equal(
      codeFromRedirect(at('code=c1&state=st'), { ...expected, issParameterSupported: false }),
      'c1',
      'no iss, none advertised: proceed',
    );
  });

  it('refuses a wrong, a normalised-equal or a missing-but-promised iss, before reading the error', () => {
    refused(
      'code=c1&state=st&iss=https%3A%2F%2Fevil.example',
      'names issuer "https://evil.example", not "https://a.example" (a mix-up attack?): refused',
    );
    refused(
      'code=c1&state=st&iss=https%3A%2F%2Fa.example%2F',
      'names issuer "https://a.example/", not "https://a.example" (a mix-up attack?): refused',
    );
    refused(
      'code=c1&state=st',
      'has no iss although the authorization server says it always sends one: refused',
    );
    refused(
      'error=access_denied&state=st&iss=https%3A%2F%2Fevil.example',
      'names issuer "https://evil.example", not "https://a.example" (a mix-up attack?): refused',
      { ...expected, issParameterSupported: false },
    );
  });

  it('refuses a wrong state, a repeated parameter, another redirect URI; reports an error the AS sent', () => {
    refused(
      'code=c1&state=other&iss=https%3A%2F%2Fa.example',
      'does not carry the state of the request: refused',
    );
    refused('code=c1&code=c2&state=st&iss=https%3A%2F%2Fa.example', 'repeats a parameter');
    assert.throws(() => codeFromRedirect('http://127.0.0.1:5001/callback?code=c&state=st', expected), {
      message: 'the authorization response did not come to the redirect URI',
    });
    assert.throws(
      () =>
        codeFromRedirect(
          at('error=access_denied&error_description=no%0Away&state=st&iss=https%3A%2F%2Fa.example'),
          expected,
        ),
      {
        name: 'OAuthError',
        code: 'authorization_denied',
        message: 'the authorization server answered "access_denied" ("no way")',
      },
    );
  });
});

describe('stored authorization', () => {
  it('reads back only sound records', () => {
    const sound = {
      version: 1,
      server: 'https://s.example/mcp',
      resource: 'https://s.example/mcp',
      issuer: 'https://a.example',
      tokenEndpoint: 'https://a.example/token',
      client: { clientId: 'c', authMethod: 'none', origin: 'dynamic' },
      scopes: ['r'],
      tokens: { accessToken: 'at', tokenType: 'Bearer', expiresAt: 1 },
    };
    assert.deepEqual(parseStoredAuthorization(sound), sound);
    assert.equal(parseStoredAuthorization({ ...sound, version: 2 }), undefined);
    assert.equal(
      parseStoredAuthorization({ ...sound, client: { ...sound.client, authMethod: 'magic' } }),
      undefined,
    );
    assert.equal(parseStoredAuthorization({ ...sound, tokens: { accessToken: 7 } }), undefined);
    assert.equal(parseStoredAuthorization('[]'), undefined);
  });
});

describe('DPoP keys', () => {
  it('a key restored from its stored private JWK signs proofs with the same public key (a stored DPoP token stays usable)', async () => {
    const { DpopKey } = await import('../src/client/oauth/dpop.js');
    const { decodeProtectedHeader, decodeJwt, calculateJwkThumbprint } = await import('jose');
    const original = new DpopKey();
    const restored = new DpopKey(await original.exportPrivate());
    const a = await original.proof('POST', 'https://s.example/mcp?x=1#f', 'n1', 'token');
    const b = await restored.proof('GET', 'https://s.example/mcp');
    const jwkA = decodeProtectedHeader(a).jwk;
    const jwkB = decodeProtectedHeader(b).jwk;
    assert.ok(jwkA && jwkB);
    assert.equal(await calculateJwkThumbprint(jwkA), await calculateJwkThumbprint(jwkB));
    assert.equal('d' in jwkA, false, 'the proof carries the public key only');
    const claims = decodeJwt(a);
    assert.equal(claims.htu, 'https://s.example/mcp');
    assert.equal(claims.htm, 'POST');
    assert.equal(claims.nonce, 'n1');
    assert.equal(typeof claims.ath, 'string');
    assert.notEqual(decodeJwt(b).jti, claims.jti);
  });
});

describe('token file store', () => {
  const record = {
    version: 1 as const,
    server: 'https://s.example/mcp',
    resource: 'https://s.example/mcp',
    issuer: 'https://a.example',
    tokenEndpoint: 'https://a.example/token',
    client: { clientId: 'c', authMethod: 'none' as const, origin: 'dynamic' as const },
    scopes: [],
    tokens: { accessToken: 'secret-at', tokenType: 'Bearer' },
  };

  it('writes 0600 in a 0700 directory, and a planted symlink is neither read nor written through', async () => {
    const { mkdtempSync, symlinkSync, writeFileSync, readFileSync, lstatSync, statSync, rmSync } =
      await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const { FileOAuthStore } = await import('../src/client/oauth/file-store.js');
    const root = mkdtempSync(join(tmpdir(), 'toolwire-store-'));
    try {
      const victim = join(root, 'victim.json');
      writeFileSync(victim, JSON.stringify(record));
      const path = join(root, 'tokens', 'server.json');
      const store = new FileOAuthStore(path);
      await store.save(record); // creates the directory
      assert.equal(statSync(join(root, 'tokens')).mode & 0o777, 0o700);
      assert.equal(statSync(path).mode & 0o777, 0o600);
      assert.deepEqual(await store.load(), record);
      rmSync(path);
      symlinkSync(victim, path);
      assert.equal(await store.load(), undefined, 'a symlink is not followed');
      await store.save({ ...record, scopes: ['changed'] });
      assert.equal(lstatSync(path).isSymbolicLink(), false, 'the link is replaced, not written through');
      assert.equal(JSON.parse(readFileSync(victim, 'utf8')).scopes.length, 0);
      await store.clear();
      assert.equal(await store.load(), undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
