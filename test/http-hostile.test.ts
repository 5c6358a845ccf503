// Streamable HTTP under hostile or malformed input: every rejection is checked for its exact HTTP status, JSON-RPC
// error code and id echo. Real HTTP on 127.0.0.1 (port 0), raw node:http requests so that every header and byte
// is ours to choose.

import assert from 'node:assert/strict';
import { request as httpRequest, Agent, createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpListening, type HttpOptions } from '../src/transports/http/index.js';
import { HttpCore } from '../src/transports/http/core.js';
import { fetchListener } from '../src/transports/http/fetch-adapter.js';
import { nodeListener } from '../src/transports/http/node-adapter.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { deferred } from './support/harness.js';
import { waitFor } from './support/poll.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ACCEPT_BOTH = 'application/json, text/event-stream';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

interface RawOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  agent?: Agent;
}

/** One HTTP request with exactly these headers and bytes. */
function raw(url: string, options: RawOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: options.method ?? 'POST',
        headers: options.headers,
        ...(options.agent && { agent: options.agent }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

const modernHeaders = (method: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'content-type': 'application/json',
  accept: ACCEPT_BOTH,
  'mcp-protocol-version': MODERN,
  'mcp-method': method,
  ...extra,
});

const modernBody = (id: number, method: string, params: Record<string, unknown> = {}): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: META } });

/** Asserts the status, the JSON-RPC error code and the id echo (undefined: the body must have no id). */
function assertRpcError(
  res: RawResponse,
  status: number,
  code: number,
  id?: number,
): Record<string, unknown> {
  assert.equal(res.status, status, res.body);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  const body = JSON.parse(res.body) as { id?: unknown; error: { code: number; message: string } };
  assert.equal(body.error.code, code, res.body);
  assert.ok(body.error.message.length > 0);
  if (id === undefined) assert.ok(!('id' in body), `no id expected: ${res.body}`);
  else assert.equal(body.id, id);
  return body.error as unknown as Record<string, unknown>;
}

/** A promise with its resolver, for waiting on events. */

function makeServer(): {
  server: McpServer;
  started: () => Promise<void>;
  aborted: () => Promise<void>;
} {
  const server = new McpServer({ name: 'hostile', version: '1.0.0' }, { logger: silentLogger });
  let start = deferred();
  let abort = deferred();
  server.tool({
    name: 'echo',
    description: 'Echoes text',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    handler: (args) => (args as { text: string }).text,
  });
  server.tool({
    name: 'mirrored',
    description: 'Has x-mcp-header arguments',
    inputSchema: {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        count: { type: 'integer', 'x-mcp-header': 'Count' },
        loud: { type: 'boolean', 'x-mcp-header': 'Loud' },
      },
    },
    handler: (args) => JSON.stringify(args),
  });
  server.tool({
    name: 'wait_for_abort',
    description: 'Runs until its signal aborts',
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          abort.resolve();
          resolve('aborted');
        });
        start.resolve();
      }),
  });
  return {
    server,
    started: async () => {
      await start.promise;
      start = deferred();
    },
    aborted: async () => {
      await abort.promise;
      abort = deferred();
    },
  };
}

