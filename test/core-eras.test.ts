// Protocol core, the two eras: server/discover and per-request _meta (modern), initialize/ping/logging (legacy),
// and how one connection classifies each request.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SERVER_INFO_META,
  TEST_INFO,
  connect,
  initializeLegacy,
  isNotification,
  modern,
  modernMeta,
  testServer,
} from './support/harness.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const LEVELS_MESSAGE = 'debug, info, notice, warning, error, critical, alert, emergency';
const EMPTY_LIST = {
  tools: [],
  ttlMs: 0,
  cacheScope: 'public',
  resultType: 'complete',
  _meta: SERVER_INFO_META,
};
const CAPABILITIES_RESULT = { tools: { listChanged: true }, logging: {} };

/** A server with a tool that logs one message at each of four levels. */
function loggingServer() {
  const server = testServer();
  server.tool({
    name: 'chatty',
    handler: (_args, ctx) => {
      ctx.log('debug', 'debug line');
      ctx.log('info', 'info line');
      ctx.log('warning', { detail: 1 }, 'component');
      ctx.log('error', 'error line');
      return 'done';
    },
  });
  return server;
}

describe('core eras: modern per-request _meta', () => {
  it('B-32 server/discover returns versions, capabilities, cache hints, resultType and serverInfo', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('server/discover', modern(), { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      result: {
        resultType: 'complete',
        _meta: SERVER_INFO_META,
        supportedVersions: ['2026-07-28'],
        capabilities: CAPABILITIES_RESULT,
        ttlMs: 0,
        cacheScope: 'public',
      },
    });
  });

  it('B-32 server/discover carries instructions and the configured cache hints', async () => {
    const server = testServer({
      instructions: 'Use tools wisely.',
      discoverCache: { ttlMs: 60_000, cacheScope: 'private' },
    });
    const client = await connect(server);
    const { result } = await client.request('server/discover', modern());
    assert.equal(result?.instructions, 'Use tools wisely.');
    assert.equal(result?.ttlMs, 60_000);
    assert.equal(result?.cacheScope, 'private');
  });

  it('B-30 serverInfoInResults: false leaves serverInfo out of modern results', async () => {
    const client = await connect(testServer({ serverInfoInResults: false }));
    assert.deepEqual((await client.request('tools/list', modern())).result, {
      tools: [],
      ttlMs: 0,
      cacheScope: 'public',
      resultType: 'complete',
    });
  });

  it('B-25 a request without _meta (and no legacy session) gets -32602 naming both required keys', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('tools/list', {}, { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      error: {
        code: -32602,
        message: `Invalid params: missing params._meta; 2026-07-28 requests carry "${VERSION}" and "${CAPABILITIES}" there (or start a legacy session with initialize)`,
      },
    });
  });

  it('B-25 a request without params at all gets the same -32602', async () => {
    const client = await connect(testServer());
    const response = await client.request('server/discover', undefined, { id: 2 });
    assert.equal(response.error?.code, -32602);
    assert.match(response.error?.message ?? '', /^Invalid params: missing params\._meta;/);
  });

  it('B-25 _meta without protocolVersion gets -32602', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('tools/list', { _meta: { [CAPABILITIES]: {} } }, { id: 3 }), {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: `Invalid params: params._meta["${VERSION}"] is required` },
    });
  });

  it('B-25 _meta without clientCapabilities gets -32602', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('tools/list', { _meta: { [VERSION]: '2026-07-28' } }, { id: 4 }), {
      jsonrpc: '2.0',
      id: 4,
      error: {
        code: -32602,
        message: `Invalid params: params._meta["${CAPABILITIES}"] is required and must be an object ({} for none)`,
      },
    });
  });

  it('B-25 clientCapabilities that is not an object gets the same -32602', async () => {
    const client = await connect(testServer());
    const response = await client.request('tools/list', {
      _meta: { [VERSION]: '2026-07-28', [CAPABILITIES]: [] },
    });
    assert.equal(response.error?.code, -32602);
  });

  it('B-26 an unsupported version gets -32022 with data.supported and data.requested', async () => {
    const client = await connect(testServer());
    const params = { _meta: { [VERSION]: '1900-01-01', [CAPABILITIES]: {} } };
    assert.deepEqual(await client.request('tools/list', params, { id: 5 }), {
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32022,
        message: 'Unsupported protocol version: 1900-01-01',
        data: { supported: ['2026-07-28'], requested: '1900-01-01' },
      },
    });
  });

  it('B-26 a legacy version named in modern _meta is unsupported there too (-32022)', async () => {
    const client = await connect(testServer());
    const response = await client.request('tools/list', {
      _meta: { [VERSION]: '2025-11-25', [CAPABILITIES]: {} },
    });
    assert.deepEqual(response.error?.data, { supported: ['2026-07-28'], requested: '2025-11-25' });
  });

  it('L-17 an unrecognised logLevel gets -32602 listing the levels', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('tools/list', modern({}, { [LOG_LEVEL]: 'loud' }), { id: 6 }), {
      jsonrpc: '2.0',
      id: 6,
      error: {
        code: -32602,
        message: `Invalid params: params._meta["${LOG_LEVEL}"] must be one of ${LEVELS_MESSAGE}`,
      },
    });
  });

  it('PR-01 a progressToken that is neither string nor integer gets -32602', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('tools/list', modern({}, { progressToken: { a: 1 } }), { id: 7 }), {
      jsonrpc: '2.0',
      id: 7,
      error: {
        code: -32602,
        message: 'Invalid params: params._meta.progressToken must be a string or an integer',
      },
    });
  });

  for (const method of ['initialize', 'ping', 'logging/setLevel', 'resources/subscribe']) {
    it(`§1.3.8 ${method} carrying modern _meta is a removed method: -32601`, async () => {
      const client = await connect(testServer());
      assert.deepEqual(
        await client.request(method, modern({ protocolVersion: '2025-11-25', level: 'info' }), { id: 8 }),
        {
          jsonrpc: '2.0',
          id: 8,
          error: {
            code: -32601,
            message: `Method not found: ${method} is not part of protocol revision 2026-07-28`,
          },
        },
      );
    });
  }

  it('L-15 without logLevel a modern request gets no notifications/message', async () => {
    const client = await connect(loggingServer());
    await client.request('tools/call', modern({ name: 'chatty' }));
    assert.deepEqual(client.notifications(), []);
  });

  it('L-16 with logLevel "warning" a modern request gets only warning and above, before its response', async () => {
    const client = await connect(loggingServer());
    await client.request('tools/call', modern({ name: 'chatty' }, { [LOG_LEVEL]: 'warning' }), { id: 'c' });
    assert.deepEqual(client.received(), [
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: { detail: 1 }, logger: 'component' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'error line' } },
      {
        jsonrpc: '2.0',
        id: 'c',
        result: {
          resultType: 'complete',
          _meta: SERVER_INFO_META,
          content: [{ type: 'text', text: 'done' }],
        },
      },
    ]);
  });

  it('B-29 a log level is per request: the next request without one gets no log', async () => {
    const client = await connect(loggingServer());
    await client.request('tools/call', modern({ name: 'chatty' }, { [LOG_LEVEL]: 'debug' }));
    const before = client.notifications().length;
    await client.request('tools/call', modern({ name: 'chatty' }));
    assert.equal(before, 4);
    assert.equal(client.notifications().length, 4);
  });
});

