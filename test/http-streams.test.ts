// Streamable HTTP streams over real HTTP: the modern subscriptions/listen stream, legacy GET streams and their
// resumption with Last-Event-ID, 2025-11-25 polling, 2025-03-26 batches and the 2024-11-05 HTTP+SSE transport.

import assert from 'node:assert/strict';
import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { HttpCore } from '../src/transports/http/core.js';
import { nodeListener } from '../src/transports/http/node-adapter.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { deferred } from './support/harness.js';
import { waitFor } from './support/poll.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

interface SseEvent {
  id?: string;
  event?: string;
  data: string;
  retry?: number;
}

/** Reads SSE events from a response as they arrive; next() waits for the next one (or fails when it ends). */
class SseReader {
  readonly #queue: SseEvent[] = [];
  readonly #waiters: Array<{ resolve: (event: SseEvent) => void; reject: (error: Error) => void }> = [];
  #buffer = '';
  #ended = false;
  readonly ended: Promise<void>;

  constructor(res: IncomingMessage) {
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => this.#push(chunk));
    this.ended = new Promise((resolve) =>
      res.on('close', () => {
        this.#ended = true;
        for (const waiter of this.#waiters.splice(0)) waiter.reject(new Error('stream ended'));
        resolve();
      }),
    );
  }

  next(): Promise<SseEvent> {
    const event = this.#queue.shift();
    if (event !== undefined) return Promise.resolve(event);
    if (this.#ended) return Promise.reject(new Error('stream ended'));
    return new Promise((resolve, reject) => this.#waiters.push({ resolve, reject }));
  }

  /** Events up to and including the first one whose data matches. */
  async until(pattern: RegExp, limit = 50): Promise<SseEvent[]> {
    const seen: SseEvent[] = [];
    for (let i = 0; i < limit; i++) {
      const event = await this.next();
      seen.push(event);
      if (pattern.test(event.data)) return seen;
    }
    throw new Error(`no event matching ${pattern} among ${limit}`);
  }

  #push(chunk: string): void {
    this.#buffer += chunk;
    let end: number;
    while ((end = this.#buffer.indexOf('\n\n')) >= 0) {
      const block = this.#buffer.slice(0, end);
      this.#buffer = this.#buffer.slice(end + 2);
      const event: SseEvent = { data: '' };
      let fields = 0;
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) continue; // comments (keep-alives)
        const colon = line.indexOf(':');
        const name = colon < 0 ? line : line.slice(0, colon);
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
        fields++;
        if (name === 'data') event.data = event.data === '' ? value : `${event.data}\n${value}`;
        else if (name === 'id') event.id = value;
        else if (name === 'event') event.event = value;
        else if (name === 'retry') event.retry = Number(value);
      }
      if (fields === 0) continue;
      const waiter = this.#waiters.shift();
      if (waiter !== undefined) waiter.resolve(event);
      else this.#queue.push(event);
    }
  }
}

interface Opened {
  status: number;
  headers: IncomingHttpHeaders;
  reader: SseReader;
  body: () => Promise<string>;
  close: () => void;
}

/** Sends a request and hands back the response as soon as its headers arrive. */
function send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const reader = res.headers['content-type']?.startsWith('text/event-stream')
        ? new SseReader(res)
        : undefined;
      let text = '';
      if (reader === undefined) res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      const ended = new Promise<void>((done) => res.on('close', done));
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        reader: reader ?? new SseReader(res),
        body: async () => {
          await ended;
          return text;
        },
        close: () => req.destroy(),
      });
    });
    req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
    req.end(body);
  });
}

/** Polls a condition until it holds or the deadline passes (bounded). */

function makeServer(): { server: McpServer; gate: () => void; polled: () => Promise<void> } {
  const server = new McpServer(
    { name: 'streams', version: '1.0.0' },
    { logger: silentLogger, progressIntervalMs: 1 },
  );
  let gate = deferred();
  const polled = deferred();
  server.tool({
    name: 'poll_me',
    description: 'Reports progress, closes its stream (2025-11-25 polling), then finishes when released',
    handler: async (_args, ctx) => {
      ctx.progress(1, 2);
      ctx.closeStream();
      polled.resolve();
      await gate.promise;
      gate = deferred();
      ctx.progress(2, 2);
      return 'polled';
    },
  });
  server.tool({
    name: 'progress',
    description: 'Reports progress twice',
    handler: (_args, ctx) => {
      ctx.progress(1, 2);
      ctx.progress(2, 2);
      return 'done';
    },
  });
  return { server, gate: () => gate.resolve(), polled: () => polled.promise };
}

