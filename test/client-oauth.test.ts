// The OAuth client (src/client/oauth) against a real authorization server and a real protected toolwire server,
// both on 127.0.0.1 (node:http, port 0): login with PKCE and the resource indicator (checked by the test AS),
// silent refresh, step-up to the union of scopes with its limit, logout with revocation, and the discovery edge
// cases that must abort (resource mismatch, no metadata, no PKCE, a metadata issuer that is not the AS).

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import {
  MemoryOAuthStore,
  McpClient,
  OAuthClient,
  OAuthError,
  startLoopbackRedirect,
  type LoopbackRedirect,
  type OAuthClientOptions,
} from '../src/client/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import {
  startTestAuthServer,
  type TestAuthServer,
  type TestAuthServerOptions,
} from './support/oauth-server.js';
import {
  startProtectedServer,
  type ProtectedServer,
  type ProtectedServerOptions,
} from './support/protected-server.js';

const CLIENT_INFO = { name: 'oauth-test', version: '1.0.0' };

interface Setup {
  as: TestAuthServer;
  server: ProtectedServer;
  loopback: LoopbackRedirect;
  store: MemoryOAuthStore;
  oauth: OAuthClient;
  /** How far the client's clock is moved forward. */
  skew: { ms: number };
}

const open: Setup[] = [];

/** The "browser": GETs the authorization URL and follows the AS's redirect to the loopback receiver. */
async function browse(url: URL): Promise<void> {
  const response = await fetch(url, { redirect: 'follow' });
  await response.body?.cancel();
}

async function setup(
  asOptions: Partial<TestAuthServerOptions> = {},
  serverOptions: ProtectedServerOptions = {},
  clientOptions: Partial<OAuthClientOptions> = {},
  browser = true,
): Promise<Setup> {
  let serverUrl = '';
  const as = await startTestAuthServer({ resource: () => serverUrl, ...asOptions });
  const server = await startProtectedServer(as, serverOptions);
  serverUrl = server.url;
  const loopback = await startLoopbackRedirect();
  const store = new MemoryOAuthStore();
  const skew = { ms: 0 };
  const oauth = new OAuthClient({
    serverUrl,
    redirectUri: loopback.redirectUri,
    store,
    now: () => Date.now() + skew.ms,
    ...(browser && {
      authorize: async ({ url, state, signal }) => {
        const redirected = loopback.waitFor(state, signal);
        await browse(url);
        return redirected;
      },
    }),
    ...clientOptions,
  });
  const made = { as, server, loopback, store, oauth, skew };
  open.push(made);
  return made;
}

async function connected(s: Setup): Promise<McpClient> {
  const client = new McpClient(CLIENT_INFO, { approve: 'always', timeoutMs: 30_000 });
  await client.connect(new HttpClientTransport(s.server.url, { fetch: s.oauth.fetch }));
  return client;
}

const textOf = (outcome: { content: unknown[] }): string =>
  (outcome.content[0] as { type: string; text: string }).text;

afterEach(async () => {
  for (const s of open.splice(0)) {
    await s.loopback.close();
    await s.server.close();
    await s.as.close();
  }
});

