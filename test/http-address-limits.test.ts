// What one client address can take from the HTTP transport through the fetch handler (threats A3, A8): its share of
// the body budget, and its sessions, once the clientAddress option says who sent each request. The handler is
// called directly, with the address passed the way a runtime passes its connection info.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { Hono, type Context } from 'hono';
import { McpServer, silentLogger, type Logger } from '../src/index.js';
import { BodyBudget, BodyMeter } from '../src/transports/http/body-budget.js';
import { HttpCore } from '../src/transports/http/core.js';
import { fetchListener } from '../src/transports/http/fetch-adapter.js';
import { createFetchHandler, type HttpOptions } from '../src/transports/http/index.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { waitFor } from './support/poll.js';
import { KIB, MODERN, listBody } from './support/raw-socket.js';

const POST_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/list',
};
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

/** What a Deno-style runtime passes beside the Request. */
interface PeerInfo {
  remoteAddr: string;
}

const testServer = (): McpServer =>
  new McpServer({ name: 'address-limits', version: '1.0.0' }, { logger: silentLogger });

describe('the fetch handler: one address’s share of the body budget (A3)', () => {
  let core: HttpCore;
  let handle: (request: Request, peer: PeerInfo) => Promise<Response>;
  afterEach(() => core.close());

  const start = (options: HttpOptions): void => {
    const server = testServer();
    core = new HttpCore(server, resolveHttpOptions(server, { logger: silentLogger, ...options }));
    handle = fetchListener(core, (_request: Request, peer: PeerInfo) => peer.remoteAddr);
  };

  /** A POST whose body streams `bytes` and then waits; `release` ends it as a client that went away. */
  const slowBody = (from: string, bytes: number): { response: Promise<Response>; release(): void } => {
    let feed!: ReadableStreamDefaultController<Uint8Array>;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (feed = c) });
    feed.enqueue(new Uint8Array(bytes).fill(0x20));
    const init = { method: 'POST', headers: POST_HEADERS, body, duplex: 'half' };
    return {
      // duplex is not in this lib's RequestInit yet; Node needs it for a streamed body.
      response: handle(new Request('http://127.0.0.1/mcp', init as RequestInit), { remoteAddr: from }),
      release: () => feed.error(new Error('the client went away')),
    };
  };
  /** An ordinary tools/list with 2 KiB of padding, sent whole with its Content-Length. */
  const post = (from: string): Promise<Response> =>
    handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: POST_HEADERS,
        body: `${' '.repeat(2 * KIB)}${listBody(2)}`,
      }),
      { remoteAddr: from },
    );

  it('A3: slow bodies from one address fill only its share (a quarter of the budget by default): that address gets 503 + Retry-After, another is still served, and the bytes come back (one address held the whole budget)', async () => {
    start({ maxBodyBytes: 16 * KIB, maxBufferedBodyBytes: 128 * KIB, retryAfterSeconds: 2 });
    const flood = [slowBody('10.0.0.1', 15 * KIB), slowBody('10.0.0.1', 15 * KIB)];
    await waitFor(() => core.bufferedBodyBytes === 30 * KIB);

    // A third slow body from the same address is refused when its bytes arrive; a whole one before it is read.
    const third = slowBody('10.0.0.1', 15 * KIB);
    assert.equal((await third.response).status, 503);
    const refused = await post('10.0.0.1');
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '2');
    assert.equal(refused.headers.get('connection'), 'close');
    const body = (await refused.json()) as { error: { message: string } };
    assert.equal(
      body.error.message,
      "Service Unavailable: request bodies being read from this client address already fill its share of the server's buffer (32768 bytes); retry after 2 s",
    );
    assert.equal(core.bufferedBodyBytes, 30 * KIB, 'the budget itself is far from full');
    assert.equal(core.bufferedBodyBytesFrom('10.0.0.1'), 30 * KIB);

    // Another address is served meanwhile.
    assert.equal((await post('10.0.0.2')).status, 200);

    for (const slow of flood) slow.release();
    for (const slow of flood) assert.equal((await slow.response).status, 400);
    assert.equal(core.bufferedBodyBytes, 0);
    assert.equal(core.bufferedBodyBytesFrom('10.0.0.1'), 0);
    assert.equal((await post('10.0.0.1')).status, 200);
  });

  it('A3: an IPv6 client’s share covers its whole /64; the next /64 is served', async () => {
    start({
      maxBodyBytes: 16 * KIB,
      maxBufferedBodyBytes: 64 * KIB,
      maxBufferedBodyBytesPerAddress: 16 * KIB,
    });
    const holder = slowBody('2001:db8:1:2::1', 15 * KIB);
    await waitFor(() => core.bufferedBodyBytes === 15 * KIB);
    assert.equal((await post('2001:db8:1:2::ffff')).status, 503);
    assert.equal((await post('2001:db8:1:3::1')).status, 200);
    holder.release();
    assert.equal((await holder.response).status, 400);
    assert.equal((await post('2001:db8:1:2::ffff')).status, 200);
  });

  it('without clientAddress every client shares only the total budget, as before', async () => {
    const server = testServer();
    core = new HttpCore(
      server,
      resolveHttpOptions(server, {
        maxBodyBytes: 16 * KIB,
        maxBufferedBodyBytes: 64 * KIB,
        logger: silentLogger,
      }),
    );
    const anonymous = fetchListener(core);
    const response = await anonymous(
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: POST_HEADERS, body: listBody(1) }),
    );
    assert.equal(response.status, 200);
    assert.equal(core.context.bodyLimits.budget.shareOf(undefined), undefined);
  });
});

