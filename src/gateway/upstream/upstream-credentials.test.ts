// An upstream's credentials come from its configuration and the gateway's environment only: B1 (the inbound
// caller's token never travels upstream) against a recording HTTP upstream on loopback, and the startup errors of
// ${ENV} expansion and credential settings, asserted exactly.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../../client/index.js';
import type { Caller } from '../../protocol/index.js';
import { McpServer, silentLogger } from '../../server/index.js';
import { listenHttp, type HttpListening } from '../../transports/http/index.js';
import { HttpClientTransport } from '../../transports/http-client/index.js';
import {
  CHILD_LIMIT_MS,
  startMaliciousHttp,
  within,
  type MaliciousHttp,
} from '../../../test/fixtures/malicious-upstream/harness.js';
import { checkUpstreamConfig, type UpstreamConfig } from './config.js';
import { expandEnv, upstreamAuth } from './credentials.js';
import { UpstreamConfigError } from './errors.js';
import { Upstream } from './upstream.js';

const CLIENT_INFO = { name: 'gateway-test', version: '0.0.0' };
const INBOUND_TOKEN = 'inbound-secret-token-1234';
const CALLER: Caller = Object.freeze({ subject: 'alice', via: 'bearer', scopes: Object.freeze([]) });

const configError = (code: string, message: string) => (error: unknown) => {
  assert.ok(error instanceof UpstreamConfigError);
  assert.equal(error.code, code);
  assert.equal(error.message, message);
  return true;
};

describe('B1 upstream credentials', () => {
  let fixture: MaliciousHttp;
  let upstream: Upstream;
  let gateway: HttpListening;

  before(async () => {
    fixture = await within(startMaliciousHttp(['record-headers']), CHILD_LIMIT_MS, 'the HTTP fixture');
    upstream = new Upstream(
      { name: 'api', url: fixture.url, headers: { 'X-Api-Key': 'key-${UPSTREAM_KEY}' } },
      {
        clientInfo: CLIENT_INFO,
        logger: silentLogger,
        handlers: {},
        env: { UPSTREAM_KEY: 'configured', AUTHORIZATION: `Bearer ${INBOUND_TOKEN}` },
      },
    );
    // A gateway in miniature: an authenticated HTTP server whose tool relays to the upstream.
    const server = new McpServer({ name: 'gateway', version: '0.0.0' }, { logger: silentLogger });
    server.tool({
      name: 'relay',
      description: 'Relays to the upstream',
      inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      handler: async (args, ctx) => {
        const outcome = await upstream.call((client) =>
          client.callTool('echo', { text: String(args.text) }, { signal: ctx.signal }),
        );
        const first = outcome.content[0];
        return first?.type === 'text' ? first.text : '';
      },
    });
    gateway = await listenHttp(server, {
      port: 0,
      logger: silentLogger,
      authenticate: (request) =>
        request.header('authorization') === `Bearer ${INBOUND_TOKEN}` ? CALLER : { status: 401 },
    });
    await within(upstream.start(), CHILD_LIMIT_MS, 'the upstream to start');
  });

  after(async () => {
    await upstream?.close();
    await gateway?.close();
    await fixture?.close();
  });

  it("B1 the inbound caller's token and headers never reach the upstream: it receives only its configured header", async () => {
    const inbound = new McpClient(CLIENT_INFO, { approve: 'always' });
    await inbound.connect(
      new HttpClientTransport(gateway.url, {
        headers: {
          Authorization: `Bearer ${INBOUND_TOKEN}`,
          'X-Upstream-Authorization': `Bearer ${INBOUND_TOKEN}`,
          'X-Api-Key': 'from-the-caller',
          Cookie: 'session=inbound',
        },
      }),
    );
    try {
      const outcome = await inbound.callTool('relay', { text: 'hello' });
      assert.deepEqual(outcome.content, [{ type: 'text', text: 'hello' }]);
    } finally {
      await inbound.close();
    }
    const requests = fixture.requests();
    assert.ok(
      requests.some((r) => r.method === 'POST'),
      'the relay reached the upstream',
    );
    // The MCP headers the client transport sets per request (discovery carries Mcp-Method, later requests the
    // negotiated version); they say nothing about the caller.
    const protocol = new Set(['mcp-method', 'mcp-name', 'mcp-protocol-version', 'mcp-session-id']);
    for (const request of requests) {
      const names = Object.keys(request.headers)
        .filter((name) => !protocol.has(name))
        .sort();
      // Exactly what the HTTP client transport and node:http send (the gateway's keep-alive fetch), plus the
      // configured key; nothing of the caller's.
      const expected = [
        'accept',
        'connection',
        'host',
        'x-api-key',
        ...(request.method === 'POST' ? ['content-length', 'content-type'] : []),
      ].sort();
      assert.deepEqual(names, expected, `${request.method} headers`);
      assert.equal(request.headers['x-api-key'], 'key-configured');
      assert.ok(!JSON.stringify(request.headers).includes(INBOUND_TOKEN), 'the inbound token is not there');
      assert.ok(!JSON.stringify(request.headers).includes('inbound'), 'no cookie of the caller');
    }
  });
});

