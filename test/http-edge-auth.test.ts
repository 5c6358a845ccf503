// The authenticate hook at the HTTP edge (issue 14, threats B4 and A3): a challenge is its status with its
// WWW-Authenticate on the node adapter and the fetch handler alike, answered before any body is read; a caller
// reaches the handler as ctx.auth; a hook that throws or answers nonsense is 500 with a neutral message. Real HTTP on
// 127.0.0.1 (port 0) for the node adapter, the fetch handler called directly.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger, type Logger } from '../src/index.js';
import type { Caller } from '../src/protocol/index.js';
import {
  createFetchHandler,
  createNodeHandler,
  listenHttp,
  type HttpAuthenticate,
  type HttpChallenge,
  type HttpListening,
  type HttpRequestInfo,
} from '../src/transports/http/index.js';
import { HttpCore } from '../src/transports/http/core.js';
import { nodeListener } from '../src/transports/http/node-adapter.js';
import { createNodeServer } from '../src/transports/http/node-server.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { head, open } from './support/raw-socket.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ALICE: Caller = Object.freeze({
  subject: 'alice',
  via: 'bearer',
  scopes: Object.freeze(['files:read']),
});
const CHALLENGE =
  'Bearer resource_metadata="https://mcp.example/.well-known/oauth-protected-resource/mcp", scope="files:read"';
const UNAUTHORIZED = {
  jsonrpc: '2.0',
  error: {
    code: -32600,
    message: 'Unauthorized: this server needs valid credentials (see the WWW-Authenticate header)',
  },
};
const NEUTRAL = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}';

/** Alice's token passes; anything else is challenged the way RFC 9728 and the MCP spec ask. */
const authenticate = (request: HttpRequestInfo): Caller | HttpChallenge =>
  request.header('Authorization') === 'Bearer alice-token'
    ? ALICE
    : { status: 401, headers: { 'WWW-Authenticate': CHALLENGE } };

