// The web-standard fetch handler mounted in Hono: in process through app.request(), and over real HTTP through a
// small node:http → fetch bridge driven by the official 2.x client (progress on an SSE Response, cancellation by
// closing the response).

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Hono } from 'hono';
import { McpServer, silentLogger } from '../src/index.js';
import { createFetchHandler } from '../src/transports/http/index.js';
import { deferred } from './support/harness.js';

const MODERN = '2026-07-28';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** Serves a fetch function on node:http: the request body streams in, the response body streams out. */
async function serveFetch(fetchFn: (request: Request) => Response | Promise<Response>): Promise<Server> {
  const server = createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      if (!res.writableFinished) controller.abort();
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    const request = new Request(`http://${req.headers.host}${req.url}`, {
      method: req.method ?? 'GET',
      headers,
      signal: controller.signal,
      // Node's web streams and the DOM's ReadableStream are the same object with two type declarations.
      ...(hasBody && { body: Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>, duplex: 'half' }),
    });
    void (async () => {
      const response = await fetchFn(request);
      res.writeHead(response.status, Object.fromEntries(response.headers));
      if (response.body === null) {
        res.end();
        return;
      }
      const reader = response.body.getReader();
      res.on('close', () => void reader.cancel().catch(() => undefined));
      for (;;) {
        const { done, value } = await reader.read().catch(() => ({ done: true as const, value: undefined }));
        if (done) break;
        res.write(value);
      }
      res.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

describe('HTTP: the fetch handler inside Hono', () => {
  const server = new McpServer({ name: 'hono-mounted', version: '1.0.0' }, { logger: silentLogger });
  let gate = deferred();
  let started = deferred();
  let aborted = deferred();
  server.tool({
    name: 'greet',
    description: 'Greets someone',
    inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    handler: (args) => `hello, ${(args as { who: string }).who}`,
  });
  server.tool({
    name: 'steps',
    description: 'Reports progress, waits until released, then finishes',
    handler: async (_args, ctx) => {
      ctx.progress(1, 2);
      await gate.promise;
      gate = deferred();
      return 'done';
    },
  });
  server.tool({
    name: 'slow',
    description: 'Runs until cancelled',
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          aborted.resolve();
          resolve('cancelled');
        });
        started.resolve();
      }),
  });
  const handler = createFetchHandler(server, { logger: silentLogger });
  const app = new Hono().all('/mcp', (c) => handler(c.req.raw));

  const modern = (
    id: number,
    method: string,
    params: Record<string, unknown>,
    name?: string,
  ): RequestInit => ({
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(name !== undefined && { 'mcp-name': name }),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id,
      method,
      params: { ...params, _meta: { ...META, ...(params._meta as object | undefined) } },
    }),
  });

  it('lists and calls tools through app.request()', async () => {
    const listed = await app.request('http://localhost/mcp', modern(1, 'tools/list', {}));
    assert.equal(listed.status, 200);
    assert.equal(listed.headers.get('content-type'), 'application/json');
    const list = (await listed.json()) as { result: { tools: Array<{ name: string }> } };
    assert.deepEqual(
      list.result.tools.map((tool) => tool.name),
      ['greet', 'steps', 'slow'],
    );
    const called = await app.request(
      'http://localhost/mcp',
      modern(2, 'tools/call', { name: 'greet', arguments: { who: 'Hono' } }, 'greet'),
    );
    assert.equal(called.status, 200);
    const call = (await called.json()) as { id: number; result: { content: unknown } };
    assert.equal(call.id, 2);
    assert.deepEqual(call.result.content, [{ type: 'text', text: 'hello, Hono' }]);
  });

  it('answers with an SSE Response when progress precedes the result', async () => {
    const response = await app.request(
      'http://localhost/mcp',
      modern(3, 'tools/call', { name: 'steps', _meta: { progressToken: 't' } }, 'steps'),
    );
    assert.equal(response.headers.get('content-type'), 'text/event-stream');
    assert.equal(response.headers.get('x-accel-buffering'), 'no');
    gate.resolve();
    const events = (await response.text()).split('\n\n').filter((block) => block.startsWith('data: '));
    const messages = events.map(
      (block) => JSON.parse(block.slice('data: '.length)) as Record<string, unknown>,
    );
    assert.equal(messages[0]?.method, 'notifications/progress');
    assert.equal(messages.at(-1)?.id, 3);
  });

  it('keeps the secure defaults: foreign Host and Origin are refused, legacy sessions work', async () => {
    const evil = await app.request('http://evil.example.com/mcp', modern(4, 'tools/list', {}));
    assert.equal(evil.status, 421);
    const init = modern(5, 'initialize', {});
    const legacy = await app.request('http://localhost/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 5,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'h', version: '1' } },
      }),
    });
    assert.equal(legacy.status, 200);
    assert.match(String(legacy.headers.get('mcp-session-id')), /^[\x21-\x7e]+$/);
    const modernInit = await app.request('http://localhost/mcp', init);
    assert.equal(modernInit.status, 404); // initialize is not a 2026-07-28 method
  });

  describe('served on node:http through app.fetch', () => {
    let httpServer: Server;
    let url: string;

    before(async () => {
      httpServer = await serveFetch((request) => app.fetch(request));
      url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
    });
    after(async () => {
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    });

    it(
      'serves the 2.x client: list, call with progress, cancel by closing the response',
      { timeout: 30_000 },
      async () => {
        const client = new Client(
          { name: 'hono-peer', version: '0.0.0' },
          { versionNegotiation: { mode: { pin: MODERN } } },
        );
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        try {
          const { tools } = await client.listTools();
          assert.equal(tools.length, 3);
          const progress: number[] = [];
          const result = await client.callTool(
            { name: 'steps', arguments: {} },
            {
              onprogress: (p) => {
                progress.push(p.progress);
                gate.resolve();
              },
            },
          );
          assert.deepEqual(result.content, [{ type: 'text', text: 'done' }]);
          assert.deepEqual(progress, [1]);
          const controller = new AbortController();
          const call = client.callTool({ name: 'slow', arguments: {} }, { signal: controller.signal });
          await started.promise;
          controller.abort();
          await assert.rejects(call);
          await aborted.promise;
          started = deferred();
          aborted = deferred();
        } finally {
          await client.close();
        }
      },
    );
  });
});
