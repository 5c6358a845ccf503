// API keys at a real HTTP edge (127.0.0.1, port 0), on both eras: a good key in Authorization: Bearer or X-API-Key
// reaches the tool as its caller; a wrong secret and an unknown id get byte-identical 401s (no id oracle); an expired
// key is told so; a key in the URL is refused (B3) and never echoed; a legacy session answers only its own key.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../../server/index.js';
import { listenHttp, type HttpListening } from '../../transports/http/index.js';
import { apiKeys, createApiKey } from './api-keys.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const ACCEPT = 'application/json, text/event-stream';
const NOW = Date.parse('2026-11-27T12:00:00Z');

const alice = createApiKey({ subject: 'alice', scopes: ['calc'], label: 'laptop' });
const bob = createApiKey({ subject: 'bob', scopes: [] });
const old = createApiKey({ subject: 'old', scopes: [], expires: '2026-11-01T00:00:00Z' });
const wrongSecret = `${alice.key.slice(0, alice.key.indexOf('_', 4) + 1)}${'Q'.repeat(43)}`;
const unknownId = alice.key.replace(alice.record.id, 'zzzzzzzzzzzzzzzz');

const modernCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: {
    name: 'whoami',
    arguments: {},
    _meta: {
      'io.modelcontextprotocol/protocolVersion': MODERN,
      'io.modelcontextprotocol/clientCapabilities': {},
    },
  },
});
const modernHeaders = {
  'content-type': 'application/json',
  accept: ACCEPT,
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': 'whoami',
};

interface Answer {
  status: number;
  challenge: string | null;
  body: string;
  session: string | null;
}

async function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return {
    status: response.status,
    challenge: response.headers.get('www-authenticate'),
    body: await response.text(),
    session: response.headers.get('mcp-session-id'),
  };
}

const textOf = (body: string): string =>
  (JSON.parse(body) as { result: { content: Array<{ text: string }> } }).result.content[0]?.text ?? '';
const errorBody = (message: string): string =>
  JSON.stringify({ jsonrpc: '2.0', error: { code: -32600, message } });
const INVALID = 'Bearer realm="mcp", error="invalid_token"';

describe('API keys at the HTTP edge', () => {
  let listening: HttpListening;
  before(async () => {
    const server = new McpServer({ name: 'keys', version: '1.0.0' }, { logger: silentLogger });
    server.tool({
      name: 'whoami',
      description: 'Says who is calling',
      inputSchema: { type: 'object', properties: {} },
      handler: (_args, ctx) =>
        `${ctx.auth?.subject} via ${ctx.auth?.via} key ${String(ctx.auth?.claims?.keyId)} scopes ${ctx.auth?.scopes.join(',')}`,
    });
    const keys = apiKeys({ keys: [alice.record, bob.record, old.record], now: () => NOW });
    listening = await listenHttp(server, { authenticate: keys.authenticate, logger: silentLogger });
  });
  after(() => listening.close());

  const modern = (credential: Record<string, string>, query = ''): Promise<Answer> =>
    post(`${listening.url}${query}`, { ...modernHeaders, ...credential }, modernCall);

  it('modern: a good key in Authorization: Bearer or X-API-Key reaches the tool as its caller', async () => {
    for (const credential of [{ authorization: `Bearer ${alice.key}` }, { 'x-api-key': alice.key }]) {
      const answer = await modern(credential);
      assert.equal(answer.status, 200, answer.body);
      assert.equal(textOf(answer.body), `alice via api-key key ${alice.record.id} scopes calc`);
    }
  });

  it('modern: a wrong secret and an unknown id get the same 401, byte for byte, and the key is not echoed', async () => {
    const wrong = await modern({ authorization: `Bearer ${wrongSecret}` });
    assert.deepEqual(wrong, {
      status: 401,
      challenge: INVALID,
      body: errorBody('Unauthorized: the API key is not valid'),
      session: null,
    });
    assert.deepEqual(await modern({ authorization: `Bearer ${unknownId}` }), wrong);
    assert.deepEqual(await modern({ 'x-api-key': unknownId }), wrong);
    assert.deepEqual(await modern({ 'x-api-key': 'twk_not-even-a-key' }), wrong);
  });

  it('modern: no credential gets the bare challenge; an expired key is told it expired', async () => {
    const none = await modern({});
    assert.equal(none.status, 401);
    assert.equal(none.challenge, 'Bearer realm="mcp"');
    const expired = await modern({ 'x-api-key': old.key });
    assert.equal(expired.status, 401);
    assert.equal(expired.challenge, `${INVALID}, error_description="the API key has expired"`);
    assert.equal(expired.body, errorBody('Unauthorized: the API key has expired'));
  });

  it('B3: a key in the query string is refused (even beside a good header) and appears nowhere in the answer', async () => {
    for (const query of [`?api_key=${alice.key}`, `?API_KEY=${alice.key}`, `?access_token=${alice.key}`]) {
      const answer = await modern({ authorization: `Bearer ${alice.key}` }, query);
      assert.equal(answer.status, 401, query);
      assert.match(
        answer.challenge ?? '',
        /^Bearer realm="mcp", error="invalid_request", error_description="credentials in the URL are refused/,
      );
      const secret = alice.key.slice(alice.key.indexOf('_', 4) + 1);
      assert.ok(!answer.body.includes(secret) && !(answer.challenge ?? '').includes(secret), query);
    }
  });

  it('B6 legacy: a session opened with a key answers that key; a wrong secret gets 401 and another key 404', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
    });
    const base = { 'content-type': 'application/json', accept: ACCEPT };
    const opened = await post(listening.url, { ...base, 'x-api-key': alice.key }, initialize);
    assert.equal(opened.status, 200, opened.body);
    const session = { ...base, 'mcp-session-id': opened.session ?? '', 'mcp-protocol-version': LEGACY };
    await post(
      listening.url,
      { ...session, 'x-api-key': alice.key },
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    );
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'whoami', arguments: {} },
    });

    const mine = await post(listening.url, { ...session, authorization: `Bearer ${alice.key}` }, call);
    assert.equal(mine.status, 200, mine.body);
    assert.equal(textOf(mine.body), `alice via api-key key ${alice.record.id} scopes calc`);

    const forged = await post(listening.url, { ...session, 'x-api-key': wrongSecret }, call);
    assert.equal(forged.status, 401);
    assert.equal(forged.challenge, INVALID);
    const other = await post(listening.url, { ...session, 'x-api-key': bob.key }, call);
    assert.equal(other.status, 404, other.body);
    const expired = await post(listening.url, { ...session, 'x-api-key': old.key }, call);
    assert.equal(expired.status, 401);
  });
});
