// OAuth client credentials for an upstream (B1 b): the gateway gets its own token for the upstream from the
// upstream's authorization server, for that upstream as the resource, and never sends anything of the caller's.
// The upstream is test/support's protected toolwire server; the authorization server is a minimal one here that
// grants client_credentials to one client.

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { silentLogger } from '../../server/index.js';
import type { IssuedToken, TestAuthServer } from '../../../test/support/oauth-server.js';
import { startProtectedServer, type ProtectedServer } from '../../../test/support/protected-server.js';
import { UpstreamUnavailable } from './errors.js';
import { Upstream } from './upstream.js';

const CLIENT_INFO = { name: 'gateway-test', version: '0.0.0' };
const CLIENT_ID = 'gateway';
const SECRET = 'gateway-secret-5678';

interface TokenRequest {
  form: URLSearchParams;
  authorization: string | undefined;
}

/** An authorization server that knows one confidential client and only the client_credentials grant. */
async function startClientCredentialsServer(): Promise<TestAuthServer & { tokenRequests: TokenRequest[] }> {
  const issued = new Map<string, IssuedToken>();
  const tokenRequests: TokenRequest[] = [];
  let issuer = '';
  const basic = `Basic ${Buffer.from(`${CLIENT_ID}:${SECRET}`).toString('base64')}`;
  const server: Server = createServer((request, response) => {
    const json = (status: number, body: unknown): void =>
      void response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (request.method === 'GET' && request.url === '/.well-known/oauth-authorization-server') {
      json(200, {
        issuer,
        token_endpoint: `${issuer}/token`,
        response_types_supported: [],
        grant_types_supported: ['client_credentials'],
        token_endpoint_auth_methods_supported: ['client_secret_basic'],
      });
      return;
    }
    if (request.method !== 'POST' || request.url !== '/token') return void json(404, { error: 'not_found' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      tokenRequests.push({ form, authorization: request.headers.authorization });
      if (request.headers.authorization !== basic) return json(401, { error: 'invalid_client' });
      if (form.get('grant_type') !== 'client_credentials')
        return json(400, { error: 'unsupported_grant_type' });
      const token = `at-${randomBytes(12).toString('hex')}`;
      const scopes = (form.get('scope') ?? '').split(' ').filter((s) => s !== '');
      issued.set(token, {
        scopes,
        resource: form.get('resource') ?? '',
        expiresAt: undefined,
        revoked: false,
      });
      json(200, { access_token: token, token_type: 'Bearer', expires_in: 3600, scope: scopes.join(' ') });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    tokenRequests,
    seen: { authorizations: [], tokenRequests: [], registrations: [], revocations: [], metadataRequests: [] },
    verify: (token) => issued.get(token),
    advance: () => undefined,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('B1 upstream OAuth client credentials', () => {
  let as: Awaited<ReturnType<typeof startClientCredentialsServer>>;
  let protectedServer: ProtectedServer;

  before(async () => {
    as = await startClientCredentialsServer();
    protectedServer = await startProtectedServer(as);
  });

  after(async () => {
    await protectedServer?.close();
    await as?.close();
  });

  it('B1 the gateway authenticates to the upstream with its own client credentials, for that upstream only', async () => {
    const upstream = new Upstream(
      {
        name: 'files',
        url: protectedServer.url,
        credentials: {
          kind: 'client-credentials',
          clientId: CLIENT_ID,
          clientSecretEnv: 'FILES_SECRET',
          scope: 'files:read',
        },
      },
      { clientInfo: CLIENT_INFO, logger: silentLogger, handlers: {}, env: { FILES_SECRET: SECRET } },
    );
    try {
      await upstream.start();
      assert.equal(upstream.health().state, 'ready', upstream.health().lastError);
      const outcome = await upstream.call((client) => client.callTool('read', {}));
      assert.deepEqual(outcome.content, [{ type: 'text', text: 'read by user with files:read' }]);
      const grants = as.tokenRequests.filter((r) => r.form.get('grant_type') === 'client_credentials');
      assert.equal(grants.length, 1, 'one token, reused');
      // The token is for this upstream (RFC 8707 resource = the upstream's URL), asked for with the client's secret.
      assert.equal(grants[0]?.form.get('resource'), protectedServer.url);
      assert.ok(protectedServer.authorizedRequests() > 0);
    } finally {
      await upstream.close();
    }
  });

  it('a wrong client secret leaves the upstream down with the reason, and retried later (start does not throw)', async () => {
    const upstream = new Upstream(
      {
        name: 'files',
        url: protectedServer.url,
        credentials: { kind: 'client-credentials', clientId: CLIENT_ID, clientSecretEnv: 'FILES_SECRET' },
      },
      { clientInfo: CLIENT_INFO, logger: silentLogger, handlers: {}, env: { FILES_SECRET: 'wrong' } },
    );
    try {
      await upstream.start();
      const health = upstream.health();
      assert.equal(health.state, 'backoff');
      assert.equal(
        health.lastError,
        'POST failed: the token endpoint refused the client_credentials: HTTP 401 "invalid_client"',
      );
      await assert.rejects(upstream.listTools(), UpstreamUnavailable);
    } finally {
      await upstream.close();
    }
  });
});