describe('HTTP: hostile input on the modern wire', () => {
  let listening: HttpListening;
  let url: string;
  const fixture = makeServer();

  before(async () => {
    listening = await listenHttp(fixture.server, { maxBodyBytes: 64 * 1024, logger: silentLogger });
    url = listening.url;
  });
  after(() => listening.close());

  it('rejects a wrong Content-Type with 415', async () => {
    const res = await raw(url, {
      headers: { ...modernHeaders('tools/list'), 'content-type': 'text/plain' },
      body: modernBody(1, 'tools/list'),
    });
    assertRpcError(res, 415, -32600);
  });

  it('rejects a missing or incomplete Accept with 406 and says what to send', async () => {
    const headers = modernHeaders('tools/list');
    delete headers.accept;
    const missing = await raw(url, { headers, body: modernBody(1, 'tools/list') });
    const error = assertRpcError(missing, 406, -32600);
    assert.match(String(error.message), /application\/json and text\/event-stream/);
    const jsonOnly = await raw(url, {
      headers: { ...headers, accept: 'application/json' },
      body: modernBody(1, 'tools/list'),
    });
    assertRpcError(jsonOnly, 406, -32600);
  });

  it('rejects an oversize body with 413, by Content-Length and while streaming', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { pad: 'x'.repeat(70_000) },
    });
    const declared = await raw(url, { headers: modernHeaders('tools/list'), body: big });
    assertRpcError(declared, 413, -32600);
    assert.equal(declared.headers.connection, 'close');
    const streamed = await new Promise<RawResponse>((resolve, reject) => {
      const req = httpRequest(url, { method: 'POST', headers: modernHeaders('tools/list') }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      // No Content-Length: chunked, so only counting the bytes can catch it.
      req.write(big.slice(0, 40_000));
      req.end(big.slice(40_000));
    });
    assertRpcError(streamed, 413, -32600);
  });

  it('rejects JSON nested deeper than 64 levels with 400 before parsing', async () => {
    const deep =
      '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"a":' +
      '['.repeat(100) +
      ']'.repeat(100) +
      '}}';
    assertRpcError(await raw(url, { headers: modernHeaders('tools/list'), body: deep }), 400, -32600);
  });

  it('rejects malformed JSON with 400 -32700 and an invalid message with 400 and its id', async () => {
    assertRpcError(
      await raw(url, { headers: modernHeaders('tools/list'), body: '{"jsonrpc":' }),
      400,
      -32700,
    );
    const invalid = JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' });
    assertRpcError(await raw(url, { headers: modernHeaders('tools/list'), body: invalid }), 400, -32600, 7);
  });

  it('rejects a MCP-Protocol-Version that differs from _meta, or is missing, with 400 -32020', async () => {
    const mismatch = await raw(url, {
      headers: modernHeaders('tools/list', { 'mcp-protocol-version': '2025-11-25' }),
      body: modernBody(11, 'tools/list'),
    });
    assertRpcError(mismatch, 400, -32020, 11);
    const headers = modernHeaders('tools/list');
    delete headers['mcp-protocol-version'];
    assertRpcError(await raw(url, { headers, body: modernBody(12, 'tools/list') }), 400, -32020, 12);
  });

  it('answers an unsupported version (header and _meta agree) with 400 -32022 and the supported list', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 13,
      method: 'tools/list',
      params: { _meta: { ...META, 'io.modelcontextprotocol/protocolVersion': 'v999.0.0' } },
    });
    const res = await raw(url, {
      headers: modernHeaders('tools/list', { 'mcp-protocol-version': 'v999.0.0' }),
      body,
    });
    const error = assertRpcError(res, 400, -32022, 13);
    assert.deepEqual(error.data, { supported: [MODERN], requested: 'v999.0.0' });
  });

  it('answers a missing _meta with 400 -32602', async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 14, method: 'server/discover', params: {} });
    assertRpcError(await raw(url, { headers: modernHeaders('server/discover'), body }), 400, -32602, 14);
  });

  it('rejects an Mcp-Method that differs from the body or is missing with 400 -32020', async () => {
    const wrong = await raw(url, {
      headers: modernHeaders('prompts/list'),
      body: modernBody(21, 'tools/list'),
    });
    assertRpcError(wrong, 400, -32020, 21);
    const upper = await raw(url, {
      headers: modernHeaders('TOOLS/LIST'),
      body: modernBody(22, 'tools/list'),
    });
    assertRpcError(upper, 400, -32020, 22);
    const headers = modernHeaders('tools/list');
    delete headers['mcp-method'];
    assertRpcError(await raw(url, { headers, body: modernBody(23, 'tools/list') }), 400, -32020, 23);
  });

  it('checks Mcp-Name: mismatch and absence are 400 -32020; padding and Base64 are accepted', async () => {
    const body = modernBody(31, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    assertRpcError(
      await raw(url, { headers: modernHeaders('tools/call', { 'mcp-name': 'wrong_tool' }), body }),
      400,
      -32020,
      31,
    );
    assertRpcError(await raw(url, { headers: modernHeaders('tools/call'), body }), 400, -32020, 31);
    const padded = await raw(url, { headers: modernHeaders('tools/call', { 'mcp-name': '  echo  ' }), body });
    assert.equal(padded.status, 200, padded.body);
    const encoded = await raw(url, {
      headers: modernHeaders('tools/call', {
        'mcp-name': `=?base64?${Buffer.from('echo').toString('base64')}?=`,
      }),
      body,
    });
    assert.equal(encoded.status, 200, encoded.body);
    assert.match(encoded.body, /"text":"hi"/);
    // The tasks extension routes on Mcp-Name = params.taskId; a wrong one is rejected before any handler runs.
    const task = await raw(url, {
      headers: modernHeaders('tasks/get', { 'mcp-name': 'another-task' }),
      body: modernBody(32, 'tasks/get', { taskId: 'task-1' }),
    });
    assertRpcError(task, 400, -32020, 32);
  });

  describe('Mcp-Param-* headers', () => {
    const call = (
      id: number,
      args: Record<string, unknown>,
      params: Record<string, string>,
    ): Promise<RawResponse> =>
      raw(url, {
        headers: modernHeaders('tools/call', { 'mcp-name': 'mirrored', ...params }),
        body: modernBody(id, 'tools/call', { name: 'mirrored', arguments: args }),
      });

    it('accepts matching headers, Base64-encoded values and numerically equal integers', async () => {
      const plain = await call(
        40,
        { region: 'us-west1', count: 42, loud: true },
        {
          'mcp-param-region': 'us-west1',
          'MCP-PARAM-COUNT': '42.0',
          'mcp-param-loud': 'true',
        },
      );
      assert.equal(plain.status, 200, plain.body);
      assert.match(plain.body, /us-west1/);
      const encoded = await call(
        41,
        { region: 'Hello, 世界' },
        {
          'mcp-param-region': `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`,
        },
      );
      assert.equal(encoded.status, 200, encoded.body);
      const literal = await call(
        42,
        { region: '=?base64?SGVsbG8=' },
        { 'mcp-param-region': '=?base64?SGVsbG8=' },
      );
      assert.equal(literal.status, 200, literal.body);
    });

    it('rejects a missing header when the argument has a value (400 -32020)', async () => {
      assertRpcError(await call(43, { region: 'eu' }, {}), 400, -32020, 43);
    });

    it('rejects a header without an argument value, and allows none for null', async () => {
      assertRpcError(await call(44, {}, { 'mcp-param-region': 'eu' }), 400, -32020, 44);
      const nulled = await call(45, { region: null }, {});
      assert.equal(nulled.status, 200, nulled.body);
    });

    it('rejects mismatched strings, integers and booleans (400 -32020)', async () => {
      assertRpcError(await call(46, { region: 'eu' }, { 'mcp-param-region': 'us' }), 400, -32020, 46);
      assertRpcError(await call(47, { count: 42 }, { 'mcp-param-count': '43' }), 400, -32020, 47);
      assertRpcError(await call(48, { count: 42 }, { 'mcp-param-count': '0x2a' }), 400, -32020, 48);
      assertRpcError(await call(49, { loud: true }, { 'mcp-param-loud': 'TRUE' }), 400, -32020, 49);
    });

    it('rejects bad Base64 (missing padding, foreign characters) and non-ASCII values (400 -32020)', async () => {
      assertRpcError(
        await call(50, { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVsbG8?=' }),
        400,
        -32020,
        50,
      );
      assertRpcError(
        await call(51, { region: 'Hello' }, { 'mcp-param-region': '=?base64?SGVs!!!bG8=?=' }),
        400,
        -32020,
        51,
      );
      // \xe9 travels as one Latin-1 byte: not visible ASCII, so it must have been Base64-encoded.
      assertRpcError(await call(52, { region: 'café' }, { 'mcp-param-region': 'caf\xe9' }), 400, -32020, 52);
    });
  });

  it('maps unknown methods to 404 -32601 and handler errors (unknown tool) to 200', async () => {
    assertRpcError(
      await raw(url, { headers: modernHeaders('ping'), body: modernBody(60, 'ping') }),
      404,
      -32601,
      60,
    );
    const unknown = await raw(url, {
      headers: modernHeaders('tools/call', { 'mcp-name': 'nope' }),
      body: modernBody(61, 'tools/call', { name: 'nope' }),
    });
    assertRpcError(unknown, 200, -32602, 61);
  });

  it('accepts a notification with 202 and no body, and refuses batches and responses with 400', async () => {
    const note = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 1, _meta: META },
    });
    const accepted = await raw(url, { headers: modernHeaders('notifications/cancelled'), body: note });
    assert.equal(accepted.status, 202);
    assert.equal(accepted.body, '');
    const batch = `[${modernBody(70, 'tools/list')}]`;
    assertRpcError(await raw(url, { headers: modernHeaders('tools/list'), body: batch }), 400, -32600);
    const response = JSON.stringify({ jsonrpc: '2.0', id: 71, result: {} });
    assertRpcError(await raw(url, { headers: modernHeaders('tools/list'), body: response }), 400, -32600, 71);
  });

  it('rejects a foreign Host with 421 and a foreign Origin with 403, with id-less errors', async () => {
    const body = modernBody(80, 'server/discover');
    const evilHost = await raw(url, {
      headers: {
        ...modernHeaders('server/discover'),
        host: 'evil.example.com',
        origin: 'http://evil.example.com',
      },
      body,
    });
    assertRpcError(evilHost, 421, -32600);
    const evilOrigin = await raw(url, {
      headers: { ...modernHeaders('server/discover'), origin: 'http://evil.example.com' },
      body,
    });
    assertRpcError(evilOrigin, 403, -32600);
    assertRpcError(
      await raw(url, { headers: { ...modernHeaders('server/discover'), origin: 'null' }, body }),
      403,
      -32600,
    );
    const otherLocalPort = await raw(url, {
      headers: { ...modernHeaders('server/discover'), origin: 'http://localhost:1' },
      body,
    });
    assertRpcError(otherLocalPort, 403, -32600);
    const host = new URL(url).host;
    const own = await raw(url, {
      headers: { ...modernHeaders('server/discover'), host, origin: `http://${host}` },
      body,
    });
    assert.equal(own.status, 200, own.body);
    assert.equal(own.headers['access-control-allow-origin'], undefined); // CORS stays off unless configured
  });

  it('A1: an Origin that matches only the host (another scheme or port) is refused with 403; the exact origin passes', async () => {
    const body = modernBody(81, 'server/discover');
    const host = new URL(url).host;
    const port = Number(new URL(url).port);
    for (const origin of [`https://${host}`, `http://127.0.0.1:${port + 1}`, 'http://127.0.0.1']) {
      const refused = await raw(url, {
        headers: { ...modernHeaders('server/discover'), host, origin },
        body,
      });
      const error = assertRpcError(refused, 403, -32600);
      assert.equal(
        error.message,
        `Forbidden: Origin ${JSON.stringify(origin)} is not allowed (see allowedOrigins)`,
      );
    }
    const own = await raw(url, {
      headers: { ...modernHeaders('server/discover'), host, origin: `http://${host}` },
      body,
    });
    assert.equal(own.status, 200, own.body);
  });

  it('A1: the fetch handler compares the scheme of the URL it was called with', async () => {
    const { server } = makeServer();
    const core = new HttpCore(server, resolveHttpOptions(server, { logger: silentLogger }));
    const handle = fetchListener(core);
    const call = (requestUrl: string, origin: string): Promise<Response> =>
      handle(
        new Request(requestUrl, {
          method: 'POST',
          headers: { ...modernHeaders('server/discover'), origin },
          body: modernBody(82, 'server/discover'),
        }),
      );
    try {
      assert.equal((await call('https://localhost:8443/mcp', 'http://localhost:8443')).status, 403);
      assert.equal((await call('https://localhost:8443/mcp', 'https://localhost:8443')).status, 200);
    } finally {
      await core.close();
    }
  });

  it('refuses a Content-Type whose charset is not UTF-8 with 415 saying so; utf-8, UTF-8, "utf-8" and none pass', async () => {
    const body = modernBody(83, 'tools/list');
    for (const [contentType, charset] of [
      ['application/json; charset=latin1', 'latin1'],
      ['application/json;charset=ISO-8859-1', 'ISO-8859-1'],
      ['application/json; charset="utf-16"', 'utf-16'],
    ] as const) {
      const refused = await raw(url, {
        headers: { ...modernHeaders('tools/list'), 'content-type': contentType },
        body,
      });
      const error = assertRpcError(refused, 415, -32600);
      assert.equal(
        error.message,
        `Unsupported Media Type: POST bodies must be UTF-8 JSON, but the Content-Type names charset ${JSON.stringify(charset)} (send charset=utf-8 or no charset)`,
      );
    }
    for (const contentType of [
      'application/json; charset=utf-8',
      'application/json; charset=UTF-8',
      'Application/JSON;charset="utf-8"',
      'application/json',
    ]) {
      const served = await raw(url, {
        headers: { ...modernHeaders('tools/list'), 'content-type': contentType },
        body,
      });
      assert.equal(served.status, 200, `${contentType}: ${served.body}`);
    }
    const plain = await raw(url, {
      headers: { ...modernHeaders('tools/list'), 'content-type': 'text/plain; charset=utf-8' },
      body,
    });
    assert.equal(
      assertRpcError(plain, 415, -32600).message,
      'Unsupported Media Type: POST bodies must be Content-Type: application/json',
    );
  });

  it('answers GET, DELETE and PUT without a session with 405', async () => {
    for (const method of ['GET', 'DELETE', 'PUT']) {
      const res = await raw(url, { method, headers: { accept: 'text/event-stream' } });
      assertRpcError(res, 405, -32600);
      assert.ok(res.headers.allow);
    }
  });

  it('aborts the handler signal when the client disconnects mid-call', async () => {
    const req = httpRequest(url, {
      method: 'POST',
      headers: modernHeaders('tools/call', { 'mcp-name': 'wait_for_abort' }),
    });
    req.on('error', () => undefined); // the reset is ours
    req.end(modernBody(90, 'tools/call', { name: 'wait_for_abort' }));
    await fixture.started();
    req.destroy();
    await fixture.aborted();
  });
});

