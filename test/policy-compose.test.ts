// createPolicy end to end over real HTTP on loopback (issue 15): API keys beside OAuth in one authenticate hook,
// anonymous callers when allowed, the official SDK clients (v1 and v2) meeting 401, 403 step-up and 429, the CLI's
// --header, stdio's local caller with its configured scopes, and the mistakes createPolicy refuses.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpServer, silentLogger, type ToolConfig } from '../src/index.js';
import { createApiKey, createPolicy, loadPolicy, writeKeysFile, type Policy } from '../src/policy/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { McpClient } from '../src/client/index.js';
import { runCli } from './fixtures/serve/harness.js';
import {
  sign,
  signingKey,
  startAuthorizationServer,
  type AuthorizationServer,
  type SigningKey,
} from './policy-bearer-support.js';
import { bearer, callTool, modernRequest, postMcp, type HttpAnswer } from './support/http-mcp.js';
import { inMemoryOtel } from './support/telemetry-otel.js';

const RESOURCE = 'https://mcp.example.com/mcp';
const METADATA = 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp';

const TOOLS: ToolConfig[] = [
  {
    name: 'read_notes',
    annotations: { readOnlyHint: true },
    handler: (_args, ctx) => `notes for ${ctx.auth.subject} (${ctx.auth.via})`,
  },
  { name: 'delete_notes', annotations: { destructiveHint: true }, handler: () => 'deleted' },
  { name: 'public_time', annotations: { readOnlyHint: true }, handler: () => 'noon' },
];
const SCOPES = {
  rules: [
    { tools: ['public_time'], see: [] },
    { tools: ['read_notes'], see: ['notes:read'] },
    { tools: ['delete_notes'], see: ['notes:read'], call: ['notes:write'] },
  ],
};

const serverWith = (policy: Policy): McpServer => {
  const server = new McpServer({ name: 'composed', version: '1.0.0' }, { logger: silentLogger });
  for (const tool of TOOLS) server.tool(tool);
  policy.install(server);
  return server;
};

const text = (answer: HttpAnswer): string | undefined =>
  (answer.body?.result?.content as Array<{ text: string }> | undefined)?.[0]?.text;

let as: AuthorizationServer;
let key: SigningKey;
let policy: Policy;
let http: HttpListening;
let url: string;
let apiKey: string;
let jwt: (scope: string, subject?: string) => Promise<string>;

before(async () => {
  as = await startAuthorizationServer();
  key = await signingKey('k1', 'ES256');
  as.published = [key];
  const created = createApiKey({ subject: 'ci-bot', scopes: ['notes:read'], label: 'CI' });
  apiKey = created.key;
  policy = createPolicy({
    oauth: { resource: RESOURCE, authorizationServers: [as.issuer], requiredScopes: ['notes:read'] },
    apiKeys: { keys: [created.record] },
    scopes: SCOPES,
    rateLimits: { tools: { public_time: { points: 2, durationSeconds: 3600 } } },
    logger: silentLogger,
  });
  http = await listenHttp(serverWith(policy), { port: 0, logger: silentLogger, ...policy.http });
  url = http.url;
  jwt = (scope, subject = 'ada') =>
    sign(key, {
      iss: as.issuer,
      sub: subject,
      aud: RESOURCE,
      scope,
      exp: Math.floor(Date.now() / 1000) + 3600,
    });
});

after(async () => {
  await http.close();
  policy.close();
  await as.close();
});

