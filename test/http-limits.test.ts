// What a flood of slow or many clients can take from the HTTP transport (threats A3, A8): the shared budget of
// request-body bytes, the header and body clocks, and the open-connection caps. Real sockets on 127.0.0.1 (port 0),
// raw bytes so that every stall is the test's to choose (support/raw-socket.ts).

import assert from 'node:assert/strict';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpOptions } from '../src/transports/http/index.js';
import { HttpCore } from '../src/transports/http/core.js';
import { fetchListener } from '../src/transports/http/fetch-adapter.js';
import { nodeListener } from '../src/transports/http/node-adapter.js';
import { createNodeServer } from '../src/transports/http/node-server.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { deferred } from './support/harness.js';
import { waitFor } from './support/poll.js';
import { KIB, META, MODERN, chunk, errorMessage, head, list, listBody, open } from './support/raw-socket.js';

const testServer = (): McpServer =>
  new McpServer({ name: 'limits', version: '1.0.0' }, { logger: silentLogger });

/** A node:http server the way listenHttp builds it, with its core in view (the body budget in use). */
async function serve(
  options: HttpOptions,
): Promise<{ core: HttpCore; port: number; close(): Promise<void> }> {
  const server = testServer();
  const core = new HttpCore(server, resolveHttpOptions(server, { logger: silentLogger, ...options }));
  const httpServer: Server = createNodeServer(nodeListener(core), core.context.options);
  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
  return {
    core,
    port: (httpServer.address() as AddressInfo).port,
    async close() {
      await core.close();
      httpServer.closeAllConnections();
      await new Promise((resolve) => httpServer.close(resolve));
    },
  };
}

describe('HTTP limits: the shared budget of request-body bytes (A3)', () => {
  let served: Awaited<ReturnType<typeof serve>>;
  before(async () => {
    // Every client here is loopback, one address: its share is the whole budget, so the total is what is tested.
    served = await serve({
      maxBodyBytes: 64 * KIB,
      maxBufferedBodyBytes: 128 * KIB,
      maxBufferedBodyBytesPerAddress: 128 * KIB,
      retryAfterSeconds: 3,
    });
  });
  after(() => served.close());

  it('A3: a slow-body flood past maxBufferedBodyBytes gets 503 + Retry-After before its body is read, and the budget comes back', async () => {
    const { core, port } = served;
    // Two slow senders declare 64 KiB each and send a little: together they hold the whole budget.
    const slow = await Promise.all([
      open(port, `${head(port, 64 * KIB)}{"a`),
      open(port, `${head(port, 64 * KIB)}{"b`),
    ]);
    await waitFor(() => core.bufferedBodyBytes === 128 * KIB);

    // The next request sends its head and not one byte of body: the answer cannot have waited for the body.
    const refused = await open(port, head(port, 1000));
    const text = await refused.closed;
    assert.match(text, /^HTTP\/1\.1 503 /);
    assert.match(text, /\r\nretry-after: 3\r\n/i);
    assert.match(text, /\r\nconnection: close\r\n/i);
    assert.equal(
      errorMessage(text),
      "Service Unavailable: request bodies being read already fill the server's buffer (131072 bytes); retry after 3 s",
    );

    // The slow senders give up: what they held is given back, and an ordinary request is served again.
    for (const connection of slow) connection.socket.destroy();
    await waitFor(() => core.bufferedBodyBytes === 0);
    assert.match(await list(port), /^HTTP\/1\.1 200 /);
  });

  it('A3: a chunked body is counted as it arrives; the chunk that does not fit gets 503 and the budget is whole afterwards', async () => {
    const { core, port } = served;
    const holders = await Promise.all([
      open(port, `${head(port, 64 * KIB)}{"a`),
      open(port, `${head(port, 60 * KIB)}{"b`),
    ]);
    await waitFor(() => core.bufferedBodyBytes === 124 * KIB);
    // 4 KiB fit beside the 124 KiB held; 4 + 8 KiB do not.
    const chunked = await open(port, `${head(port, undefined)}${chunk(4 * KIB)}${chunk(8 * KIB)}`);
    const text = await chunked.closed;
    assert.match(text, /^HTTP\/1\.1 503 /);
    assert.match(text, /\r\nretry-after: 3\r\n/i);
    for (const holder of holders) holder.socket.destroy();
    await waitFor(() => core.bufferedBodyBytes === 0);
    assert.match(await list(port), /^HTTP\/1\.1 200 /);
  });

  it('A3: the fetch handler reads bodies under the same budget', async () => {
    const server = testServer();
    const core = new HttpCore(
      server,
      resolveHttpOptions(server, {
        maxBodyBytes: 16 * KIB,
        maxBufferedBodyBytes: 16 * KIB,
        logger: silentLogger,
      }),
    );
    const handle = fetchListener(core);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': 'tools/list',
    };
    try {
      // A body that streams 15 KiB and then waits: it holds 15 KiB of the 16.
      let feed!: ReadableStreamDefaultController<Uint8Array>;
      const stream = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
      feed.enqueue(new Uint8Array(15 * KIB).fill(0x20));
      const slow = handle(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers,
          body: stream,
          duplex: 'half',
        } as RequestInit),
      );
      await waitFor(() => core.bufferedBodyBytes === 15 * KIB);

      const padded = `${' '.repeat(2 * KIB)}${listBody(2)}`;
      const refused = await handle(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: padded }),
      );
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      const body = (await refused.json()) as { error: { message: string } };
      assert.equal(
        body.error.message,
        "Service Unavailable: request bodies being read already fill the server's buffer (16384 bytes); retry after 1 s",
      );

      feed.error(new Error('the client went away'));
      assert.equal((await slow).status, 400);
      assert.equal(core.bufferedBodyBytes, 0);
      const served = await handle(
        new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: padded }),
      );
      assert.equal(served.status, 200);
    } finally {
      await core.close();
    }
  });
});