describe('HTTP: legacy sessions under hostile input', () => {
  let listening: HttpListening;
  let url: string;
  const fixture = makeServer();
  const legacyHeaders = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
  const init = (id = 1): string =>
    JSON.stringify({
      jsonrpc: '2.0',
      id,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    });

  before(async () => {
    listening = await listenHttp(fixture.server, { logger: silentLogger });
    url = listening.url;
  });
  after(() => listening.close());

  it('requires a session id (400) and refuses unknown ones (404), echoing the id', async () => {
    const list = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' });
    assertRpcError(await raw(url, { headers: legacyHeaders, body: list }), 400, -32600, 5);
    const unknown = await raw(url, {
      headers: { ...legacyHeaders, 'mcp-session-id': 'no-such-session' },
      body: list,
    });
    assertRpcError(unknown, 404, -32600, 5);
    const get = await raw(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': 'nope' },
    });
    assertRpcError(get, 404, -32600);
  });

  it('ends a session on DELETE; a second DELETE and later requests get 404', async () => {
    const opened = await raw(url, { headers: legacyHeaders, body: init() });
    assert.equal(opened.status, 200, opened.body);
    const session = String(opened.headers['mcp-session-id']);
    assert.match(session, /^[\x21-\x7e]{16,}$/);
    const first = await raw(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
    assert.equal(first.status, 200);
    assertRpcError(await raw(url, { method: 'DELETE', headers: { 'mcp-session-id': session } }), 404, -32600);
    const list = JSON.stringify({ jsonrpc: '2.0', id: 6, method: 'tools/list' });
    assertRpcError(
      await raw(url, { headers: { ...legacyHeaders, 'mcp-session-id': session }, body: list }),
      404,
      -32600,
      6,
    );
  });

  it('refuses a non-legacy MCP-Protocol-Version on session requests with 400', async () => {
    const opened = await raw(url, { headers: legacyHeaders, body: init() });
    const session = String(opened.headers['mcp-session-id']);
    const get = await raw(url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': session,
        'mcp-protocol-version': '1999-01-01',
      },
    });
    assertRpcError(get, 400, -32600);
    await raw(url, { method: 'DELETE', headers: { 'mcp-session-id': session } });
  });

  it('does not treat a legacy disconnect as cancellation; notifications/cancelled cancels', async () => {
    const opened = await raw(url, { headers: legacyHeaders, body: init() });
    const session = String(opened.headers['mcp-session-id']);
    const headers = { ...legacyHeaders, 'mcp-session-id': session };
    const req = httpRequest(url, { method: 'POST', headers });
    req.on('error', () => undefined);
    req.end(
      JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/call', params: { name: 'wait_for_abort' } }),
    );
    await fixture.started();
    req.destroy();
    let abortedEarly = false;
    const aborted = fixture.aborted().then(() => (abortedEarly = true));
    // A full request round trip after the disconnect: had the disconnect cancelled, the abort would be in by now.
    await raw(url, { headers, body: JSON.stringify({ jsonrpc: '2.0', id: 10, method: 'ping' }) });
    assert.equal(abortedEarly, false);
    const cancel = JSON.stringify({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 9 },
    });
    assert.equal((await raw(url, { headers, body: cancel })).status, 202);
    await aborted;
  });
});

