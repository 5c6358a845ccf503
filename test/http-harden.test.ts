// hardenNodeServer (threat A8): a node:http server the user created, with createNodeHandler mounted on it, gets the
// receive timeouts and connection caps listenHttp gives its own server. Real sockets on 127.0.0.1, port 0.

import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { createNodeHandler, hardenNodeServer } from '../src/transports/http/index.js';
import { errorMessage, head, list, listBody, open } from './support/raw-socket.js';

const mcp = (): McpServer => new McpServer({ name: 'harden', version: '1.0.0' }, { logger: silentLogger });

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port; // a TCP listener always has an AddressInfo
};

describe('hardenNodeServer: a server the user created (A8)', () => {
  let server: Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => (server === undefined ? resolve(undefined) : server.close(resolve)));
    server = undefined;
  });

  it('A8: sets the header, request and keep-alive timeouts and the hard cap (the user’s server kept Node’s 60 s / 300 s and no cap)', () => {
    server = hardenNodeServer(createServer(createNodeHandler(mcp(), { logger: silentLogger })));
    assert.equal(server.headersTimeout, 10_000);
    assert.equal(server.requestTimeout, 40_000, 'headers plus the 30 s body clock');
    assert.equal(server.keepAliveTimeout, 5_000);
    assert.equal(server.maxConnections, 2_000);
  });

  it(
    'A8: a client sending its headers slowly to a user-created server is closed by headersTimeoutMs',
    { timeout: 20_000 },
    async () => {
      const options = { headersTimeoutMs: 200, logger: silentLogger };
      server = hardenNodeServer(createServer(createNodeHandler(mcp(), options)), options);
      const port = await listen(server);
      const connection = await open(port, `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`);
      assert.match(await connection.closed, /^HTTP\/1\.1 408 /);
    },
  );

  it(
    'A8: a user-created server gets the connection caps: past maxConnections 503 + Retry-After before any request listener, even one added later; past hardMaxConnections dropped',
    { timeout: 20_000 },
    async () => {
      const options = {
        maxConnections: 2,
        hardMaxConnections: 3,
        retryAfterSeconds: 4,
        logger: silentLogger,
      };
      const handler = createNodeHandler(mcp(), options);
      let handled = 0;
      server = hardenNodeServer(createServer(), options);
      // Added after hardening, as a framework might: the refusal still comes first.
      server.on('request', (req: IncomingMessage, res: ServerResponse) => {
        handled++;
        handler(req, res);
      });
      const port = await listen(server);
      const body = listBody(1);
      const request = `${head(port, Buffer.byteLength(body))}${body}`;

      const kept = await Promise.all([open(port, request), open(port, request)]);
      for (const connection of kept) assert.match(await connection.received(/\}$/), /^HTTP\/1\.1 200 /);
      const third = await open(port);
      const fourth = await open(port, request);
      assert.equal(await fourth.closed, '', 'past the hard cap: closed on accept');

      third.socket.write(request);
      const refused = await third.closed;
      assert.match(refused, /^HTTP\/1\.1 503 /);
      assert.match(refused, /\r\nretry-after: 4\r\n/i);
      assert.match(refused, /\r\nconnection: close\r\n/i);
      assert.equal(
        errorMessage(refused),
        'Service Unavailable: too many open connections (limit 2); retry after 4 s',
      );
      assert.equal(handled, 2, 'the refused request never reached the listener');

      kept[0]?.socket.destroy();
      await kept[0]?.closed;
      let served = '';
      for (let attempt = 0; attempt < 50 && !served.startsWith('HTTP/1.1 200'); attempt++)
        served = await list(port);
      assert.match(served, /^HTTP\/1\.1 200 /);
      kept[1]?.socket.destroy();
    },
  );

  it('refuses a server that is listening already, or hardened twice, saying why', async () => {
    server = hardenNodeServer(createServer(), { logger: silentLogger });
    assert.throws(() => hardenNodeServer(server as Server, { logger: silentLogger }), {
      message: 'HTTP transport: this server has its limits already (hardenNodeServer was called twice)',
    });
    const late = createServer();
    await listen(late);
    try {
      assert.throws(() => hardenNodeServer(late), {
        message:
          'HTTP transport: hardenNodeServer must be called before server.listen() (node:http starts its deadline checks when it starts listening, and connections opened before would not be counted)',
      });
    } finally {
      await new Promise((resolve) => late.close(resolve));
    }
  });

  it('checks its options as the transport does', () => {
    assert.throws(() => hardenNodeServer(createServer(), { maxConnections: 10, hardMaxConnections: 5 }), {
      message: 'HTTP transport: hardMaxConnections (5) must be at least maxConnections (10)',
    });
    assert.throws(() => hardenNodeServer(createServer(), { retryAfterSeconds: 1.5 }), {
      message: 'HTTP transport: retryAfterSeconds must be a positive integer',
    });
  });
});