function makeServer(): McpServer {
  const server = new McpServer({ name: 'edge', version: '1.0.0' }, { logger: silentLogger });
  server.tool({
    name: 'whoami',
    description: 'Says who is calling',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.via}`,
  });
  return server;
}

const callHeaders = (token?: string): Record<string, string> => ({
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

/** The text of a tools/call result. */
async function resultText(response: Response): Promise<string> {
  const body = (await response.json()) as { result?: { content: Array<{ text: string }> } };
  assert.ok(body.result !== undefined, JSON.stringify(body));
  return body.result.content[0]?.text ?? '';
}

/** A logger that keeps its error lines (message and details). */
function errorLog(): { logger: Logger; errors: Array<[string, unknown]> } {
  const errors: Array<[string, unknown]> = [];
  return {
    logger: { ...silentLogger, error: (message, details) => errors.push([message, details]) },
    errors,
  };
}

describe('HTTP edge: authenticate on the node adapter', () => {
  let listening: HttpListening;
  before(async () => {
    listening = await listenHttp(makeServer(), { authenticate, logger: silentLogger });
  });
  after(() => listening.close());

  it("B4: no credentials → 401 with the hook's WWW-Authenticate and a JSON-RPC error body", async () => {
    const response = await fetch(listening.url, { method: 'POST', headers: callHeaders(), body: CALL });
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), CHALLENGE);
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.deepEqual(await response.json(), UNAUTHORIZED);
  });

  it('a caller that passes reaches the tool as ctx.auth', async () => {
    const response = await fetch(listening.url, {
      method: 'POST',
      headers: callHeaders('alice-token'),
      body: CALL,
    });
    assert.equal(response.status, 200);
    assert.equal(await resultText(response), 'alice via bearer');
  });

  it('GET and DELETE on the endpoint are authenticated too (before any session lookup)', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(listening.url, { method, headers: { 'mcp-session-id': 'x' } });
      assert.equal(response.status, 401, method);
      assert.equal(response.headers.get('www-authenticate'), CHALLENGE);
    }
  });
});

describe('HTTP edge: authenticate on the fetch handler', () => {
  // An asynchronous hook, as one that verifies a JWT against a JWKS would be.
  const handle = createFetchHandler(makeServer(), {
    authenticate: async (request) => authenticate(request),
    logger: silentLogger,
  });
  const request = (token?: string): Request =>
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers: callHeaders(token), body: CALL });

  it("B4: no credentials → 401 with the hook's WWW-Authenticate and a JSON-RPC error body", async () => {
    const response = await handle(request());
    assert.equal(response.status, 401);
    assert.equal(response.headers.get('www-authenticate'), CHALLENGE);
    assert.deepEqual(await response.json(), UNAUTHORIZED);
  });

  it('a caller that passes reaches the tool as ctx.auth', async () => {
    const response = await handle(request('alice-token'));
    assert.equal(response.status, 200);
    assert.equal(await resultText(response), 'alice via bearer');
  });

  it('B4: a 403 challenge with its own message, and CORS on an allowed origin exposing WWW-Authenticate', async () => {
    const insufficient = 'Bearer error="insufficient_scope", scope="files:read files:write"';
    const strict = createFetchHandler(makeServer(), {
      authenticate: () => ({
        status: 403,
        headers: { 'www-authenticate': insufficient },
        message: 'Forbidden: this needs the files:write scope',
      }),
      cors: { origins: ['https://app.example'] },
      logger: silentLogger,
    });
    const response = await strict(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: { ...callHeaders('alice-token'), origin: 'https://app.example' },
        body: CALL,
      }),
    );
    assert.equal(response.status, 403);
    assert.equal(response.headers.get('www-authenticate'), insufficient);
    assert.equal(response.headers.get('access-control-allow-origin'), 'https://app.example');
    assert.match(response.headers.get('access-control-expose-headers') ?? '', /WWW-Authenticate/);
    assert.deepEqual(await response.json(), {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Forbidden: this needs the files:write scope' },
    });
  });

  it('without a hook every caller is ANONYMOUS_CALLER', async () => {
    const open = createFetchHandler(makeServer(), { logger: silentLogger });
    const response = await open(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: callHeaders(), body: CALL }),
    );
    assert.equal(await resultText(response), 'anonymous via anonymous');
  });
});

describe('HTTP edge: a failing authenticate hook is 500, neutral, with the details in the log', () => {
  const cases: Array<[string, HttpAuthenticate, string, boolean]> = [
    [
      'throws',
      () => {
        throw new Error('JWKS at https://idp.internal/keys unreachable');
      },
      'HTTP transport: the authenticate hook failed',
      true,
    ],
    [
      'rejects',
      () => Promise.reject(new Error('JWKS at https://idp.internal/keys unreachable')),
      'HTTP transport: the authenticate hook failed',
      true,
    ],
    [
      'returns a Caller without a subject',
      () => ({ subject: '', via: 'bearer', scopes: [] }),
      'HTTP transport: the authenticate hook answered neither a Caller nor a challenge: it returned a Caller: subject is not a non-empty string',
      false,
    ],
    [
      'returns a challenge with a success status',
      () => ({ status: 200 }),
      'HTTP transport: the authenticate hook answered neither a Caller nor a challenge: it returned a challenge: status 200 is not a client-error status (400-499) or 503',
      false,
    ],
    [
      'returns a challenge whose header would split the response',
      () => ({ status: 401, headers: { 'WWW-Authenticate': 'Bearer\r\nSet-Cookie: x=1' } }),
      'HTTP transport: the authenticate hook answered neither a Caller nor a challenge: it returned a challenge: header "WWW-Authenticate" is not a string of visible ASCII, space and tab (at most 8192 characters)',
      false,
    ],
    [
      'returns undefined',
      () => undefined as unknown as Caller, // what a hook with a missing return gives
      'HTTP transport: the authenticate hook answered neither a Caller nor a challenge: it returned undefined',
      false,
    ],
  ];
  for (const [what, hook, line, withError] of cases) {
    it(`a hook that ${what}: 500 "Internal error" on both adapters; the log says why`, async () => {
      const { logger, errors } = errorLog();
      const handle = createFetchHandler(makeServer(), { authenticate: hook, logger });
      const response = await handle(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers: callHeaders(), body: CALL }),
      );
      assert.equal(response.status, 500);
      assert.equal(await response.text(), NEUTRAL);
      const listening = await listenHttp(makeServer(), { authenticate: hook, logger });
      try {
        const viaNode = await fetch(listening.url, { method: 'POST', headers: callHeaders(), body: CALL });
        assert.equal(viaNode.status, 500);
        assert.equal(await viaNode.text(), NEUTRAL);
      } finally {
        await listening.close();
      }
      assert.deepEqual(
        errors.map(([message]) => message),
        [line, line],
      );
      if (withError)
        assert.match(String(errors[0]?.[1]), /JWKS at https:\/\/idp\.internal\/keys unreachable/);
    });
  }

  it('a hook still pending after 10 s is a failure too (fake timers)', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { logger, errors } = errorLog();
    const handle = createFetchHandler(makeServer(), {
      authenticate: () => new Promise<Caller>(() => {}),
      logger,
    });
    const pending = handle(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: callHeaders(), body: CALL }),
    );
    await Promise.resolve(); // the hook has been called and its timer armed
    t.mock.timers.tick(10_000);
    const response = await pending;
    assert.equal(response.status, 500);
    assert.equal(await response.text(), NEUTRAL);
    assert.equal(errors[0]?.[0], 'HTTP transport: the authenticate hook failed');
    assert.match(String(errors[0]?.[1]), /it did not settle within 10000 ms/);
  });

  it('a non-function authenticate is refused at construction, by both adapters', () => {
    const message =
      'HTTP transport: authenticate must be a function (request) => Caller | { status, headers, message }; got string';
    const wrong = { authenticate: 'bearer' as unknown as HttpAuthenticate };
    assert.throws(() => createNodeHandler(makeServer(), wrong), { message });
    assert.throws(() => createFetchHandler(makeServer(), wrong), { message });
  });
});

describe("HTTP edge: a challenged request's body is never read (A3)", () => {
  it('A3: a 50 MB Content-Length without credentials gets 401 at once, Connection: close, and the body budget stays 0', async () => {
    const server = makeServer();
    const core = new HttpCore(server, resolveHttpOptions(server, { authenticate, logger: silentLogger }));
    const httpServer = createNodeServer(nodeListener(core), core.context.options);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const { port } = httpServer.address() as { port: number };
    try {
      // The head only, not one byte of the body: an answer that waited for it would never come. Read first, the
      // 50 MB would have been 413 (over maxBodyBytes); authenticated first, it is 401.
      const connection = await open(port, head(port, 50 * 1024 * 1024));
      const text = await connection.closed;
      assert.match(text, /^HTTP\/1\.1 401 /);
      assert.match(text, /\r\nconnection: close\r\n/i);
      assert.ok(text.includes(`\r\nwww-authenticate: ${CHALLENGE}\r\n`), text);
      assert.equal(core.bufferedBodyBytes, 0);
    } finally {
      await core.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    }
  });
});