describe('HTTP: opt-ins and opt-outs', () => {
  it('sends CORS headers only to configured origins, and answers their preflight', async () => {
    const { server } = makeServer();
    const listening = await listenHttp(server, {
      cors: { origins: ['https://app.example.com'] },
      logger: silentLogger,
    });
    try {
      const preflight = await raw(listening.url, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-method, mcp-param-region',
        },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example.com');
      assert.equal(
        preflight.headers['access-control-allow-headers'],
        'content-type, mcp-method, mcp-param-region',
      );
      const allowed = await raw(listening.url, {
        headers: { ...modernHeaders('tools/list'), origin: 'https://app.example.com' },
        body: modernBody(1, 'tools/list'),
      });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers['access-control-allow-origin'], 'https://app.example.com');
      assert.match(String(allowed.headers['access-control-expose-headers']), /Mcp-Session-Id/);
      const other = await raw(listening.url, {
        headers: { ...modernHeaders('tools/list'), origin: 'https://other.example.com' },
        body: modernBody(2, 'tools/list'),
      });
      assertRpcError(other, 403, -32600);
      assert.equal(other.headers['access-control-allow-origin'], undefined);
    } finally {
      await listening.close();
    }
  });

  it('turning DNS rebinding protection off takes an explicit option and logs a warning', async () => {
    const { server } = makeServer();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const listening = await listenHttp(server, { dnsRebindingProtection: false, logger });
    try {
      assert.equal(warnings.length, 1);
      assert.match(warnings[0] ?? '', /dnsRebindingProtection is off/);
      const res = await raw(listening.url, {
        headers: {
          ...modernHeaders('tools/list'),
          host: 'evil.example.com',
          origin: 'http://evil.example.com',
        },
        body: modernBody(1, 'tools/list'),
      });
      assert.equal(res.status, 200);
    } finally {
      await listening.close();
    }
  });

  it('warns when bound beyond loopback without allowedHosts (the Host cannot be checked)', async () => {
    const { server } = makeServer();
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    resolveHttpOptions(server, { logger }, false);
    assert.match(warnings.join('\n'), /non-loopback address without allowedHosts/);
    assert.throws(() => resolveHttpOptions(server, { maxBodyBytes: -1 }), /positive integer/);
  });
});

