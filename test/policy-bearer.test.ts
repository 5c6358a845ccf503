// The bearer resource server over real HTTP on loopback (issue 15, threats B1–B4): a JWKS and authorization-server
// metadata served by a loopback authorization server, tokens signed with keys made by jose, the MCP server through
// listenHttp on both eras (2026-07-28 POSTs and a legacy initialize session).

import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { base64url, SignJWT, exportSPKI, type JWTPayload } from 'jose';
import { McpServer } from '../src/index.js';
import type { Caller } from '../src/protocol/index.js';
import { bearer, type Bearer } from '../src/policy/bearer/index.js';
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
const METADATA_URL = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';
const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const PLAIN_CHALLENGE = `Bearer resource_metadata="${METADATA_URL}", scope="tools:read"`;
const invalidToken = (description: string): string =>
  `${PLAIN_CHALLENGE}, error="invalid_token", error_description="${description}"`;

const modernHeaders = (token?: string): Record<string, string> => ({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'whoami',
  ...(token !== undefined && { authorization: `Bearer ${token}` }),
});
const CALL = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {}, _meta: META },
});

describe('policy bearer: JWT access tokens over HTTP (B1–B4)', () => {
  let as: AuthorizationServer;
  let key: SigningKey;
  let auth: Bearer;
  let listening: HttpListening;
  let log: CapturingLogger;
  let clock = Date.now();
  /** Everything a tool handler saw of its context, as JSON. */
  const seen: string[] = [];

  const claims = (extra: JWTPayload = {}): JWTPayload => ({
    iss: as.issuer,
    sub: 'alice',
    aud: RESOURCE,
    scope: 'tools:read files:read',
    client_id: 'inspector',
    iat: Math.floor(clock / 1000),
    exp: Math.floor(clock / 1000) + 600,
    ...extra,
  });
  const without = (name: string): JWTPayload => {
    const { [name]: _dropped, ...rest } = claims();
    return rest;
  };
  /** Every token this suite sent: none may reach a log line. */
  const sent: string[] = [];
  const post = (token?: string, url = listening.url): Promise<Response> => {
    if (token !== undefined) sent.push(token);
    return fetch(url, { method: 'POST', headers: modernHeaders(token), body: CALL });
  };
  /** A legacy initialize (2025-11-25) with this token. */
  const initialize = (token: string): Promise<Response> => {
    sent.push(token);
    return fetch(listening.url, {
      method: 'POST',
      headers: { ...modernHeaders(token), 'mcp-protocol-version': LEGACY },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    });
  };

  before(async () => {
    as = await startAuthorizationServer();
    key = await signingKey('k1');
    as.published = [key];
    log = capturingLogger();
    auth = bearer({
      resource: RESOURCE,
      authorizationServers: [as.issuer],
      requiredScopes: ['tools:read'],
      scopesSupported: ['tools:read'],
      resourceName: 'Example tools',
      now: () => clock,
      logger: log,
    });
    const server = new McpServer({ name: 'bearer', version: '1.0.0' }, { logger: log });
    server.tool({
      name: 'whoami',
      description: 'Says who is calling',
      inputSchema: { type: 'object', properties: {} },
      handler: (args, ctx) => {
        seen.push(
          JSON.stringify({ args, auth: ctx.auth, meta: ctx.meta, info: ctx.clientInfo, id: ctx.requestId }),
        );
        return `${ctx.auth.subject} via ${ctx.auth.via} as ${ctx.auth.clientId} with ${ctx.auth.scopes.join(',')}`;
      },
    });
    listening = await listenHttp(server, {
      port: 0,
      authenticate: auth.authenticate,
      routes: auth.routes,
      logger: log,
    });
  });
  after(async () => {
    auth.close();
    await listening.close();
    await as.close();
  });
  beforeEach(() => {
    clock = Date.now();
  });

  it('B4: no token → 401 with resource_metadata and the scope a first token should ask for', async () => {
    const response = await post();
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), PLAIN_CHALLENGE);
    assert.deepEqual(await response.json(), {
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Unauthorized: this server needs an access token (see the WWW-Authenticate header)',
      },
    });
    assert.equal(auth.resourceMetadataUrl, METADATA_URL);
  });

  it('B4: the metadata document at both well-known paths names the resource and its authorization server', async () => {
    const origin = new URL(listening.url).origin;
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const response = await fetch(`${origin}${path}`);
      assert.equal(response.status, 200, path);
      assert.deepEqual(await response.json(), {
        resource: RESOURCE,
        authorization_servers: [as.issuer],
        scopes_supported: ['tools:read'],
        bearer_methods_supported: ['header'],
        resource_name: 'Example tools',
      });
    }
  });

  it('B4: step-up headers name exactly the missing scope', () => {
    assert.deepEqual(auth.stepUpHeaders(['files:write']), {
      'www-authenticate': `Bearer resource_metadata="${METADATA_URL}", scope="files:write", error="insufficient_scope", error_description="this needs the scope files:write"`,
    });
  });

  it('a valid token reaches the tool as a bearer Caller on the modern era; B1 the handler never sees the token', async () => {
    const token = await sign(key, claims());
    const response = await post(token);
    assert.equal(response.status, 200);
    const body = (await response.json()) as { result: { content: Array<{ text: string }> } };
    assert.equal(body.result.content[0]?.text, 'alice via bearer as inspector with tools:read,files:read');
    const last = seen.at(-1) ?? '';
    assert.ok(
      !last.includes(token) && !last.includes(token.split('.')[2] ?? '-'),
      'the token reached the handler',
    );
    const { auth: caller } = JSON.parse(last) as { auth: Caller };
    assert.deepEqual(Object.keys(caller.claims ?? {}).sort(), [
      'aud',
      'client_id',
      'exp',
      'iat',
      'iss',
      'scope',
      'sub',
    ]);
  });

  it('a valid token opens and uses a legacy session (initialize, then tools/call)', async () => {
    const token = await sign(key, claims());
    const headers = { ...modernHeaders(token), 'mcp-protocol-version': LEGACY };
    delete (headers as Record<string, string>)['mcp-method'];
    delete (headers as Record<string, string>)['mcp-name'];
    const opened = await fetch(listening.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      }),
    });
    assert.equal(opened.status, 200, await opened.clone().text());
    const session = opened.headers.get('mcp-session-id') ?? '';
    await opened.text();
    const call = (withToken: boolean): Promise<Response> =>
      fetch(listening.url, {
        method: 'POST',
        headers: withToken
          ? { ...headers, 'mcp-session-id': session }
          : { ...modernHeaders(), 'mcp-session-id': session, 'mcp-protocol-version': LEGACY },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 2,
          method: 'tools/call',
          params: { name: 'whoami', arguments: {} },
        }),
      });
    const answered = await call(true);
    assert.equal(answered.status, 200);
    assert.match(await answered.text(), /alice via bearer as inspector/);
    // B4 on the legacy era: the session id alone is no credential.
    const bare = await call(false);
    assert.equal(bare.status, 401);
    assert.equal(bare.headers.get('www-authenticate'), PLAIN_CHALLENGE);
  });

  it('B1a: a token for another audience → 401 invalid_token (on both eras), the token quoted nowhere', async () => {
    const token = await sign(key, claims({ aud: 'https://other.example.com/mcp' }));
    const response = await post(token);
    assert.equal(response.status, 401);
    const challenge = response.headers.get('www-authenticate') ?? '';
    assert.equal(challenge, invalidToken('the token was not issued for this resource (audience)'));
    assert.ok(!(await response.text()).includes(token));
    const legacy = await initialize(token);
    assert.equal(legacy.status, 401);
    assert.equal(legacy.headers.get('www-authenticate'), challenge);
  });

  const refused: Array<[string, () => Promise<string>, string]> = [
    [
      'B2: alg none',
      async () =>
        `${base64url.encode(JSON.stringify({ alg: 'none', typ: 'JWT' }))}.${base64url.encode(JSON.stringify(claims()))}.`,
      "the token's signing algorithm is not accepted",
    ],
    [
      'B2: HS256 signed with the RSA public key (key confusion)',
      async () =>
        new SignJWT(claims())
          .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
          .sign(new TextEncoder().encode(await exportSPKI(key.publicKey))),
      "the token's signing algorithm is not accepted",
    ],
    [
      'B2: expired (past the 60 s skew)',
      () => sign(key, claims({ exp: Math.floor(clock / 1000) - 61 })),
      'the token has expired',
    ],
    [
      'B2: nbf in the future (past the skew)',
      () => sign(key, claims({ nbf: Math.floor(clock / 1000) + 120 })),
      'the token is not valid yet (\\"nbf\\")',
    ],
    [
      'B2: wrong iss',
      () => sign(key, claims({ iss: 'https://evil.example.com' })),
      'the token was issued by an issuer this resource does not accept',
    ],
    ['B2: missing aud', () => sign(key, without('aud')), 'the token has no \\"aud\\" claim'],
    ['B2: missing exp', () => sign(key, without('exp')), 'the token has no \\"exp\\" claim'],
    [
      'B2: bad signature',
      async () => `${(await sign(key, claims())).slice(0, -4)}AAAA`,
      "the token's signature does not verify",
    ],
    [
      'B2: an ID token (typ other than at+jwt / JWT)',
      () => sign(key, claims(), { typ: 'id+jwt' }),
      'the token is not an access token (\\"typ\\" is neither at+jwt nor JWT)',
    ],
  ];
  for (const [name, make, description] of refused) {
    it(`${name} → 401 invalid_token (on both eras)`, async () => {
      const token = await make();
      for (const response of [await post(token), await initialize(token)]) {
        assert.equal(response.status, 401);
        assert.equal(response.headers.get('www-authenticate'), invalidToken(description));
      }
    });
  }

  it('B2: nbf in the future but within the skew is accepted; exp just past but within the skew too', async () => {
    const now = Math.floor(clock / 1000);
    assert.equal((await post(await sign(key, claims({ nbf: now + 30 })))).status, 200);
    assert.equal((await post(await sign(key, claims({ exp: now - 30 })))).status, 200);
  });

  it('B2: unknown kid → 401, and a flood of made-up kids refetches the key set at most once per 30 s', async () => {
    const stranger = await signingKey('not-published');
    const before = as.counts.jwks;
    for (let i = 0; i < 40; i++) {
      const response = await post(await sign(stranger, claims({ jti: String(i) }), { kid: `random-${i}` }));
      assert.equal(response.status, 401);
      assert.equal(
        response.headers.get('www-authenticate'),
        invalidToken('no key of the issuer matches the token (\\"kid\\")'),
      );
    }
    assert.ok(as.counts.jwks - before <= 1, `${as.counts.jwks - before} key set fetches for 40 unknown kids`);

    // The issuer rotates: 31 s later, a token with the new kid makes one refetch and is accepted.
    const rotated = await signingKey('k2');
    as.published = [key, rotated];
    clock += 31_000;
    const fetchedBefore = as.counts.jwks;
    assert.equal((await post(await sign(rotated, claims()))).status, 200);
    assert.equal(as.counts.jwks - fetchedBefore, 1);
    for (let i = 0; i < 10; i++)
      await post(await sign(stranger, claims({ jti: `again-${i}` }), { kid: `again-${i}` }));
    assert.equal(as.counts.jwks - fetchedBefore, 1);
  });

  it('B3: ?access_token= → 401 invalid_request, even beside a good header; the value appears in no log', async () => {
    const token = await sign(key, claims());
    for (const url of [`${listening.url}?access_token=${token}`, `${listening.url}?Access_Token=${token}`]) {
      for (const header of [undefined, token]) {
        const response = await post(header, url);
        assert.equal(response.status, 401);
        const challenge = response.headers.get('www-authenticate') ?? '';
        assert.match(
          challenge,
          /^Bearer resource_metadata="[^"]+", scope="tools:read", error="invalid_request", error_description="credentials in the URL are refused/,
        );
        assert.ok(!challenge.includes(token) && !(await response.text()).includes(token));
      }
    }
    assert.ok(!log.text().includes(token), 'the token reached the log');
    assert.ok(!log.text().includes(token.split('.')[2] ?? '-'), 'the signature reached the log');
  });

  it('the hot path: the same token gives the identical frozen Caller (no second signature check)', async () => {
    const token = await sign(key, claims({ jti: 'cache' }));
    const first = await auth.verify(token);
    const second = await auth.verify(token);
    assert.ok(first.ok && second.ok);
    assert.equal(first.caller, second.caller);
    assert.ok(
      Object.isFrozen(first.caller) &&
        Object.isFrozen(first.caller.scopes) &&
        Object.isFrozen(first.caller.claims),
    );
    const request = {
      method: 'POST',
      path: '/mcp',
      header: (name: string) => (name.toLowerCase() === 'authorization' ? `Bearer ${token}` : undefined),
      query: () => undefined,
      queryNames: () => [],
    };
    assert.equal(auth.authenticate(request), first.caller); // synchronous: no promise on a cache hit
    clock += 700_000; // past exp and its skew: dropped from the cache, checked again, refused
    const expired = await auth.verify(token);
    assert.deepEqual(expired, { ok: false, reason: 'invalid', message: 'the token has expired' });
  });

  // Today nothing on these paths logs at all (the edge keeps no access log); this guards whatever logs later.
  it('B3: no token this suite sent reached a log line', () => {
    assert.ok(sent.length > 50);
    const text = log.text();
    for (const token of sent) assert.ok(!text.includes(token), 'a token reached the log');
  });
});