describe('OAuth client: login, refresh, step-up, logout', () => {
  it('logs in on the first 401: PKCE S256 and the resource indicator on both legs, then the call carries the token', async () => {
    const s = await setup();
    const client = await connected(s);
    try {
      const outcome = await client.callTool('read', {});
      assert.equal(textOf(outcome), 'read by user with files:read');
    } finally {
      await client.close();
    }
    const [authorization] = s.as.seen.authorizations;
    assert.ok(authorization);
    assert.equal(authorization.get('code_challenge_method'), 'S256');
    assert.equal(authorization.get('resource'), s.server.url);
    assert.equal(authorization.get('scope'), 'files:read'); // the challenge's scope wins over scopes_supported
    assert.equal(authorization.get('redirect_uri'), s.loopback.redirectUri);
    const [exchange] = s.as.seen.tokenRequests;
    assert.equal(exchange?.get('grant_type'), 'authorization_code');
    assert.equal(exchange?.get('resource'), s.server.url);
    assert.match(exchange?.get('code_verifier') ?? '', /^[A-Za-z0-9_-]{43,128}$/);
    assert.equal(s.as.seen.registrations[0]?.application_type, 'native');
    assert.ok(s.server.authorizedRequests() > 0);
  });

  it('refreshes an expiring token silently before sending, with the same resource', async () => {
    const s = await setup({ tokenLifetimeS: 120, refreshTokens: true });
    const client = await connected(s);
    try {
      await client.callTool('read', {});
      assert.equal(s.as.seen.authorizations.length, 1);
      s.skew.ms = 110_000; // within the client's margin of the expiry
      s.as.advance(110_000);
      await client.callTool('read', {});
    } finally {
      await client.close();
    }
    const refreshes = s.as.seen.tokenRequests.filter((form) => form.get('grant_type') === 'refresh_token');
    assert.equal(refreshes.length, 1);
    assert.equal(refreshes[0]?.get('resource'), s.server.url);
    assert.equal(s.as.seen.authorizations.length, 1, 'no second browser round');
    assert.equal((await s.store.load())?.tokens?.refreshToken?.startsWith('rt-'), true);
  });

  it('refreshes on a 401 for a token the server no longer takes (the client thought it was still valid)', async () => {
    const s = await setup({ tokenLifetimeS: 120, refreshTokens: true });
    const client = await connected(s);
    try {
      await client.callTool('read', {});
      s.as.advance(200_000); // expired at the AS; the client's clock says otherwise
      assert.equal(textOf(await client.callTool('read', {})), 'read by user with files:read');
    } finally {
      await client.close();
    }
    assert.equal(s.as.seen.tokenRequests.filter((f) => f.get('grant_type') === 'refresh_token').length, 1);
    assert.equal(s.as.seen.authorizations.length, 1);
  });

  it('steps up on 403 insufficient_scope with the union of the scopes asked and the ones challenged', async () => {
    const s = await setup();
    const client = await connected(s);
    try {
      assert.equal(textOf(await client.callTool('read', {})), 'read by user with files:read');
      assert.equal(textOf(await client.callTool('write', {})), 'written');
    } finally {
      await client.close();
    }
    assert.deepEqual(
      s.as.seen.authorizations.map((a) => a.get('scope')),
      ['files:read', 'files:read files:write'],
    );
  });

  it('gives up a step-up after maxStepUps authorizations and returns the 403 (an AS that never grants it)', async () => {
    const s = await setup({ grant: (asked) => asked.filter((scope) => scope !== 'files:write') });
    const client = await connected(s);
    try {
      await client.callTool('read', {});
      await assert.rejects(client.callTool('write', {}), {
        name: 'McpError',
        code: -31003,
        httpStatus: 403,
        message: 'server error -31003: this tool needs the files:write scope',
      });
    } finally {
      await client.close();
    }
    assert.equal(s.as.seen.authorizations.length, 3, 'the first login and two step-ups, then no more');
  });

  it('concurrent requests that all meet a 401 share one authorization', async () => {
    const s = await setup();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const post = (): Promise<Response> =>
      s.oauth.fetch(s.server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: ping,
      });
    const responses = await Promise.all([post(), post(), post()]);
    for (const response of responses) {
      assert.notEqual(response.status, 401);
      await response.body?.cancel();
    }
    assert.equal(s.as.seen.authorizations.length, 1);
    assert.equal(s.as.seen.registrations.length, 1);
  });

  it('logout revokes the refresh and access tokens at the AS and forgets them', async () => {
    const s = await setup({ refreshTokens: true, revocation: true, tokenLifetimeS: 600 });
    const client = await connected(s);
    await client.callTool('read', {});
    await client.close();
    const stored = await s.store.load();
    const access = stored?.tokens?.accessToken ?? '';
    assert.ok(s.as.verify(access));
    assert.deepEqual(await s.oauth.logout(), { hadTokens: true, revoked: true });
    assert.deepEqual(
      s.as.seen.revocations.map((form) => form.get('token_type_hint')),
      ['refresh_token', 'access_token'],
    );
    assert.equal(s.as.verify(access), undefined);
    assert.equal(await s.store.load(), undefined);
    assert.equal(await s.oauth.status(), undefined);
  });

  it('without a browser step, a 401 comes back unchanged; with a loginHint it says to log in', async () => {
    const s = await setup({}, {}, {}, false);
    const plain = await s.oauth.fetch(s.server.url, { method: 'POST', body: '{}' });
    assert.equal(plain.status, 401);
    await plain.body?.cancel();
    const hinted = new OAuthClient({ serverUrl: s.server.url, loginHint: 'run "toolwire login X"' });
    await assert.rejects(hinted.fetch(s.server.url, { method: 'POST', body: '{}' }), {
      name: 'OAuthError',
      code: 'authorization_required',
      message: `${s.server.url} requires OAuth authorization: run "toolwire login X"`,
    });
    assert.equal(s.as.seen.authorizations.length, 0);
  });

  it('a caller-set Authorization header wins: the client adds nothing and never authorizes', async () => {
    const s = await setup();
    const response = await s.oauth.fetch(s.server.url, {
      method: 'POST',
      headers: { authorization: 'Bearer mine' },
      body: '{}',
    });
    assert.equal(response.status, 401);
    await response.body?.cancel();
    assert.equal(s.as.seen.metadataRequests.length, 0);
  });
});