const initialize = (version: string, id = 1): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'streams', version: '1' } },
  });

async function openSession(url: string, version: string): Promise<Record<string, string>> {
  const opened = await send(url, 'POST', JSON_HEADERS, initialize(version));
  assert.equal(opened.status, 200, await opened.body());
  const session = String(opened.headers['mcp-session-id']);
  const headers = { ...JSON_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': version };
  const initialized = await send(
    url,
    'POST',
    headers,
    JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  );
  assert.equal(initialized.status, 202);
  return headers;
}

describe('HTTP streams', () => {
  let listening: HttpListening;
  let url: string;
  const fixture = makeServer();
  let extra = 0;
  /** Registers a new tool: every session and listen stream hears of it. */
  const changeTools = (): void => {
    fixture.server.tool({ name: `extra_${++extra}`, description: 'added', handler: () => 'x' });
  };

  before(async () => {
    listening = await listenHttp(fixture.server, { logger: silentLogger });
    url = listening.url;
  });
  after(() => listening.close());

  it('modern subscriptions/listen: SSE with X-Accel-Buffering, ack first, tagged changes, ends on disconnect', async () => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 'listen-1',
      method: 'subscriptions/listen',
      params: { notifications: { toolsListChanged: true }, _meta: META },
    });
    const opened = await send(
      url,
      'POST',
      { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'subscriptions/listen' },
      body,
    );
    assert.equal(opened.status, 200);
    assert.equal(opened.headers['content-type'], 'text/event-stream');
    assert.equal(opened.headers['x-accel-buffering'], 'no');
    assert.equal(opened.headers['mcp-session-id'], undefined);
    const ack = JSON.parse((await opened.reader.next()).data) as {
      method: string;
      params: Record<string, unknown>;
    };
    assert.equal(ack.method, 'notifications/subscriptions/acknowledged');
    assert.equal(fixture.server.subscriptionCount, 1);
    changeTools();
    const change = JSON.parse((await opened.reader.next()).data) as {
      method: string;
      params: { _meta: object };
    };
    assert.equal(change.method, 'notifications/tools/list_changed');
    assert.deepEqual(change.params._meta, { 'io.modelcontextprotocol/subscriptionId': 'listen-1' });
    opened.close();
    await waitFor(() => fixture.server.subscriptionCount === 0);
  });

  it('legacy GET stream: not primed (no empty event), carries list_changed, one per session (409), ends with DELETE', async () => {
    const headers = await openSession(url, '2025-11-25');
    const get = await send(url, 'GET', { ...headers, accept: 'text/event-stream' });
    assert.equal(get.status, 200);
    changeTools();
    const change = await get.reader.next();
    assert.equal(JSON.parse(change.data).method, 'notifications/tools/list_changed');
    assert.match(String(change.id), /^s\.\d+$/);
    const second = await send(url, 'GET', { ...headers, accept: 'text/event-stream' });
    assert.equal(second.status, 409);
    assert.equal(JSON.parse(await second.body()).error.code, -32600);
    assert.equal((await send(url, 'DELETE', headers)).status, 200);
    await get.reader.ended;
  });

  it('2025-11-25 polling: closeStream ends the POST stream with retry; GET + Last-Event-ID delivers the rest', async () => {
    const headers = await openSession(url, '2025-11-25');
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'poll_me', _meta: { progressToken: 'poll' } },
    });
    const post = await send(url, 'POST', headers, call);
    assert.equal(post.headers['content-type'], 'text/event-stream');
    // The progress event's id is enough to resume from: no priming event before it or before the close.
    const first = await post.reader.next();
    assert.equal(JSON.parse(first.data).params.progress, 1);
    const retry = await post.reader.next();
    assert.equal(retry.retry, 1000);
    await post.reader.ended;
    await fixture.polled();
    fixture.gate(); // the call goes on without a connection; its messages wait in the event store
    const resumed = await send(url, 'GET', {
      ...headers,
      accept: 'text/event-stream',
      'last-event-id': String(first.id),
    });
    assert.equal(resumed.status, 200);
    const rest = await resumed.reader.until(/"id":7/);
    const messages = rest.map(
      (event) => JSON.parse(event.data) as { params?: { progress: number }; result?: unknown },
    );
    assert.deepEqual(
      messages.map((m) => m.params?.progress ?? 'result'),
      [2, 'result'],
    );
    for (const event of rest)
      assert.match(String(event.id), new RegExp(`^${String(first.id).split('.')[0]}\\.`));
    await resumed.reader.ended;
    // Delivered streams are forgotten.
    const again = await send(url, 'GET', {
      ...headers,
      accept: 'text/event-stream',
      'last-event-id': String(first.id),
    });
    assert.equal(again.status, 400);
    await send(url, 'DELETE', headers);
  });

  it('Last-Event-ID replays only its own stream', async () => {
    const headers = await openSession(url, '2025-06-18'); // no priming before 2025-11-25
    const get = await send(url, 'GET', { ...headers, accept: 'text/event-stream' });
    changeTools();
    const seen = await get.reader.next();
    get.close();
    changeTools(); // stored for the standalone stream while nobody listens
    const call = JSON.stringify({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'progress', _meta: { progressToken: 'p' } },
    });
    const post = await send(url, 'POST', headers, call);
    const posted = await post.reader.until(/"id":8/);
    assert.ok(posted.every((event) => !String(event.id).startsWith('s.')));
    const resumed = await send(url, 'GET', {
      ...headers,
      accept: 'text/event-stream',
      'last-event-id': String(seen.id),
    });
    assert.equal(resumed.status, 200);
    changeTools(); // a live one after the replay
    const replayed = [await resumed.reader.next(), await resumed.reader.next()];
    for (const event of replayed) {
      assert.match(String(event.id), /^s\./);
      assert.equal(JSON.parse(event.data).method, 'notifications/tools/list_changed');
    }
    resumed.close();
    await send(url, 'DELETE', headers);
  });

  it('2025-03-26 batches: one array answer; notifications only: 202; other revisions: 400', async () => {
    const headers = await openSession(url, '2025-03-26');
    const batch = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    const answered = await send(url, 'POST', headers, batch);
    assert.equal(answered.status, 200);
    const responses = JSON.parse(await answered.body()) as Array<{ id: number }>;
    assert.deepEqual(responses.map((r) => r.id).sort(), [1, 2]);
    const quiet = JSON.stringify([
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
    ]);
    assert.equal((await send(url, 'POST', headers, quiet)).status, 202);
    const newer = await openSession(url, '2025-11-25');
    const refused = await send(url, 'POST', newer, batch);
    assert.equal(refused.status, 400);
    assert.equal(JSON.parse(await refused.body()).error.code, -32600);
    await send(url, 'DELETE', headers);
    await send(url, 'DELETE', newer);
  });

  it('2024-11-05 HTTP+SSE: endpoint event, POSTs accepted with 202, answers on the stream', async () => {
    const stream = await send(`${url}/sse`, 'GET', { accept: 'text/event-stream' });
    assert.equal(stream.status, 200);
    const endpoint = await stream.reader.next();
    assert.equal(endpoint.event, 'endpoint');
    assert.match(endpoint.data, /^\/mcp\/messages\?sessionId=[\w-]+$/);
    const target = new URL(endpoint.data, url).href;
    const posted = await send(
      target,
      'POST',
      { 'content-type': 'application/json' },
      initialize('2024-11-05'),
    );
    assert.equal(posted.status, 202);
    const answer = await stream.reader.next();
    assert.equal(answer.event, 'message');
    assert.equal(JSON.parse(answer.data).result.protocolVersion, '2024-11-05');
    stream.close();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' });
    let status = 0;
    for (let i = 0; i < 50 && status !== 404; i++) {
      status = (await send(target, 'POST', { 'content-type': 'application/json' }, ping)).status;
    }
    assert.equal(status, 404); // the session ended with its stream
  });
});

