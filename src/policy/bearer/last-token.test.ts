// The bearer piece remembers the token each connection presented last (so a keep-alive client's next request skips
// the cache key's SHA-256). What it remembers must never answer for another token, outlive the token (B2: expired
// tokens get 401), or survive close().

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import type { Caller } from '../../protocol/index.js';
import type { HttpChallenge, HttpRequestInfo } from '../../transports/http/index.js';
import { bearer, type Bearer } from './index.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const ISSUER = 'https://auth.example.com';

const request = (authorization: string, connection: object): HttpRequestInfo => ({
  method: 'POST',
  path: '/mcp',
  connection,
  header: (name) => (name.toLowerCase() === 'authorization' ? authorization : undefined),
  query: () => undefined,
  queryNames: () => [],
});

async function setup() {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k', alg: 'ES256' };
  const clock = { now: Date.UTC(2026, 10, 27) };
  const sign = (claims: JWTPayload): Promise<string> =>
    new SignJWT({ iss: ISSUER, aud: RESOURCE, exp: Math.floor(clock.now / 1000) + 60, ...claims })
      .setProtectedHeader({ alg: 'ES256', kid: 'k' })
      .sign(privateKey);
  const auth = bearer({
    resource: RESOURCE,
    authorizationServers: [ISSUER],
    jwks: { keys: [jwk] },
    now: () => clock.now,
  });
  /** One request through the authenticator, as the HTTP core makes it. */
  const present = async (auth: Bearer, token: string, connection: object): Promise<Caller | HttpChallenge> =>
    await auth.authenticate(request(`Bearer ${token}`, connection));
  return { auth, sign, clock, present };
}

const subjectOf = (answer: Caller | HttpChallenge): string | number =>
  'subject' in answer ? answer.subject : answer.status;

describe('policy bearer: the token a connection presented last', () => {
  it('answers the same Caller object for the same token on one connection, checked or remembered', async () => {
    const { auth, sign, present } = await setup();
    const token = await sign({ sub: 'alice' });
    const connection = {};
    const first = await present(auth, token, connection); // verified, cached
    const second = await present(auth, token, connection); // from the cache, remembered for this connection
    const third = await present(auth, token, connection); // remembered
    assert.equal(subjectOf(first), 'alice');
    assert.equal(second, first);
    assert.equal(third, first);
    auth.close();
  });

  it('never answers for another token on the same connection: a forged one gets 401, another user is themselves', async () => {
    const { auth, sign, present } = await setup();
    const alice = await sign({ sub: 'alice' });
    const bob = await sign({ sub: 'bob' });
    const connection = {};
    await present(auth, alice, connection);
    await present(auth, alice, connection);
    const forged = `${alice.slice(0, -4)}AAAA`; // same length, same prefix, bad signature
    assert.equal(subjectOf(await present(auth, forged, connection)), 401);
    assert.equal(subjectOf(await present(auth, bob, connection)), 'bob');
    // Marked shared by then: alice's token is still answered (from the cache), never from the connection.
    assert.equal(subjectOf(await present(auth, alice, connection)), 'alice');
    assert.equal(subjectOf(await present(auth, bob, connection)), 'bob');
    auth.close();
  });

  it('B2 does not outlive the token: once it expires the same connection gets 401', async () => {
    const { auth, sign, clock, present } = await setup();
    const token = await sign({ sub: 'alice' });
    const connection = {};
    const first = await present(auth, token, connection);
    assert.equal(await present(auth, token, connection), first); // remembered now
    // Past exp, within the 60 s clock tolerance: checked again (a new Caller), not answered from memory.
    clock.now += 61_000;
    const late = await present(auth, token, connection);
    assert.equal(subjectOf(late), 'alice');
    assert.notEqual(late, first);
    clock.now += 60_000; // past the tolerance too
    assert.equal(subjectOf(await present(auth, token, connection)), 401);
    auth.close();
  });

  it('is forgotten on close: a closed authenticator checks the token again', async () => {
    const { auth, sign, present } = await setup();
    const token = await sign({ sub: 'alice' });
    const connection = {};
    const before = await present(auth, token, connection);
    await present(auth, token, connection);
    auth.close();
    // close() aborted key fetches and cleared the caches: with configured keys the token verifies again, as a new
    // Caller object (not the remembered one).
    const after = await present(auth, token, connection);
    assert.equal(subjectOf(after), 'alice');
    assert.notEqual(after, before);
  });
});