describe('upstream configuration errors', () => {
  it('a ${VAR} that is not set is a startup error naming the variable, never an empty header', async () => {
    const config: UpstreamConfig = {
      name: 'api',
      url: 'http://127.0.0.1:9/mcp',
      headers: { 'X-Api-Key': '${API_KEY}' },
    };
    const expected = configError(
      'missing-env',
      'upstream "api": header X-Api-Key needs the environment variable API_KEY, which is not set',
    );
    assert.throws(() => upstreamAuth(config, {}), expected);
    assert.throws(() => upstreamAuth(config, { API_KEY: '' }), expected, 'an empty value is missing too');
    const upstream = new Upstream(config, {
      clientInfo: CLIENT_INFO,
      logger: silentLogger,
      handlers: {},
      env: {},
    });
    await assert.rejects(upstream.start(), expected);
    await upstream.close();
  });

  it('expands every reference, and refuses what is not a variable name', () => {
    assert.equal(expandEnv('api', 'header A', '${A}:${B_2}', { A: 'x', B_2: 'y' }), 'x:y');
    assert.equal(expandEnv('api', 'header A', 'no references $HOME', {}), 'no references $HOME');
    assert.throws(
      () => expandEnv('api', 'header A', '${not a name}', {}),
      configError('bad-config', 'upstream "api": header A: ${not a name} is not a variable reference'),
    );
  });

  it('a header credential comes from its variable; a missing one is named', () => {
    const config: UpstreamConfig = {
      name: 'api',
      url: 'http://127.0.0.1:9/mcp',
      credentials: { kind: 'header', name: 'Authorization', env: 'API_TOKEN' },
    };
    assert.deepEqual(upstreamAuth(config, { API_TOKEN: 'Bearer t0k3n' }).headers, {
      Authorization: 'Bearer t0k3n',
    });
    assert.throws(
      () => upstreamAuth(config, {}),
      configError(
        'missing-env',
        'upstream "api": credentials header Authorization needs the environment variable API_TOKEN, which is not set',
      ),
    );
  });

  it('header values that would break the request, and the same header twice, are refused without echoing them', () => {
    assert.throws(
      () =>
        upstreamAuth(
          { name: 'api', url: 'http://127.0.0.1:9/mcp', headers: { 'X-Key': '${KEY}' } },
          { KEY: 'secret\r\nX-Injected: 1' },
        ),
      configError('bad-config', 'upstream "api": header X-Key is not a valid HTTP header name or value'),
    );
    assert.throws(
      () =>
        upstreamAuth(
          {
            name: 'api',
            url: 'http://127.0.0.1:9/mcp',
            headers: { authorization: 'Bearer a' },
            credentials: { kind: 'header', name: 'Authorization', env: 'T' },
          },
          { T: 'Bearer b' },
        ),
      configError('bad-config', 'upstream "api": header Authorization is given twice'),
    );
  });

  it('client credentials: the secret comes from its variable, and a hand-set token endpoint is refused', () => {
    const base: UpstreamConfig = {
      name: 'api',
      url: 'http://127.0.0.1:9/mcp',
      credentials: { kind: 'client-credentials', clientId: 'gateway', clientSecretEnv: 'API_SECRET' },
    };
    assert.throws(
      () => upstreamAuth(base, {}),
      configError(
        'missing-env',
        'upstream "api": credentials.clientSecretEnv needs the environment variable API_SECRET, which is not set',
      ),
    );
    const auth = upstreamAuth(base, { API_SECRET: 's3cret' });
    assert.equal(typeof auth.fetch, 'function');
    assert.deepEqual(auth.headers, {});
    assert.throws(
      () =>
        checkUpstreamConfig({
          ...base,
          credentials: {
            kind: 'client-credentials',
            clientId: 'gateway',
            clientSecretEnv: 'API_SECRET',
            tokenEndpoint: 'https://as.example/token',
          },
        }),
      configError(
        'unsupported',
        'upstream "api": "credentials.tokenEndpoint" is not supported: the authorization server is discovered from the upstream\'s 401 challenge',
      ),
    );
  });

  it('a configuration that mixes stdio and HTTP settings is refused at construction', () => {
    const cases: Array<[UpstreamConfig, string]> = [
      [{ name: 'x' }, 'give either "command" (stdio) or "url" (HTTP), not both or neither'],
      [
        { name: 'x', command: 'a', url: 'http://h/' },
        'give either "command" (stdio) or "url" (HTTP), not both or neither',
      ],
      [{ name: 'x', url: 'ftp://h/' }, '"url" must be an http or https URL, got "ftp://h/"'],
      [
        { name: 'x', url: 'http://u:p@h/' },
        '"url" must not carry credentials: use "headers" or "credentials"',
      ],
      [
        { name: 'x', url: 'http://h/', args: [] },
        '"args" applies to a stdio upstream ("command"), not to "url"',
      ],
      [
        { name: 'x', command: 'a', headers: {} },
        '"headers" apply to an HTTP upstream ("url"), not to "command"',
      ],
      [
        { name: 'x', command: 'a', credentials: { kind: 'header', name: 'A', env: 'B' } },
        '"credentials" apply to an HTTP upstream ("url"); give a stdio upstream its secrets in "env"',
      ],
      [{ name: 'x', command: 'a', timeoutMs: 0 }, '"timeoutMs" must be a positive integer, got 0'],
      [
        { name: 'x', command: 'a', listTimeoutMs: 1.5 },
        '"listTimeoutMs" must be a positive integer, got 1.5',
      ],
    ];
    for (const [config, message] of cases) {
      assert.throws(
        () => new Upstream(config, { clientInfo: CLIENT_INFO, logger: silentLogger, handlers: {} }),
        configError(
          message.includes('tokenEndpoint') ? 'unsupported' : 'bad-config',
          `upstream "x": ${message}`,
        ),
      );
    }
  });
});