describe('core eras: legacy initialize', () => {
  for (const revision of ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05']) {
    it(`L-03 initialize with ${revision} echoes it`, async () => {
      const client = await connect(testServer());
      assert.deepEqual(await initializeLegacy(client, revision), {
        jsonrpc: '2.0',
        id: 1,
        result: { protocolVersion: revision, capabilities: CAPABILITIES_RESULT, serverInfo: TEST_INFO },
      });
    });
  }

  for (const requested of ['1999-01-01', '2026-07-28']) {
    it(`L-03 initialize with ${requested} negotiates 2025-11-25, never 2026-07-28`, async () => {
      const client = await connect(testServer());
      const response = await initializeLegacy(client, requested);
      assert.equal(response.result?.protocolVersion, '2025-11-25');
    });
  }

  it('L-02 instructions are returned from 2025-03-26 on, not to 2024-11-05', async () => {
    const server = testServer({ instructions: 'Be brief.' });
    const recent = await initializeLegacy(await connect(server), '2025-03-26');
    const old = await initializeLegacy(await connect(server), '2024-11-05');
    assert.equal(recent.result?.instructions, 'Be brief.');
    assert.equal(old.result?.instructions, undefined);
  });

  it('L-02 initialize without protocolVersion gets -32602', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('initialize', { capabilities: {} }, { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: initialize needs params.protocolVersion (a string)' },
    });
  });

  it('L-01 a second initialize on the same connection is refused with -32600', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual(await client.request('initialize', { protocolVersion: '2025-06-18' }, { id: 'again' }), {
      jsonrpc: '2.0',
      id: 'again',
      error: { code: -32600, message: 'Invalid Request: this connection is already initialized' },
    });
  });

  it('L-11 ping is answered with {} before initialize', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('ping', undefined, { id: 0 }), {
      jsonrpc: '2.0',
      id: 0,
      result: {},
    });
  });

  it('L-11 ping is answered with {} inside a session', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(await client.request('ping', undefined, { id: 'p' }), {
      jsonrpc: '2.0',
      id: 'p',
      result: {},
    });
  });

  it('L-02 a legacy session serves tools/list without modern fields', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(await client.request('tools/list', {}, { id: 2 }), {
      jsonrpc: '2.0',
      id: 2,
      result: { tools: [] },
    });
  });

  it('L-14 logging/setLevel accepts a level and then notifications/message follow it', async () => {
    const client = await connect(loggingServer());
    await initializeLegacy(client, '2025-11-25');
    await client.request('tools/call', { name: 'chatty' });
    assert.deepEqual(client.notifications(), [], 'no level set: no log messages');
    assert.deepEqual(await client.request('logging/setLevel', { level: 'info' }, { id: 'lvl' }), {
      jsonrpc: '2.0',
      id: 'lvl',
      result: {},
    });
    await client.request('tools/call', { name: 'chatty' }, { id: 'call' });
    const tail = client.received().slice(-4);
    assert.deepEqual(tail, [
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'info line' } },
      {
        jsonrpc: '2.0',
        method: 'notifications/message',
        params: { level: 'warning', data: { detail: 1 }, logger: 'component' },
      },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'error line' } },
      { jsonrpc: '2.0', id: 'call', result: { content: [{ type: 'text', text: 'done' }] } },
    ]);
  });

  it('L-14 logging/setLevel with an unknown level gets -32602', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(await client.request('logging/setLevel', { level: 'loud' }, { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: `Invalid params: level must be one of ${LEVELS_MESSAGE}` },
    });
  });

  it('B-45 a request without _meta before initialize is a malformed modern request (-32602), not legacy', async () => {
    const client = await connect(testServer());
    const response = await client.request('tools/list', {});
    assert.equal(response.error?.code, -32602);
  });
});

