// Routes beside the MCP endpoint (issue 14, threat B4): RFC 9728 protected-resource metadata served at both
// well-known paths before authenticate, GET and HEAD only, CORS for allowed origins, failures answered 500 without a
// word of why; paths that would shadow the endpoint refused at construction. Real HTTP on 127.0.0.1 (port 0) and
// the fetch handler called directly.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger, type Logger } from '../src/index.js';
import {
  createFetchHandler,
  createNodeHandler,
  listenHttp,
  type HttpListening,
  type HttpRequestInfo,
  type HttpRoute,
  type HttpRouteResponse,
} from '../src/transports/http/index.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';
const NEUTRAL = '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Internal error"}}';

/** Protected-resource metadata naming the resource by the Host the client used (read through the request view). */
const metadata = (request: HttpRequestInfo): HttpRouteResponse => ({
  headers: { 'Cache-Control': 'max-age=3600' },
  body: JSON.stringify({
    resource: `http://${request.header('Host')}/mcp`,
    authorization_servers: ['https://idp.example'],
    scopes_supported: ['files:read'],
  }),
});

const server = (): McpServer => new McpServer({ name: 'routes', version: '1.0.0' }, { logger: silentLogger });

const options = {
  routes: { [WELL_KNOWN]: metadata, [`${WELL_KNOWN}/mcp`]: metadata },
  // Every request to the endpoint is challenged: the routes must be served before this runs.
  authenticate: () => ({
    status: 401,
    headers: { 'www-authenticate': `Bearer resource_metadata="${WELL_KNOWN}"` },
  }),
  cors: { origins: ['https://app.example'] },
  logger: silentLogger,
};

describe('HTTP edge: well-known routes beside /mcp (node adapter)', () => {
  let listening: HttpListening;
  let base: string;
  before(async () => {
    listening = await listenHttp(server(), options);
    base = listening.url.replace(/\/mcp$/, '');
  });
  after(() => listening.close());

  it('B4: GET serves the metadata at both well-known paths, with no credentials, while /mcp is challenged', async () => {
    for (const path of [WELL_KNOWN, `${WELL_KNOWN}/mcp`]) {
      const response = await fetch(base + path);
      assert.equal(response.status, 200, path);
      assert.equal(response.headers.get('content-type'), 'application/json');
      assert.equal(response.headers.get('cache-control'), 'max-age=3600');
      assert.deepEqual(await response.json(), {
        resource: `${base}/mcp`,
        authorization_servers: ['https://idp.example'],
        scopes_supported: ['files:read'],
      });
    }
    assert.equal((await fetch(listening.url, { method: 'POST' })).status, 401);
  });

  it('HEAD: the headers GET sends, Content-Length included, and no body', async () => {
    const get = await (await fetch(base + WELL_KNOWN)).text();
    const response = await fetch(base + WELL_KNOWN, { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-length'), String(Buffer.byteLength(get)));
    assert.equal(response.headers.get('content-type'), 'application/json');
    assert.equal(await response.text(), '');
  });

  it('POST (or PUT, DELETE) is 405 with Allow: GET, HEAD, OPTIONS', async () => {
    for (const method of ['POST', 'PUT', 'DELETE']) {
      const response = await fetch(base + WELL_KNOWN, { method });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'GET, HEAD, OPTIONS');
      assert.deepEqual(await response.json(), {
        jsonrpc: '2.0',
        error: { code: -32600, message: `Method Not Allowed: ${WELL_KNOWN} answers GET and HEAD` },
      });
    }
  });

  it('CORS: an allowed origin gets its headers and a preflight naming GET, HEAD, OPTIONS; another origin gets 403', async () => {
    const allowed = await fetch(base + WELL_KNOWN, { headers: { origin: 'https://app.example' } });
    assert.equal(allowed.status, 200);
    assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://app.example');
    const preflight = await fetch(base + WELL_KNOWN, {
      method: 'OPTIONS',
      headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
    });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers.get('allow'), 'GET, HEAD, OPTIONS');
    assert.equal(preflight.headers.get('access-control-allow-methods'), 'GET, HEAD, OPTIONS');
    assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://app.example');
    const foreign = await fetch(base + WELL_KNOWN, { headers: { origin: 'https://evil.example' } });
    assert.equal(foreign.status, 403);
  });

  it('a path that is neither a route nor the endpoint is still 404', async () => {
    const response = await fetch(`${base}/.well-known/openid-configuration`);
    assert.equal(response.status, 404);
  });
});