describe('policy composition: API keys and OAuth behind one hook', () => {
  it('an API key in Authorization or X-API-Key is the key’s caller; a JWT is the token’s', async () => {
    assert.equal(text(await callTool(url, 'read_notes', {}, bearer(apiKey))), 'notes for ci-bot (api-key)');
    assert.equal(
      text(await callTool(url, 'read_notes', {}, { 'x-api-key': apiKey })),
      'notes for ci-bot (api-key)',
    );
    assert.equal(
      text(await callTool(url, 'read_notes', {}, bearer(await jwt('notes:read')))),
      'notes for ada (bearer)',
    );
  });

  it('B4 no credential: 401 with the metadata and the scope a first token should ask for', async () => {
    const answer = await callTool(url, 'read_notes');
    assert.equal(answer.status, 401);
    assert.equal(
      answer.headers.get('www-authenticate'),
      `Bearer resource_metadata="${METADATA}", scope="notes:read"`,
    );
  });

  it('a wrong API key: 401 invalid_token pointing at the metadata, never sent to the authorization server', async () => {
    const before = { ...as.counts };
    const forged = `${apiKey.slice(0, -4)}AAAA`;
    const answer = await callTool(url, 'read_notes', {}, bearer(forged));
    assert.equal(answer.status, 401);
    assert.equal(
      answer.headers.get('www-authenticate'),
      `Bearer resource_metadata="${METADATA}", error="invalid_token", error_description="the API key is unknown, revoked or expired"`,
    );
    assert.ok(!answer.text.includes(forged));
    assert.deepEqual(as.counts, before);
  });

  it('B3 a credential in the URL or in another scheme is invalid_request, and is not quoted', async () => {
    const inUrl = await postMcp(
      `${url}?api_key=${apiKey}`,
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      bearer(apiKey),
    );
    assert.equal(inUrl.status, 401);
    assert.match(inUrl.headers.get('www-authenticate') ?? '', /error="invalid_request"/);
    assert.ok(
      !inUrl.text.includes(apiKey) && !(inUrl.headers.get('www-authenticate') ?? '').includes(apiKey),
    );
    const basic = await callTool(url, 'read_notes', {}, { authorization: 'Basic dXNlcjpwYXNz' });
    assert.equal(basic.status, 401);
    assert.match(basic.headers.get('www-authenticate') ?? '', /error="invalid_request"/);
    const both = await callTool(url, 'read_notes', {}, { ...bearer(apiKey), 'x-api-key': apiKey });
    assert.equal(both.status, 401);
  });

  it('B9 / F8 an API key sees what its scopes grant; the step-up 403 points at the metadata', async () => {
    const listed = await modernRequest(url, 'tools/list', {}, bearer(apiKey));
    assert.deepEqual(
      (listed.body?.result?.tools as Array<{ name: string }>).map((tool) => tool.name).sort(),
      ['delete_notes', 'public_time', 'read_notes'],
    );
    assert.equal(listed.body?.result?.cacheScope, 'private');
    const denied = await callTool(url, 'delete_notes', {}, bearer(apiKey));
    assert.equal(denied.status, 403);
    assert.match(
      denied.headers.get('www-authenticate') ?? '',
      new RegExp(`resource_metadata="${METADATA}", scope="notes:write", error="insufficient_scope"`),
    );
    assert.deepEqual(denied.body?.error?.data, {
      requiredScopes: ['notes:read', 'notes:write'],
      missingScopes: ['notes:write'],
    });
  });

  it('loadPolicy reads API keys from a keys file', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'toolwire-compose-'));
    try {
      const made = createApiKey({ subject: 'filed', scopes: ['notes:read'] });
      const file = join(directory, 'keys.json');
      await writeKeysFile(file, [made.record]);
      const filed = await loadPolicy({ apiKeys: { file }, scopes: SCOPES });
      const listening = await listenHttp(serverWith(filed), { port: 0, logger: silentLogger, ...filed.http });
      try {
        assert.equal(
          text(await callTool(listening.url, 'read_notes', {}, bearer(made.key))),
          'notes for filed (api-key)',
        );
        // API keys alone: a token that is not a key is refused without any OAuth metadata to point at.
        const other = await callTool(listening.url, 'read_notes', {}, bearer('eyJhbGciOi.not.akey'));
        assert.equal(other.status, 401);
        assert.equal(
          other.headers.get('www-authenticate'),
          'Bearer realm="mcp", error="invalid_token", error_description="this server accepts API keys only"',
        );
      } finally {
        await listening.close();
        filed.close();
      }
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});

describe('policy composition: anonymous callers, when allowed', () => {
  it('F2 without credentials, only what `see: []` grants, counted per address', async () => {
    const open = createPolicy({
      anonymous: true,
      apiKeys: { keys: [] },
      scopes: SCOPES,
      rateLimits: { perCall: { points: 1, durationSeconds: 3600 } },
    });
    const listening = await listenHttp(serverWith(open), { port: 0, logger: silentLogger, ...open.http });
    try {
      const listed = await modernRequest(listening.url, 'tools/list', {});
      assert.deepEqual(
        (listed.body?.result?.tools as Array<{ name: string }>).map((tool) => tool.name),
        ['public_time'],
      );
      assert.equal(text(await callTool(listening.url, 'public_time')), 'noon');
      const hidden = await callTool(listening.url, 'read_notes');
      assert.equal(hidden.body?.error?.code, -32602);
      assert.equal((await callTool(listening.url, 'public_time')).status, 429);
    } finally {
      await listening.close();
      open.close();
    }
  });
});

