// The 2024-11-05 HTTP+SSE client transport and the spec's fallback to it: a POST of initialize refused with 4xx is
// followed by a GET for the `endpoint` event, and the session goes on over the old transport. Peers:
// server-everything in its sse mode and toolwire's own /sse endpoint; hostile servers name an endpoint on another
// origin or no endpoint at all.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { HttpClientTransport, SseClientTransport } from '../src/transports/http-client/index.js';
import { startEverythingSse, type EverythingSse } from './fixtures/client/everything.js';
import { CLIENT_INFO, listenToolwireHttp, runCli, within } from './fixtures/client/harness.js';

const STEP_MS = 20_000;

/** A raw HTTP server answering every request with `handler`; counts requests by method. */
async function rawServer(
  handler: (request: IncomingMessage, response: ServerResponse, origin: string) => void,
): Promise<{ url: string; seen: string[]; close(): Promise<void> }> {
  const seen: string[] = [];
  const server = createServer((request, response) => {
    seen.push(`${request.method} ${request.url}`);
    handler(request, response, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/sse`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A server with no Streamable HTTP: POSTs to the SSE URL get 404, the GET opens a stream whose first event is `first`. */
const legacyOnly =
  (first: (origin: string) => string) =>
  (request: IncomingMessage, response: ServerResponse, origin: string): void => {
    if (request.method === 'GET') {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(first(origin));
      return;
    }
    response.writeHead(404, { 'content-type': 'text/html' }).end('Cannot POST /sse');
  };

describe('HTTP+SSE (2024-11-05) client transport', () => {
  let everything: EverythingSse;
  before(async () => {
    everything = await startEverythingSse();
  });
  after(async () => {
    await everything?.close();
  });

  it('falls back to HTTP+SSE for server-everything: lists and calls on the old transport', async () => {
    const transport = new HttpClientTransport(everything.url);
    const client = new McpClient(CLIENT_INFO, { approve: 'always' });
    try {
      await within(client.connect(transport), STEP_MS, 'connect');
      assert.equal(transport.mode, 'sse');
      assert.equal(client.era, 'legacy');
      assert.equal(client.serverInfo?.name, 'mcp-servers/everything');
      const tools = await within(client.listTools(), STEP_MS, 'tools/list');
      assert.ok(tools.some((tool) => tool.name === 'echo'));
      const echoed = await within(client.callTool('echo', { message: 'over SSE' }), STEP_MS, 'echo');
      assert.deepEqual(echoed.content, [{ type: 'text', text: 'Echo: over SSE' }]);
    } finally {
      await client.close();
    }
  });

  it("falls back to HTTP+SSE on toolwire's own /sse endpoint; SseClientTransport speaks it directly too", async () => {
    const toolwire = await listenToolwireHttp();
    try {
      for (const transport of [
        new HttpClientTransport(`${toolwire.url}/sse`),
        new SseClientTransport(`${toolwire.url}/sse`),
      ]) {
        // Used directly, the transport is the caller's choice of the old wire: no discovery first.
        const era = transport instanceof SseClientTransport ? 'legacy' : 'auto';
        const client = new McpClient(CLIENT_INFO, { approve: 'always', trusted: true, era });
        try {
          await within(client.connect(transport), STEP_MS, 'connect');
          assert.equal(client.era, 'legacy');
          if (transport instanceof HttpClientTransport) assert.equal(transport.mode, 'sse');
          else assert.match(String(transport.endpoint), /\/mcp\/messages\?sessionId=/);
          const sum = await within(client.callTool('add', { a: 2, b: 3 }), STEP_MS, 'add');
          assert.deepEqual(sum.structuredContent, { sum: 5 });
        } finally {
          await client.close();
        }
      }
    } finally {
      await toolwire.close();
    }
  });

  it('refuses an endpoint on another origin: nothing is POSTed there', async () => {
    const server = await rawServer(legacyOnly(() => 'event: endpoint\ndata: http://127.0.0.2:9/steal\n\n'));
    const client = new McpClient(CLIENT_INFO, { era: 'legacy', retry: false });
    try {
      await assert.rejects(client.connect(new HttpClientTransport(server.url)), {
        name: 'TransportError',
        message:
          'POST answered HTTP 404 Not Found: Cannot POST /sse; the fallback to the HTTP+SSE transport failed too: ' +
          'the server named an endpoint on another origin (http://127.0.0.2:9, not ' +
          `${new URL(server.url).origin}); refused`,
      });
      assert.deepEqual(server.seen, ['POST /sse', 'GET /sse']);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it('a stream whose first event is not `endpoint` is not an HTTP+SSE server', async () => {
    const server = await rawServer(legacyOnly(() => 'data: {"jsonrpc":"2.0","method":"x"}\n\n'));
    try {
      const transport = new SseClientTransport(server.url);
      await assert.rejects(transport.start(), {
        message: `${server.url} is not an HTTP+SSE (2024-11-05) endpoint: its first event is a message`,
      });
    } finally {
      await server.close();
    }
  });

  it('no endpoint event in time: the stream is ended and start() says so', async () => {
    const server = await rawServer(legacyOnly(() => ': waiting\n\n'));
    try {
      const transport = new SseClientTransport(server.url, { endpointTimeoutMs: 50 });
      await assert.rejects(transport.start(), {
        message: `${server.url} is not an HTTP+SSE (2024-11-05) endpoint: no endpoint event within 50 ms`,
      });
    } finally {
      await server.close();
    }
  });

  it('sseFallback: false keeps the refusal as it was: no GET', async () => {
    const server = await rawServer(legacyOnly(() => 'event: endpoint\ndata: /messages\n\n'));
    const client = new McpClient(CLIENT_INFO, { era: 'legacy', retry: false });
    try {
      await assert.rejects(client.connect(new HttpClientTransport(server.url, { sseFallback: false })), {
        message: 'POST answered HTTP 404 Not Found: Cannot POST /sse',
      });
      assert.deepEqual(server.seen, ['POST /sse']);
    } finally {
      await client.close();
      await server.close();
    }
  });

  it("toolwire list and call work against toolwire's own /sse endpoint", async () => {
    const toolwire = await listenToolwireHttp();
    try {
      const listed = await runCli(['list', `${toolwire.url}/sse`]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /^add\b/m);
      const called = await runCli(['call', `${toolwire.url}/sse`, 'add', 'a=2', 'b=3', '--yes', '--json']);
      assert.equal(called.code, 0, called.stderr);
      assert.deepEqual((JSON.parse(called.stdout) as { structuredContent: unknown }).structuredContent, {
        sum: 5,
      });
    } finally {
      await toolwire.close();
    }
  });

  it('toolwire list and call work against server-everything in its sse mode', async () => {
    const listed = await runCli(['list', everything.url]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^echo\b/m);
    const called = await runCli(['call', everything.url, 'echo', 'message=hi', '--yes']);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout, 'Echo: hi\n');
  });
});
