// The bearer resource server when tokens are opaque (RFC 7662 introspection) and when the authorization server is
// down: 503 with Retry-After, never 401 and never "allow"; introspection answers shared and cached. Real HTTP on
// loopback for the authorization server and the MCP server (modern era).

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { McpServer } from '../src/index.js';
import { bearer, type Bearer, type BearerOptions } from '../src/policy/bearer/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { capturingLogger, type CapturingLogger } from './support/harness.js';
import {
  sign,
  signingKey,
  startAuthorizationServer,
  type AuthorizationServer,
  type SigningKey,
} from './policy-bearer-support.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {}, _meta: META },
});
const invalidToken = (description: string): string =>
  `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", error="invalid_token", error_description="${description}"`;

let clock = Date.now();
const open: Array<{ auth: Bearer; listening: HttpListening }> = [];

/** An MCP server on loopback protected by a bearer authenticator with these options. */
async function protectedServer(
  options: Omit<BearerOptions, 'resource' | 'now'>,
  log?: CapturingLogger,
): Promise<{ auth: Bearer; url: string }> {
  const auth = bearer({ resource: RESOURCE, now: () => clock, ...options, ...(log && { logger: log }) });
  const server = new McpServer({ name: 'bearer', version: '1.0.0' }, { logger: capturingLogger() });
  server.tool({
    name: 'whoami',
    description: 'Says who is calling',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, ctx) => `${ctx.auth.subject} ${ctx.auth.scopes.join(',')}`,
  });
  const listening = await listenHttp(server, {
    port: 0,
    authenticate: auth.authenticate,
    routes: auth.routes,
    logger: capturingLogger(),
  });
  open.push({ auth, listening });
  return { auth, url: listening.url };
}

const post = (url: string, token: string): Promise<Response> =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/call',
      'mcp-name': 'whoami',
      authorization: `Bearer ${token}`,
    },
    body: CALL,
  });

async function assertUnavailable(response: Response, retryAfter = '5'): Promise<void> {
  assert.equal(response.status, 503);
  assert.equal(response.headers.get('retry-after'), retryAfter);
  assert.equal(response.headers.get('www-authenticate'), null);
  assert.deepEqual(await response.json(), {
    jsonrpc: '2.0',
    error: {
      code: -32600,
      message: 'Service unavailable: access tokens cannot be checked right now; retry later',
    },
  });
}