describe('the fetch handler: clientAddress (A8)', () => {
  it('A8: the per-address session cap applies to the fetch handler once clientAddress names the client (it saw no address)', async () => {
    const server = testServer();
    const handle = createFetchHandler(server, {
      legacy: { maxSessionsPerAddress: 2 },
      logger: silentLogger,
      clientAddress: (_request, peer: PeerInfo) => peer.remoteAddr,
    });
    const send = (body: string, from: string, session?: string): Promise<Response> =>
      handle(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            ...(session !== undefined && { 'mcp-session-id': session }),
          },
          body,
        }),
        { remoteAddr: from },
      );
    const open = async (from: string): Promise<string> => {
      const res = await send(INIT, from);
      assert.equal(res.status, 200, await res.clone().text());
      return String(res.headers.get('mcp-session-id'));
    };
    const alive = async (session: string, from: string): Promise<number> =>
      (await send(PING, from, session)).status;

    const mine = [await open('192.0.2.1'), await open('192.0.2.1')];
    const theirs = [await open('192.0.2.2'), await open('192.0.2.2')];
    const third = await open('192.0.2.1');
    assert.equal(await alive(third, '192.0.2.1'), 200);
    const survivors = [await alive(mine[0] ?? '', '192.0.2.1'), await alive(mine[1] ?? '', '192.0.2.1')];
    assert.deepEqual(survivors.sort(), [200, 404], 'the address ended one of its own sessions to make room');
    for (const session of theirs)
      assert.equal(await alive(session, '192.0.2.2'), 200, 'another address keeps its own');
  });

  it('a clientAddress that throws gets 500 and the error in the log, and the next request is served', async () => {
    const errors: string[] = [];
    const logger: Logger = { ...silentLogger, error: (message: string) => void errors.push(message) };
    let fail = true;
    const handle = createFetchHandler(testServer(), {
      logger,
      clientAddress: () => {
        if (fail) throw new Error('no connection info');
        return '192.0.2.9';
      },
    });
    const request = (): Request =>
      new Request('http://127.0.0.1/mcp', { method: 'POST', headers: POST_HEADERS, body: listBody(1) });
    const failed = await handle(request());
    assert.equal(failed.status, 500);
    // The same neutral answer as any other failure of the transport (HttpCore.handle).
    assert.deepEqual(await failed.json(), {
      jsonrpc: '2.0',
      error: { code: -32603, message: 'Internal error' },
    });
    assert.deepEqual(errors, ['HTTP transport: the clientAddress option threw']);
    fail = false;
    assert.equal((await handle(request())).status, 200);
  });

  it('A8: mounted in Hono, the context passed beside the Request reaches clientAddress (as getConnInfo reads it)', async () => {
    type Env = { Bindings: PeerInfo };
    const handle = createFetchHandler(testServer(), {
      legacy: { maxSessionsPerAddress: 1 },
      logger: silentLogger,
      // What hono/deno's getConnInfo(c) does: the runtime's connection info is c.env.
      clientAddress: (_request, c: Context<Env>) => c.env.remoteAddr,
    });
    const app = new Hono<Env>();
    app.all('/mcp', (c) => handle(c.req.raw, c));
    const send = (body: string, from: string, session?: string): Promise<Response> =>
      Promise.resolve(
        app.request(
          'http://127.0.0.1/mcp',
          {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              accept: 'application/json, text/event-stream',
              ...(session !== undefined && { 'mcp-session-id': session }),
            },
            body,
          },
          { remoteAddr: from },
        ),
      );
    const first = String((await send(INIT, '198.51.100.1')).headers.get('mcp-session-id'));
    const other = String((await send(INIT, '198.51.100.2')).headers.get('mcp-session-id'));
    const second = String((await send(INIT, '198.51.100.1')).headers.get('mcp-session-id'));
    assert.equal((await send(PING, '198.51.100.1', first)).status, 404, 'its address allows one session');
    assert.equal((await send(PING, '198.51.100.1', second)).status, 200);
    assert.equal((await send(PING, '198.51.100.2', other)).status, 200);
  });
});

