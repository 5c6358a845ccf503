// Legacy sessions under a flood (threat A8): past maxSessions or maxSessionsPerAddress a new client is served by
// ending the longest-idle session, never one with a request in flight; loopback is one address.

import assert from 'node:assert/strict';
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterEach, beforeEach, describe, it, mock } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { addressBucket } from '../src/transports/http/client-address.js';
import { HttpCore } from '../src/transports/http/core.js';
import { fetchListener } from '../src/transports/http/fetch-adapter.js';
import { listenHttp, type HttpListening, type LegacyHttpOptions } from '../src/transports/http/index.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { deferred } from './support/harness.js';
import { waitFor } from './support/poll.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
const INIT = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
});
const PING = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });

const holdCall = (id: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'hold' } });

/** A server with a tool that holds its request open until the test lets go. */
function makeServer(): { server: McpServer; letGo: () => void; holding: () => number } {
  const server = new McpServer({ name: 'flood', version: '1.0.0' }, { logger: silentLogger });
  let gate = deferred();
  let holding = 0;
  server.tool({
    name: 'hold',
    description: 'Waits for the test',
    handler: async () => {
      holding++;
      await gate.promise;
      holding--;
      return 'let go';
    },
  });
  return {
    server,
    letGo: () => {
      gate.resolve();
      gate = deferred();
    },
    holding: () => holding,
  };
}

describe('legacy sessions: the longest-idle one makes room (A8)', () => {
  let handle: (request: Request) => Promise<Response>;
  let core: HttpCore;
  let fixture: ReturnType<typeof makeServer>;

  const post = (body: string, session?: string): Promise<Response> =>
    handle(
      new Request('http://127.0.0.1/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
          ...(session !== undefined && { 'mcp-session-id': session }),
        },
        body,
      }),
    );
  const openSession = async (): Promise<string> => {
    const res = await post(INIT);
    assert.equal(res.status, 200, await res.clone().text());
    return String(res.headers.get('mcp-session-id'));
  };
  const alive = async (session: string): Promise<boolean> => (await post(PING, session)).status === 200;

  const start = (legacy: LegacyHttpOptions, retryAfterSeconds?: number): void => {
    fixture = makeServer();
    core = new HttpCore(
      fixture.server,
      resolveHttpOptions(fixture.server, {
        legacy,
        logger: silentLogger,
        ...(retryAfterSeconds !== undefined && { retryAfterSeconds }),
      }),
    );
    handle = fetchListener(core);
  };
  beforeEach(() => mock.timers.enable({ apis: ['Date'], now: 1_000_000 }));
  afterEach(async () => {
    mock.timers.reset();
    fixture.letGo();
    await core.close();
  });

  it('A8: with 1,000 sessions open and pinged, a new initialize is served by ending the longest-idle one (it got 503 until they expired)', async () => {
    start({});
    const sessions: string[] = [];
    for (let i = 0; i < 1000; i++) {
      sessions.push(await openSession());
      mock.timers.tick(1);
    }
    // The flood pings the first session again: the second is now the longest idle (every other one was opened, and
    // so last seen, after it).
    mock.timers.tick(1000);
    assert.equal(await alive(sessions[0] ?? ''), true);
    const fresh = await post(INIT);
    assert.equal(fresh.status, 200);
    const id = String(fresh.headers.get('mcp-session-id'));
    assert.equal(core.sessionCount, 1000);
    assert.equal(await alive(id), true);
    assert.equal(await alive(sessions[1] ?? ''), false, 'the longest-idle session was ended');
    assert.equal(await alive(sessions[0] ?? ''), true);
  });

  it('A8: sessions with a request in flight are never ended; those with an open GET stream go last; all busy → 503 + Retry-After', async () => {
    start({ maxSessions: 3 }, 7);
    const [streaming, working, idle] = [await openSession(), await openSession(), await openSession()];
    mock.timers.tick(10);
    // The oldest holds a GET stream open; the next has a call in flight; the newest is merely idle.
    const stream = await handle(
      new Request('http://127.0.0.1/mcp', {
        headers: { accept: 'text/event-stream', 'mcp-session-id': streaming },
      }),
    );
    assert.equal(stream.status, 200);
    const call = post(holdCall(3), working);
    await waitFor(() => fixture.holding() === 1);
    mock.timers.tick(10);
    const newcomer = await openSession();
    assert.equal(await alive(idle), false, 'the idle session without a stream made room');
    assert.equal(await alive(streaming), true);

    // Every session busy (the stream's own session gets a call too): nothing may be ended, so 503.
    await stream.body?.cancel();
    const calls = [call, ...[streaming, newcomer].map((session, i) => post(holdCall(5 + i), session))];
    await waitFor(() => core.sessionCount === 3 && fixture.holding() === 3);
    const refused = await post(INIT);
    assert.equal(refused.status, 503);
    assert.equal(
      refused.headers.get('retry-after'),
      '7',
      'the configured retryAfterSeconds, not a number of its own',
    );
    const body = (await refused.json()) as { id: number; error: { code: number; message: string } };
    assert.equal(body.id, 1);
    assert.equal(body.error.code, -32603);
    assert.equal(body.error.message, 'Too many sessions open (limit 3), all of them busy; try again later');
    fixture.letGo();
    for (const done of calls) assert.equal((await done).status, 200);
  });
});