describe('policy bearer: opaque tokens and an unavailable authorization server', () => {
  let as: AuthorizationServer;
  let key: SigningKey;
  const claims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    active: true,
    iss: as.issuer,
    sub: 'bob',
    aud: [RESOURCE, 'https://other.example.com'],
    scope: 'tools:read',
    exp: Math.floor(clock / 1000) + 3600,
    ...extra,
  });
  const introspected = (): Omit<BearerOptions, 'resource' | 'now'> => ({
    authorizationServers: [as.issuer],
    introspection: {
      endpoint: `${as.issuer}/introspect`,
      clientId: as.clientId,
      clientSecret: as.clientSecret,
    },
  });

  before(async () => {
    as = await startAuthorizationServer();
    key = await signingKey('k1');
    as.published = [key];
  });
  beforeEach(() => {
    clock = Date.now();
    as.mode = 'ok';
  });
  after(async () => {
    for (const { auth, listening } of open) {
      auth.close();
      await listening.close();
    }
    await as.close();
  });

  it('an active opaque token is introspected once for many requests (sequential and parallel)', async () => {
    const { url } = await protectedServer(introspected());
    as.introspection.set('opaque-one', claims());
    as.introspection.set('opaque-two', claims({ sub: 'carol' }));
    const start = as.counts.introspection;
    for (let i = 0; i < 10; i++) {
      const response = await post(url, 'opaque-one');
      assert.equal(response.status, 200);
      assert.match(await response.text(), /bob tools:read/);
    }
    assert.equal(as.counts.introspection - start, 1);
    const parallel = await Promise.all(Array.from({ length: 10 }, () => post(url, 'opaque-two')));
    assert.deepEqual(
      parallel.map((r) => r.status),
      Array(10).fill(200),
    );
    assert.equal(as.counts.introspection - start, 2);
  });

  it('an inactive token → 401 invalid_token, and a repeat of it does not call the endpoint again', async () => {
    const { url } = await protectedServer(introspected());
    const start = as.counts.introspection;
    for (let i = 0; i < 5; i++) {
      const response = await post(url, 'revoked-token');
      assert.equal(response.status, 401);
      assert.equal(response.headers.get('www-authenticate'), invalidToken('the token is not active'));
    }
    assert.equal(as.counts.introspection - start, 1);
  });

  it('B1a: an introspected token for another audience or issuer → 401', async () => {
    const { url } = await protectedServer(introspected());
    as.introspection.set('other-aud', claims({ aud: 'https://other.example.com' }));
    as.introspection.set('other-iss', claims({ iss: 'https://evil.example.com' }));
    as.introspection.set('no-aud', claims({ aud: undefined }));
    const cases: Array<[string, string]> = [
      ['other-aud', 'the token was not issued for this resource (audience)'],
      ['other-iss', 'the token was issued by an issuer this resource does not accept'],
      ['no-aud', 'the token has no \\"aud\\" claim'],
    ];
    for (const [token, description] of cases) {
      const response = await post(url, token);
      assert.equal(response.status, 401, token);
      assert.equal(response.headers.get('www-authenticate'), invalidToken(description));
    }
  });

  it('without introspection an opaque token is invalid_token', async () => {
    const { url } = await protectedServer({ authorizationServers: [as.issuer] });
    const response = await post(url, 'opaque-one');
    assert.equal(response.status, 401);
    assert.equal(
      response.headers.get('www-authenticate'),
      invalidToken('the token is not a JWT, and this server introspects no tokens'),
    );
  });

  it('introspection endpoint failing → 503 with Retry-After (never 401); it is asked again after the pause', async () => {
    const log = capturingLogger();
    const { url } = await protectedServer(introspected(), log);
    as.introspection.set('while-down', claims());
    as.mode = 'down';
    await assertUnavailable(await post(url, 'while-down'));
    const calls = as.counts.introspection;
    await assertUnavailable(await post(url, 'while-down'));
    assert.equal(as.counts.introspection, calls, 'asked again during the pause');
    as.mode = 'ok';
    clock += 5_000;
    assert.equal((await post(url, 'while-down')).status, 200);
    assert.match(log.text(), /warn: bearer: the introspection endpoint answered HTTP 500/);
    assert.ok(!log.text().includes('while-down'));
  });

  it('key set failing (HTTP 500) → 503 with Retry-After, never 401, never allow', async () => {
    const log = capturingLogger();
    const { url } = await protectedServer({ authorizationServers: [as.issuer] }, log);
    const token = await sign(key, {
      iss: as.issuer,
      sub: 'bob',
      aud: RESOURCE,
      exp: Math.floor(clock / 1000) + 600,
    });
    as.mode = 'down';
    await assertUnavailable(await post(url, token));
    clock += 2_000;
    await assertUnavailable(await post(url, token), '3');
    as.mode = 'ok';
    clock += 3_000;
    assert.equal((await post(url, token)).status, 200);
    assert.equal(log.text(), `warn: bearer: the metadata of issuer ${as.issuer} answered HTTP 500 `);
  });

  it('key set unreachable (nothing listens) → 503 with Retry-After', async () => {
    const gone = await startAuthorizationServer();
    const issuer = gone.issuer;
    await gone.close();
    const { url } = await protectedServer({ authorizationServers: [issuer] });
    const token = await sign(key, {
      iss: issuer,
      sub: 'bob',
      aud: RESOURCE,
      exp: Math.floor(clock / 1000) + 600,
    });
    await assertUnavailable(await post(url, token));
  });

  it('issuer metadata naming another issuer (RFC 8414 §3.3) → 503, its keys never used', async () => {
    // The same server under another name: its metadata says 127.0.0.1, the configuration says localhost.
    const alias = as.issuer.replace('127.0.0.1', 'localhost');
    const log = capturingLogger();
    const { url } = await protectedServer({ authorizationServers: [alias] }, log);
    const token = await sign(key, {
      iss: alias,
      sub: 'bob',
      aud: RESOURCE,
      exp: Math.floor(clock / 1000) + 600,
    });
    await assertUnavailable(await post(url, token));
    assert.match(log.text(), /names another issuer than/);
  });

  it('B2: an unknown kid while the key set is down → 503 (the kid may be in the set we cannot read), known kids still pass', async () => {
    const { url } = await protectedServer({ authorizationServers: [as.issuer] });
    const claims = { iss: as.issuer, sub: 'bob', aud: RESOURCE, exp: Math.floor(clock / 1000) + 7200 };
    assert.equal((await post(url, await sign(key, claims))).status, 200);
    as.mode = 'down';
    clock += 31_000;
    const rotated = await signingKey('k-new');
    await assertUnavailable(await post(url, await sign(rotated, claims)));
    assert.equal((await post(url, await sign(key, { ...claims, jti: 'known' }))).status, 200);
  });

  it('keys fetched once stay in use while the key set is down (up to an hour), then 503', async () => {
    const { url } = await protectedServer({ authorizationServers: [as.issuer] });
    const token = (jti: string): Promise<string> =>
      sign(key, { iss: as.issuer, sub: 'bob', aud: RESOURCE, jti, exp: Math.floor(clock / 1000) + 7200 });
    assert.equal((await post(url, await token('a'))).status, 200);
    as.mode = 'down';
    clock += 11 * 60_000; // keys are old: a refresh is tried, fails, and the old keys still verify
    assert.equal((await post(url, await token('b'))).status, 200);
    clock += 50 * 60_000;
    await assertUnavailable(await post(url, await token('c')));
  });
});