describe('OAuth client: where tokens go, and an authorization server that changes', () => {
  it('B1 never sends the token to another origin than the server (no token passthrough)', async () => {
    const s = await setup();
    const client = await connected(s);
    await client.callTool('read', {});
    await client.close();
    let seen: string | undefined = 'unset';
    const other = createServer((request, response) => {
      seen = request.headers.authorization;
      response.end('ok');
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    try {
      const response = await s.oauth.fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/x`);
      assert.equal(await response.text(), 'ok');
      assert.equal(seen, undefined);
    } finally {
      other.close();
    }
  });

  it('re-registers at a new AS named by the PRM and never shows it the old client id (SEP-2352)', async () => {
    let serverUrl = '';
    const first = await startTestAuthServer({ resource: () => serverUrl });
    const second = await startTestAuthServer({ resource: () => serverUrl });
    let current = first;
    const server = await startProtectedServer(first, { current: () => current });
    serverUrl = server.url;
    const loopback = await startLoopbackRedirect();
    const oauth = new OAuthClient({
      serverUrl,
      redirectUri: loopback.redirectUri,
      authorize: async ({ url, state, signal }) => {
        const redirected = loopback.waitFor(state, signal);
        await browse(url);
        return redirected;
      },
    });
    const client = new McpClient(CLIENT_INFO, { approve: 'always', timeoutMs: 30_000 });
    try {
      await client.connect(new HttpClientTransport(serverUrl, { fetch: oauth.fetch }));
      await client.callTool('read', {});
      current = second; // the server moves to another AS: tokens from the first no longer pass
      assert.equal(textOf(await client.callTool('read', {})), 'read by user with files:read');
    } finally {
      await client.close();
      await loopback.close();
      await server.close();
      await first.close();
      await second.close();
    }
    const oldId = first.seen.authorizations[0]?.get('client_id');
    assert.equal(second.seen.registrations.length, 1);
    assert.equal(second.seen.authorizations.length, 1);
    assert.notEqual(second.seen.authorizations[0]?.get('client_id'), oldId);
    assert.ok(second.seen.tokenRequests.every((form) => form.get('client_id') !== oldId));
  });
});

describe('OAuth client: discovery edge cases', () => {
  const rejectsWith = async (s: Setup, code: string, message: string): Promise<void> => {
    await assert.rejects(s.oauth.authorize(), (error: unknown) => {
      assert.ok(error instanceof OAuthError);
      assert.equal(error.code, code);
      assert.equal(error.message, message);
      return true;
    });
    assert.equal(s.as.seen.authorizations.length, 0, 'never sent to the authorization endpoint');
  };

  it('aborts when the PRM resource names another server (resource mismatch)', async () => {
    const s = await setup({}, { prmResource: () => 'https://evil.example/mcp' });
    await rejectsWith(
      s,
      'resource_mismatch',
      `the protected resource metadata is for "https://evil.example/mcp", not for ${s.server.url}: refusing to authorize (a token for it could be misused)`,
    );
  });

  it('accepts a PRM resource that is a parent of the server URL on the same origin', async () => {
    const s = await setup(
      { resource: () => new URL(s.server.url).origin },
      { prmResource: (url) => new URL(url).origin },
    );
    await s.oauth.authorize();
    assert.equal(s.as.seen.authorizations[0]?.get('resource'), new URL(s.server.url).origin);
  });

  it('without PRM falls back to the server origin as its AS, and says so when that is no AS either', async () => {
    const s = await setup({}, { noPrm: true });
    await rejectsWith(
      s,
      'no_metadata',
      `${s.server.url} publishes no protected resource metadata, and its origin is no authorization server: it cannot be authorized with OAuth`,
    );
    assert.equal(s.as.seen.metadataRequests.length, 0);
  });

  it('refuses an AS that does not list S256 in code_challenge_methods_supported', async () => {
    const s = await setup({ codeChallengeMethods: ['plain'] });
    await rejectsWith(
      s,
      'pkce_unsupported',
      `the authorization server "${s.as.issuer}" does not list S256 in code_challenge_methods_supported: refusing to authorize without PKCE`,
    );
  });

  it('refuses AS metadata whose issuer is not the issuer it was looked up for', async () => {
    const s = await setup({ metadataIssuer: 'https://evil.example' });
    await rejectsWith(
      s,
      'issuer_mismatch',
      `the authorization server metadata at ${s.as.issuer}/.well-known/oauth-authorization-server is for issuer "https://evil.example", not "${s.as.issuer}": refusing to use it`,
    );
    assert.equal(s.as.seen.registrations.length, 0);
  });
});