describe('HTTP edge: well-known routes on the fetch handler', () => {
  it('B4: GET and HEAD serve the metadata before authenticate', async () => {
    const handle = createFetchHandler(server(), options);
    const get = await handle(new Request(`http://127.0.0.1:3333${WELL_KNOWN}/mcp`));
    assert.equal(get.status, 200);
    assert.equal(((await get.json()) as { resource: string }).resource, 'http://127.0.0.1:3333/mcp');
    const headResponse = await handle(new Request(`http://127.0.0.1:3333${WELL_KNOWN}`, { method: 'HEAD' }));
    assert.equal(headResponse.status, 200);
    assert.equal(await headResponse.text(), '');
  });
});

/** A logger that keeps its error lines. */
function errorLog(): { logger: Logger; errors: Array<[string, unknown]> } {
  const errors: Array<[string, unknown]> = [];
  return {
    logger: { ...silentLogger, error: (message, details) => errors.push([message, details]) },
    errors,
  };
}

describe('HTTP edge: a failing route is 500, neutral, with the details in the log', () => {
  const cases: Array<[string, HttpRoute, string]> = [
    [
      'throws',
      () => {
        throw new Error('metadata store at postgres://db.internal down');
      },
      `HTTP transport: the route ${WELL_KNOWN} failed`,
    ],
    [
      'rejects',
      () => Promise.reject(new Error('metadata store at postgres://db.internal down')),
      `HTTP transport: the route ${WELL_KNOWN} failed`,
    ],
    [
      'answers a body over 1 MiB',
      () => ({ body: 'x'.repeat(1024 * 1024 + 1) }),
      `HTTP transport: the route ${WELL_KNOWN} answered nonsense: body is 1048577 bytes, over 1048576`,
    ],
    [
      'answers 204 with a body',
      () => ({ status: 204, body: '{}' }),
      `HTTP transport: the route ${WELL_KNOWN} answered nonsense: status 204 cannot have a body`,
    ],
    [
      'sets Content-Length itself',
      () => ({ headers: { 'Content-Length': '5' }, body: '{}' }),
      `HTTP transport: the route ${WELL_KNOWN} answered nonsense: header "Content-Length" is the transport's to set`,
    ],
    [
      'answers a string',
      () => '{}' as unknown as HttpRouteResponse,
      `HTTP transport: the route ${WELL_KNOWN} answered nonsense: it returned string, not { status, headers, body }`,
    ],
  ];
  for (const [what, route, line] of cases) {
    it(`a route that ${what}: 500 "Internal error"; the log says why`, async () => {
      const { logger, errors } = errorLog();
      const handle = createFetchHandler(server(), { routes: { [WELL_KNOWN]: route }, logger });
      const response = await handle(new Request(`http://127.0.0.1${WELL_KNOWN}`));
      assert.equal(response.status, 500);
      assert.equal(await response.text(), NEUTRAL);
      assert.deepEqual(
        errors.map(([message]) => message),
        [line],
      );
    });
  }
});

describe('HTTP edge: routes are checked at construction', () => {
  const refused: Array<[string, Record<string, unknown>, string | undefined, string]> = [
    [
      'the endpoint itself',
      { '/mcp': metadata },
      undefined,
      'HTTP transport: the route "/mcp" collides with the MCP endpoint ("/mcp", "/mcp/sse", "/mcp/messages" are its paths)',
    ],
    [
      "the legacy SSE stream's path",
      { '/mcp/sse': metadata },
      undefined,
      'HTTP transport: the route "/mcp/sse" collides with the MCP endpoint ("/mcp", "/mcp/sse", "/mcp/messages" are its paths)',
    ],
    [
      'the legacy POST path under a custom endpoint',
      { '/api/messages': metadata },
      '/api',
      'HTTP transport: the route "/api/messages" collides with the MCP endpoint ("/api", "/api/sse", "/api/messages" are its paths)',
    ],
    [
      'a key that is not a path',
      { '.well-known/x': metadata },
      undefined,
      'HTTP transport: routes key ".well-known/x" is not a path like "/.well-known/oauth-protected-resource" (it starts with "/" and has no "?" or "#")',
    ],
    [
      'a key with a query',
      { '/x?y=1': metadata },
      undefined,
      'HTTP transport: routes key "/x?y=1" is not a path like "/.well-known/oauth-protected-resource" (it starts with "/" and has no "?" or "#")',
    ],
    [
      'a value that is not a function',
      { [WELL_KNOWN]: { body: '{}' } },
      undefined,
      `HTTP transport: routes["${WELL_KNOWN}"] must be a function (request) => { status, headers, body }; got object`,
    ],
  ];
  for (const [what, routes, path, message] of refused) {
    it(`refuses ${what}, on both adapters`, () => {
      const given = {
        routes: routes as Record<string, HttpRoute>,
        logger: silentLogger,
        ...(path && { path }),
      };
      assert.throws(() => createNodeHandler(server(), given), { message });
      assert.throws(() => createFetchHandler(server(), given), { message });
    });
  }
});