describe('HTTP limits: the fetch handler gives a reservation back however the read ends (A3)', () => {
  it('A3: a Request whose body something else is reading already gets 400 and holds no bytes (its Content-Length stayed reserved for good)', async () => {
    const server = testServer();
    const core = new HttpCore(server, resolveHttpOptions(server, { logger: silentLogger }));
    try {
      const body = listBody(1);
      const request = new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN,
          'mcp-method': 'tools/list',
          'content-length': String(Buffer.byteLength(body)),
        },
        body,
      });
      request.body?.getReader(); // a framework's middleware took the body first
      const response = await fetchListener(core)(request);
      assert.equal(response.status, 400);
      assert.equal(
        ((await response.json()) as { error: { message: string } }).error.message,
        'Bad Request: the body could not be read',
      );
      assert.equal(core.bufferedBodyBytes, 0);
    } finally {
      await core.close();
    }
  });
});

describe('HTTP limits: one address’s share of the body budget (A3)', () => {
  it('A3: over node:http, slow bodies from one address fill only its share and then get 503 + Retry-After before their body is read (they held the whole budget)', async () => {
    // The default share, a quarter of 512 KiB: two 64 KiB bodies. Every socket here is loopback, one address.
    const { core, port, close } = await serve({ maxBodyBytes: 64 * KIB, maxBufferedBodyBytes: 512 * KIB });
    try {
      const slow = await Promise.all([
        open(port, `${head(port, 64 * KIB)}{"a`),
        open(port, `${head(port, 64 * KIB)}{"b`),
      ]);
      await waitFor(() => core.bufferedBodyBytes === 128 * KIB);
      const refused = await open(port, head(port, 1000));
      const text = await refused.closed;
      assert.match(text, /^HTTP\/1\.1 503 /);
      assert.match(text, /\r\nretry-after: 1\r\n/i);
      assert.equal(
        errorMessage(text),
        "Service Unavailable: request bodies being read from this client address already fill its share of the server's buffer (131072 bytes); retry after 1 s",
      );
      assert.equal(
        core.bufferedBodyBytes,
        128 * KIB,
        'three quarters of the budget are still free for others',
      );
      assert.equal(core.bufferedBodyBytesFrom('127.0.0.1'), 128 * KIB);
      for (const connection of slow) connection.socket.destroy();
      await waitFor(() => core.bufferedBodyBytes === 0);
      assert.equal(core.bufferedBodyBytesFrom('::1'), 0);
      assert.match(await list(port), /^HTTP\/1\.1 200 /);
    } finally {
      await close();
    }
  });
});

