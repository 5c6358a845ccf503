// The official SDK clients against a bearer-protected toolwire server over real HTTP (issue 15, B4): with a valid
// token (sent as a header through requestInit) they list and call tools; without one they surface the 401. Client
// 2.x on the 2026-07-28 wire and on the legacy wire, sdk 1.x on Streamable HTTP.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, silentLogger } from '../src/index.js';
import { bearer, type Bearer } from '../src/policy/bearer/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import {
  sign,
  signingKey,
  startAuthorizationServer,
  type AuthorizationServer,
} from './policy-bearer-support.js';

const RESOURCE = 'https://mcp.example.com/mcp';
/** The JSON-RPC error body of our 401, which the legacy transports quote. */
const UNAUTHORIZED = /Unauthorized: this server needs an access token/;
const CLIENT_INFO = { name: 'toolwire-bearer-interop', version: '0.0.0' };

describe('policy bearer: the official SDK clients as peers', () => {
  let as: AuthorizationServer;
  let auth: Bearer;
  let listening: HttpListening;
  let token: string;

  before(async () => {
    as = await startAuthorizationServer();
    const key = await signingKey('k1');
    as.published = [key];
    auth = bearer({ resource: RESOURCE, authorizationServers: [as.issuer], requiredScopes: ['tools:read'] });
    const server = new McpServer({ name: 'bearer-peers', version: '1.0.0' }, { logger: silentLogger });
    server.tool({
      name: 'whoami',
      description: 'Says who is calling',
      handler: (_args, ctx) => `${ctx.auth.subject} via ${ctx.auth.via}`,
    });
    listening = await listenHttp(server, {
      port: 0,
      authenticate: auth.authenticate,
      routes: auth.routes,
      logger: silentLogger,
    });
    token = await sign(key, {
      iss: as.issuer,
      sub: 'alice',
      aud: RESOURCE,
      scope: 'tools:read',
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
  });
  after(async () => {
    auth.close();
    await listening.close();
    await as.close();
  });

  /** The error each SDK raises on a 401: v2's SdkHttpError has `status`, v1's StreamableHTTPError has `code`. */
  const is401 =
    (field: 'status' | 'code', message: RegExp) =>
    (error: unknown): boolean => {
      assert.equal((error as Record<string, unknown>)[field], 401, String(error));
      assert.match(String(error), message);
      return true;
    };

  const withToken = (): RequestInit => ({ headers: { authorization: `Bearer ${token}` } });

  /** Lists and calls whoami through a connected client, then closes it. */
  async function listAndCall(client: {
    listTools(): Promise<{ tools: Array<{ name: string }> }>;
    callTool(params: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
    close(): Promise<void>;
  }): Promise<void> {
    try {
      assert.deepEqual(
        (await client.listTools()).tools.map((tool) => tool.name),
        ['whoami'],
      );
      const result = (await client.callTool({ name: 'whoami', arguments: {} })) as { content: unknown };
      assert.deepEqual(result.content, [{ type: 'text', text: 'alice via bearer' }]);
    } finally {
      await client.close();
    }
  }

  it(
    'B4: client 2.x on 2026-07-28 with a token works; without one it surfaces the 401',
    { timeout: 30_000 },
    async () => {
      const pinned = { versionNegotiation: { mode: { pin: '2026-07-28' } } } as const;
      const client = new ClientV2(CLIENT_INFO, pinned);
      await client.connect(new HttpTransportV2(new URL(listening.url), { requestInit: withToken() }));
      await listAndCall(client);

      const refused = new ClientV2(CLIENT_INFO, pinned);
      await assert.rejects(
        refused.connect(new HttpTransportV2(new URL(listening.url))),
        is401('status', /the server requires authorization \(HTTP 401\)/),
      );
      await refused.close();
    },
  );

  it(
    'B4: client 2.x on the legacy wire with a token works; without one it surfaces the 401',
    { timeout: 30_000 },
    async () => {
      const client = new ClientV2(CLIENT_INFO);
      const transport = new HttpTransportV2(new URL(listening.url), { requestInit: withToken() });
      await client.connect(transport);
      await listAndCall(client);

      const refused = new ClientV2(CLIENT_INFO);
      await assert.rejects(
        refused.connect(new HttpTransportV2(new URL(listening.url))),
        is401('status', UNAUTHORIZED),
      );
      await refused.close();
    },
  );

  it(
    'B4: sdk 1.x on Streamable HTTP with a token works; without one it surfaces the 401',
    { timeout: 30_000 },
    async () => {
      const client = new ClientV1(CLIENT_INFO);
      const transport = new HttpTransportV1(new URL(listening.url), { requestInit: withToken() });
      await client.connect(transport);
      assert.ok(transport.sessionId);
      await listAndCall(client);

      const refused = new ClientV1(CLIENT_INFO);
      await assert.rejects(
        refused.connect(new HttpTransportV1(new URL(listening.url))),
        is401('code', UNAUTHORIZED),
      );
      await refused.close();
    },
  );
});