describe('HTTP keep-alives', () => {
  it('writes SSE comments on an idle listen stream', async () => {
    const { server } = makeServer();
    const options = resolveHttpOptions(server, { logger: silentLogger });
    const core = new HttpCore(server, { ...options, keepAliveMs: 20 });
    const httpServer = createServer(nodeListener(core));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
    try {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'subscriptions/listen',
        params: { notifications: { toolsListChanged: true }, _meta: META },
      });
      const text = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(
          url,
          {
            method: 'POST',
            headers: {
              ...JSON_HEADERS,
              'mcp-protocol-version': '2026-07-28',
              'mcp-method': 'subscriptions/listen',
            },
          },
          (res) => {
            let seen = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => {
              seen += chunk;
              if (seen.includes('\n: keep-alive\n\n') || seen.startsWith(': keep-alive')) {
                req.destroy();
                resolve(seen);
              }
            });
          },
        );
        req.on('error', (error) => (req.destroyed ? undefined : reject(error)));
        req.end(body);
      });
      assert.match(text, /^data: .*subscriptions\/acknowledged/);
      await waitFor(() => server.subscriptionCount === 0);
    } finally {
      await core.close();
      httpServer.closeAllConnections();
      await new Promise<void>((resolve) => httpServer.close(() => resolve()));
    }
  });
});