describe('policy composition: real clients as peers', () => {
  it('the official SDK v2 client lists with a token, and meets the 403 step-up and the 429 as errors', async () => {
    const token = await jwt('notes:read', 'sdk-v2');
    const client = new ClientV2({ name: 'compose-v2', version: '1.0.0' });
    await client.connect(
      new HttpTransportV2(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['delete_notes', 'public_time', 'read_notes']);
      await assert.rejects(client.callTool({ name: 'delete_notes', arguments: {} }), (error: Error) =>
        /notes:write|403|insufficient_scope/.test(`${error.message} ${JSON.stringify(error)}`),
      );
      await client.callTool({ name: 'public_time', arguments: {} });
      await client.callTool({ name: 'public_time', arguments: {} });
      await assert.rejects(client.callTool({ name: 'public_time', arguments: {} }), (error: Error) =>
        /Rate limited|429|-31429/.test(`${error.message} ${JSON.stringify(error)}`),
      );
    } finally {
      await client.close();
    }
  });

  it('the official SDK v1 client lists with a token and meets the 403 step-up as an error', async () => {
    const token = await jwt('notes:read', 'sdk-v1');
    const client = new ClientV1({ name: 'compose-v1', version: '1.0.0' });
    await client.connect(
      new HttpTransportV1(new URL(url), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      assert.deepEqual(tools.map((tool) => tool.name).sort(), ['delete_notes', 'public_time', 'read_notes']);
      await assert.rejects(client.callTool({ name: 'delete_notes', arguments: {} }), (error: Error) =>
        /notes:write|403|insufficient_scope/.test(`${error.message} ${JSON.stringify(error)}`),
      );
    } finally {
      await client.close();
    }
  });

  it('toolwire list and call work with --header "Authorization: Bearer …", and say what a 403 needs', async () => {
    const token = await jwt('notes:read', 'cli');
    const header = ['--header', `Authorization: Bearer ${token}`];
    const listed = await runCli(['list', url, ...header, '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.deepEqual((JSON.parse(listed.stdout) as Array<{ name: string }>).map((tool) => tool.name).sort(), [
      'delete_notes',
      'public_time',
      'read_notes',
    ]);
    const called = await runCli(['call', url, 'read_notes', ...header, '--yes']);
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /notes for cli \(bearer\)/);
    const refused = await runCli(['call', url, 'delete_notes', ...header, '--yes']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /notes:write/);
    assert.ok(!refused.stderr.includes(token) && !refused.stdout.includes(token));
  });

  it('stdio: the local caller carries localScopes, and scopes apply to it like any caller', async () => {
    const local = createPolicy({ apiKeys: { keys: [] }, localScopes: ['notes:read'], scopes: SCOPES });
    const server = serverWith(local);
    const [clientSide, serverSide] = createLinkedPair({ caller: local.stdio.caller });
    await server.connect(serverSide);
    const client = new McpClient(
      { name: 'local', version: '1.0.0' },
      { logger: silentLogger, trusted: true, approve: 'always' },
    );
    await client.connect(clientSide);
    try {
      assert.deepEqual((await client.listTools()).map((tool) => tool.name).sort(), [
        'delete_notes',
        'public_time',
        'read_notes',
      ]);
      await assert.rejects(client.callTool('delete_notes', {}), /notes:write/);
    } finally {
      await client.close();
      local.close();
    }
  });
});

describe('policy composition: telemetry outermost, when configured', () => {
  it('a SERVER span per call, covering a scope refusal too (its JSON-RPC code as error.type)', async () => {
    const otel = inMemoryOtel();
    const key = createApiKey({ subject: 'tracer', scopes: ['notes:read'] });
    const withKey = createPolicy({
      apiKeys: { keys: [key.record] },
      scopes: SCOPES,
      telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
    });
    const listening = await listenHttp(serverWith(withKey), {
      port: 0,
      logger: silentLogger,
      ...withKey.http,
    });
    try {
      assert.equal(
        text(await callTool(listening.url, 'read_notes', {}, bearer(key.key))),
        'notes for tracer (api-key)',
      );
      const ok = await otel.ended('tools/call read_notes');
      assert.equal(ok.attributes['gen_ai.tool.name'], 'read_notes');
      assert.equal(ok.attributes['error.type'], undefined);
      await callTool(listening.url, 'delete_notes', {}, bearer(key.key));
      const refused = await otel.ended('tools/call delete_notes');
      assert.equal(refused.attributes['error.type'], '-31003');
    } finally {
      await listening.close();
      await withKey.close();
    }
  });
});

describe('createPolicy refuses what cannot work', () => {
  it('without scopes, with a keys file (async), or installed twice', () => {
    assert.throws(() => createPolicy({ apiKeys: { keys: [] } } as never), /policy: scopes is required/);
    assert.throws(() => createPolicy({ apiKeys: { file: '/nope' }, scopes: SCOPES }), /use loadPolicy/);
    const once = createPolicy({ apiKeys: { keys: [] }, scopes: SCOPES });
    const server = new McpServer({ name: 'x', version: '1' }, { logger: silentLogger });
    once.install(server);
    assert.throws(() => once.install(server), /already installed/);
  });
});