describe('HTTP: limits', () => {
  // A request's time limit is the pipeline's (extra.timeLimit): see http-edge-time-limit.test.ts.

  it('expires 1,000 abandoned sessions (idleTimeoutMs 200) and memory returns near baseline', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // All from loopback, one address: the per-address cap is lifted so that 1,000 sessions really are open.
    const flood = await floodServer({
      legacy: { idleTimeoutMs: 200, maxSessionsPerAddress: 1000 },
      logger: silentLogger,
    });
    /** Opens 1,000 sessions, abandons them, waits for expiry; returns the heap in use afterwards. */
    const round = async (): Promise<number> => {
      const responses = await Promise.all(Array.from({ length: 1000 }, flood.open));
      for (const res of responses) assert.equal(res.status, 200, res.body);
      assert.ok(flood.core.sessionCount > 0);
      flood.disconnect();
      await waitFor(() => flood.core.sessionCount === 0, 10_000);
      gc();
      return process.memoryUsage().heapUsed;
    };
    try {
      const baseline = await round(); // the first round also warms up code and caches
      const growth = (await round()) - baseline;
      assert.ok(
        growth < 512 * 1024,
        `heap grew by ${growth} bytes after a second round of 1,000 sessions expired`,
      );
    } finally {
      await flood.close();
    }
  });
  // A full registry no longer refuses: see http-session-flood.test.ts (the longest-idle session makes room).
});

/** A server whose core is visible (session count), and a keep-alive agent that opens legacy sessions. */
async function floodServer(options: HttpOptions): Promise<{
  core: HttpCore;
  open: () => Promise<RawResponse>;
  /** Closes the client's keep-alive sockets (their buffers would count as heap). */
  disconnect: () => void;
  close: () => Promise<void>;
}> {
  const { server } = makeServer();
  const core = new HttpCore(server, resolveHttpOptions(server, options));
  const httpServer = createServer(nodeListener(core));
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  let agent = new Agent({ keepAlive: true, maxSockets: 32 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  });
  return {
    core,
    open: () =>
      raw(url, { headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH }, body, agent }),
    disconnect: () => {
      agent.destroy();
      agent = new Agent({ keepAlive: true, maxSockets: 32 });
    },
    close: async () => {
      agent.destroy();
      await core.close();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    },
  };
}

/** Polls a condition on the event loop until it holds or the deadline passes (bounded). */