describe('core eras: classification per request on one connection', () => {
  it('B-45 a modern request on a legacy connection is still handled statelessly', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-03-26');
    assert.deepEqual(await client.request('tools/list', modern(), { id: 'm' }), {
      jsonrpc: '2.0',
      id: 'm',
      result: EMPTY_LIST,
    });
    assert.deepEqual(await client.request('tools/list', {}, { id: 'l' }), {
      jsonrpc: '2.0',
      id: 'l',
      result: { tools: [] },
    });
  });

  it("B-29 a modern request on a legacy connection uses its own capabilities, not the session's", async () => {
    const server = testServer();
    server.tool({
      name: 'who',
      handler: (_args, ctx) => JSON.stringify({ version: ctx.protocolVersion, caps: ctx.clientCapabilities }),
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-06-18', { elicitation: {} });
    const modernCall = await client.request('tools/call', modern({ name: 'who' }));
    const legacyCall = await client.request('tools/call', { name: 'who' });
    assert.deepEqual(modernCall.result?.content, [
      { type: 'text', text: '{"version":"2026-07-28","caps":{}}' },
    ]);
    assert.deepEqual(legacyCall.result?.content, [
      { type: 'text', text: '{"version":"2025-06-18","caps":{"elicitation":{}}}' },
    ]);
  });

  it('L-16 a legacy session log level does not leak into modern requests on the same connection', async () => {
    const client = await connect(loggingServer());
    await initializeLegacy(client, '2025-11-25');
    await client.request('logging/setLevel', { level: 'debug' });
    await client.request('tools/call', modern({ name: 'chatty' }));
    assert.equal(client.notifications().filter(isNotification('notifications/message')).length, 0);
  });

  it('B-20 modern requests on one connection do not depend on each other: each is checked on its own', async () => {
    const client = await connect(testServer());
    assert.equal((await client.request('tools/list', modern())).error, undefined);
    const second = await client.request('tools/list', { _meta: { [VERSION]: '2026-07-28' } });
    assert.equal(second.error?.code, -32602);
    assert.equal((await client.request('tools/list', { _meta: modernMeta() })).error, undefined);
  });
});
