// Bound every buffer: an SSE reader that stops reading cannot make the server hold its notifications without limit;
// past the backlog bound the connection is dropped and the request is cancelled (the handler's signal aborts).

import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { once } from 'node:events';
import { test } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp } from '../src/transports/http/index.js';

test('a client that stops reading an SSE response is dropped and its request cancelled', async () => {
  const server = new McpServer({ name: 'slow-reader', version: '1' }, { logger: silentLogger });
  const chunk = 'x'.repeat(32 * 1024);
  let aborted!: () => void;
  const abortedPromise = new Promise<void>((resolve) => (aborted = resolve));
  server.tool({
    name: 'chatty',
    handler: async (_args, ctx) => {
      ctx.signal.addEventListener('abort', () => aborted(), { once: true });
      // 1,000 log messages of 32 KiB: 32 MiB, far past the 8 MiB backlog bound and the kernel's socket buffers.
      for (let i = 0; i < 1000 && !ctx.signal.aborted; i++) {
        ctx.log('info', chunk);
        await new Promise((resolve) => setImmediate(resolve));
      }
      return 'done';
    },
  });
  const listening = await listenHttp(server, { host: '127.0.0.1', port: 0 });
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: {
      name: 'chatty',
      arguments: {},
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/logLevel': 'info',
      },
    },
  });
  const req = request(listening.url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'chatty',
    },
  });
  req.on('error', () => undefined); // the server drops us: expected
  req.end(body);
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  assert.equal(response.headers['content-type'], 'text/event-stream');
  response.on('error', () => undefined);
  response.pause(); // never read again
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      abortedPromise,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error('the handler was never cancelled')), 20_000);
      }),
    ]);
  } finally {
    clearTimeout(timer);
    response.destroy();
    await listening.close();
    await server.close();
  }
});