describe('maxBufferedBodyBytesPerAddress', () => {
  it('defaults to a quarter of the budget, never below maxBodyBytes nor above the budget, and is checked', () => {
    const server = testServer();
    const resolve = (options: HttpOptions): number =>
      resolveHttpOptions(server, { logger: silentLogger, ...options }).maxBufferedBodyBytesPerAddress;
    assert.equal(resolve({}), 8 * 1024 * KIB);
    assert.equal(resolve({ maxBufferedBodyBytes: 100 * KIB, maxBodyBytes: 10 * KIB }), 25 * KIB);
    assert.equal(
      resolve({ maxBufferedBodyBytes: 32 * 1024 * KIB, maxBodyBytes: 16 * 1024 * KIB }),
      16 * 1024 * KIB,
    );
    assert.equal(
      resolve({
        maxBufferedBodyBytes: 64 * KIB,
        maxBodyBytes: 8 * KIB,
        maxBufferedBodyBytesPerAddress: 1024 * KIB,
      }),
      64 * KIB,
    );
    assert.throws(() => resolve({ maxBodyBytes: 8 * KIB, maxBufferedBodyBytesPerAddress: 4 * KIB }), {
      message: 'HTTP transport: maxBufferedBodyBytesPerAddress (4096) must be at least maxBodyBytes (8192)',
    });
    assert.throws(() => resolve({ maxBufferedBodyBytesPerAddress: 0 }), {
      message:
        'HTTP transport: maxBufferedBodyBytesPerAddress must be a positive integer (or Infinity to turn it off)',
    });
  });
});

describe('the body budget’s per-address shares', () => {
  it('A3: a share still in use survives the sweep of idle ones, so an address cannot hold its share twice; idle ones are swept', () => {
    const budget = new BodyBudget(4096 * KIB, 16 * KIB);
    const limits = { budget, timeoutMs: Infinity, idleTimeoutMs: Infinity };
    // A chunked body that has sent nothing yet: its share holds 0 bytes but is in use.
    const waiting = new BodyMeter(limits, undefined, '10.9.9.9');
    // Bodies from 3,000 other addresses come and go: the idle shares are swept as the map fills.
    for (let i = 0; i < 3000; i++) new BodyMeter(limits, 1, `10.0.${i >> 8}.${i & 255}`).settle();
    assert.ok(budget.addressCount <= 1025, `${budget.addressCount} shares tracked`);
    assert.equal(waiting.charge(10 * KIB), undefined);
    const second = new BodyMeter(limits, 10 * KIB, '10.9.9.9');
    assert.equal(second.refused, 'address-busy', 'the same share as before the sweeps');
    waiting.settle();
    assert.equal(budget.heldBy('10.9.9.9'), 0);
    assert.equal(budget.used, 0);
  });
});