describe('HTTP limits: header and body clocks (A8)', () => {
  it(
    'A8: a client sending its headers slowly is closed by headersTimeoutMs (it had 60 s)',
    { timeout: 20_000 },
    async () => {
      const listening = await listenHttp(testServer(), { headersTimeoutMs: 200, logger: silentLogger });
      try {
        const connection = await open(
          listening.port,
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${listening.port}\r\n`,
        );
        assert.match(await connection.closed, /^HTTP\/1\.1 408 /);
      } finally {
        await listening.close();
      }
    },
  );

  it(
    'A8: a body that stops arriving is answered 408 and closed after bodyIdleTimeoutMs',
    { timeout: 20_000 },
    async () => {
      const listening = await listenHttp(testServer(), { bodyIdleTimeoutMs: 200, logger: silentLogger });
      try {
        const connection = await open(listening.port, `${head(listening.port, 500)}{"jsonrpc":`);
        const text = await connection.closed;
        assert.match(text, /^HTTP\/1\.1 408 /);
        assert.match(text, /\r\nconnection: close\r\n/i);
        assert.equal(errorMessage(text), 'Request Timeout: no part of the body arrived for 200 ms');
      } finally {
        await listening.close();
      }
    },
  );

  it(
    'A8: a body that trickles in for longer than bodyTimeoutMs is answered 408 and closed',
    { timeout: 20_000 },
    async () => {
      const listening = await listenHttp(testServer(), {
        bodyTimeoutMs: 300,
        bodyIdleTimeoutMs: 60_000,
        logger: silentLogger,
      });
      try {
        const connection = await open(listening.port, head(listening.port, 10_000));
        // One byte every 20 ms: never idle for long, never done.
        const trickle = setInterval(() => connection.socket.write(' '), 20);
        const text = await connection.closed.finally(() => clearInterval(trickle));
        assert.match(text, /^HTTP\/1\.1 408 /);
        assert.equal(errorMessage(text), 'Request Timeout: the body did not arrive within 300 ms');
      } finally {
        await listening.close();
      }
    },
  );

  it(
    'A8: the receive clocks never cut an answer that streams for longer than they run',
    { timeout: 20_000 },
    async () => {
      const server = testServer();
      const release = deferred();
      server.tool({
        name: 'slow',
        description: 'Reports progress, then waits for the test',
        handler: async (_args, ctx) => {
          ctx.progress(1, 2);
          await release.promise;
          return 'done';
        },
      });
      const listening = await listenHttp(server, {
        headersTimeoutMs: 100,
        bodyTimeoutMs: 100,
        logger: silentLogger,
      });
      try {
        const body = JSON.stringify({
          jsonrpc: '2.0',
          id: 7,
          method: 'tools/call',
          params: { name: 'slow', _meta: { ...META, progressToken: 'p' } },
        });
        const call = await open(
          listening.port,
          `${head(listening.port, Buffer.byteLength(body), 'tools/call').replace('\r\n\r\n', '\r\nMcp-Name: slow\r\n\r\n')}${body}`,
        );
        await call.received(/notifications\/progress/);
        // Two silent connections, one after the other, each closed by the 100 ms header clock: once the second is
        // closed, node:http's deadline check has run past the call's own 200 ms receive deadline at least once.
        for (let i = 0; i < 2; i++) await (await open(listening.port)).closed;
        release.resolve();
        const text = await call.received(/"id":7,"result"/);
        assert.match(text, /^HTTP\/1\.1 200 /);
        assert.match(text, /"text":"done"/);
        call.socket.destroy();
      } finally {
        await listening.close();
      }
    },
  );
});

describe('HTTP limits: open connections (A8)', () => {
  it(
    'A8: past maxConnections a request gets 503 + Retry-After; past hardMaxConnections the socket is dropped',
    { timeout: 20_000 },
    async () => {
      const listening = await listenHttp(testServer(), {
        maxConnections: 2,
        hardMaxConnections: 3,
        logger: silentLogger,
      });
      const port = listening.port;
      const body = listBody(1);
      const request = `${head(port, Buffer.byteLength(body))}${body}`;
      try {
        // Two served connections, kept alive: the server has surely counted them once each has its answer.
        const kept = await Promise.all([open(port, request), open(port, request)]);
        for (const connection of kept) assert.match(await connection.received(/\}$/), /^HTTP\/1\.1 200 /);

        // The third is accepted but over the soft cap; it sends nothing yet, so it stays open and counted.
        const third = await open(port);
        // The fourth is past the hard cap: closed on accept, without an answer.
        const fourth = await open(port, request);
        assert.equal(await fourth.closed, '');

        third.socket.write(request);
        const refused = await third.closed;
        assert.match(refused, /^HTTP\/1\.1 503 /);
        assert.match(refused, /\r\nretry-after: 1\r\n/i);
        assert.equal(
          errorMessage(refused),
          'Service Unavailable: too many open connections (limit 2); retry after 1 s',
        );

        // A served connection closes: a new one is served. (The server sees the close a moment after the client,
        // so a bounded number of fresh attempts.)
        kept[0]?.socket.destroy();
        await kept[0]?.closed;
        let served = '';
        for (let attempt = 0; attempt < 50 && !served.startsWith('HTTP/1.1 200'); attempt++)
          served = await list(port);
        assert.match(served, /^HTTP\/1\.1 200 /);
        kept[1]?.socket.destroy();
      } finally {
        await listening.close();
      }
    },
  );
});

describe('HTTP limits: options', () => {
  it('refuses limits that contradict each other, with the names of both', () => {
    const server = testServer();
    assert.throws(
      () => resolveHttpOptions(server, { maxBodyBytes: 8 * KIB, maxBufferedBodyBytes: 4 * KIB }),
      { message: 'HTTP transport: maxBufferedBodyBytes (4096) must be at least maxBodyBytes (8192)' },
    );
    assert.throws(() => resolveHttpOptions(server, { maxConnections: 10, hardMaxConnections: 5 }), {
      message: 'HTTP transport: hardMaxConnections (5) must be at least maxConnections (10)',
    });
    assert.throws(() => resolveHttpOptions(server, { retryAfterSeconds: 0 }), {
      message: 'HTTP transport: retryAfterSeconds must be a positive integer',
    });
    assert.throws(
      () => resolveHttpOptions(server, { headersTimeoutMs: 1.5 }),
      /headersTimeoutMs must be a positive/,
    );
  });

  it('keeps the buffered-body budget at least one largest body, and warns when a limit is turned off', () => {
    const warnings: string[] = [];
    const logger = { ...silentLogger, warn: (message: string) => void warnings.push(message) };
    const options = resolveHttpOptions(testServer(), {
      maxBodyBytes: 64 * 1024 * 1024,
      bodyTimeoutMs: Infinity,
      logger,
    });
    assert.equal(options.maxBufferedBodyBytes, 64 * 1024 * 1024);
    assert.equal(options.server.hardMaxConnections, 2_000);
    assert.deepEqual(warnings, ['HTTP transport: bodyTimeoutMs is Infinity, so this limit is off']);
  });
});