/** One legacy POST over real HTTP from `localAddress`. */
function send(
  url: string,
  body: string,
  options: { session?: string; localAddress?: string; agent?: Agent } = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: ACCEPT_BOTH,
          ...(options.session !== undefined && { 'mcp-session-id': options.session }),
        },
        ...(options.localAddress !== undefined && { localAddress: options.localAddress }),
        ...(options.agent !== undefined && { agent: options.agent }),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('legacy sessions: the per-address cap (A8)', () => {
  let listening: HttpListening | undefined;
  afterEach(async () => {
    await listening?.close();
    listening = undefined;
  });

  it('A8: a loopback flood that fills maxSessions with pinged sessions no longer locks a new local client out', async () => {
    // maxSessions 200 keeps the test short; the flood from one address then meets the default per-address cap (100).
    listening = await listenHttp(makeServer().server, { legacy: { maxSessions: 200 }, logger: silentLogger });
    const url = listening.url;
    const agent = new Agent({ keepAlive: true, maxSockets: 16 });
    try {
      const flood: string[] = [];
      for (let i = 0; i < 300; i += 50) {
        const opened = await Promise.all(Array.from({ length: 50 }, () => send(url, INIT, { agent })));
        for (const res of opened) {
          assert.equal(res.status, 200, res.body);
          flood.push(String(res.headers['mcp-session-id']));
        }
      }
      // Loopback is one address: the flood churned its own sessions and holds the default 100.
      const pings = await Promise.all(flood.map((session) => send(url, PING, { session, agent })));
      assert.equal(pings.filter((res) => res.status === 200).length, 100);

      const newcomer = await send(url, INIT);
      assert.equal(newcomer.status, 200, newcomer.body);
      const ping = await send(url, PING, { session: String(newcomer.headers['mcp-session-id']) });
      assert.equal(ping.status, 200);
    } finally {
      agent.destroy();
    }
  });

  it('A8: past maxSessionsPerAddress an address ends its own longest-idle session; 127.0.0.2 is the same address as 127.0.0.1', async () => {
    listening = await listenHttp(makeServer().server, {
      legacy: { maxSessionsPerAddress: 2 },
      logger: silentLogger,
    });
    const url = listening.url;
    const first = String((await send(url, INIT)).headers['mcp-session-id']);
    const second = String((await send(url, INIT)).headers['mcp-session-id']);
    // The clock decides who is longest idle; ping the first again so the second is.
    assert.equal((await send(url, PING, { session: first })).status, 200);
    const third = await send(url, INIT, { localAddress: '127.0.0.2' });
    assert.equal(third.status, 200, third.body);
    const alive = async (session: string): Promise<number> => (await send(url, PING, { session })).status;
    assert.equal(await alive(String(third.headers['mcp-session-id'])), 200);
    const survivors = [await alive(first), await alive(second)];
    assert.deepEqual(
      survivors.sort(),
      [200, 404],
      'one of the address’s two earlier sessions was ended to make room',
    );
  });
});

describe('client address buckets', () => {
  it('counts every loopback address as one client, IPv4-mapped IPv6 as IPv4, and IPv6 per /64', () => {
    for (const loopback of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) {
      assert.equal(addressBucket(loopback), 'loopback', loopback);
    }
    assert.equal(addressBucket('10.1.2.3'), '10.1.2.3');
    assert.equal(addressBucket('::ffff:10.1.2.3'), '10.1.2.3');
    assert.equal(addressBucket('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:DB8:1:2::9'), '2001:db8:1:2::/64');
    assert.equal(addressBucket('2001:db8::1'), '2001:db8:0:0::/64');
    assert.equal(addressBucket('fe80::1%eth0'), 'fe80:0:0:0::/64');
    assert.equal(addressBucket(undefined), undefined);
  });
});
