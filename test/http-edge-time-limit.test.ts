// One clock (issue 14): the HTTP reply channel arms no limit of its own; it enforces the limit the request pipeline
// sets through extra.timeLimit (the largest of a batch's items), and a request nobody limited gets a 10-minute
// fallback, logged as the pipeline bug it is. requestTimeoutMs is gone, loudly. Fake timers for the channel itself;
// real HTTP on 127.0.0.1 (port 0) for a POST ended by the pipeline's limit.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpServer, silentLogger, type Logger } from '../src/index.js';
import type { MessageExtra } from '../src/protocol/index.js';
import type { ServerConnection } from '../src/server/index.js';
import type { BodyResult, HttpExchange, OutgoingHeaders, SseSink } from '../src/transports/http/exchange.js';
import { listenHttp, type HttpOptions } from '../src/transports/http/index.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { FALLBACK_TIME_LIMIT_MS, ReplyChannel } from '../src/transports/http/reply-channel.js';
import { deferred } from './support/harness.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The smallest exchange a reply channel can answer on: it records what it was answered. */
class RecordingExchange implements HttpExchange {
  readonly method = 'POST';
  readonly path = '/mcp';
  readonly protocol = 'http:';
  readonly remoteAddress = undefined;
  readonly answers: Array<{ status: number; body: string | undefined }> = [];
  query(): undefined {
    return undefined;
  }
  queryNames(): readonly string[] {
    return [];
  }
  header(): undefined {
    return undefined;
  }
  readBody(): Promise<BodyResult> {
    return Promise.resolve({ ok: true, text: '' });
  }
  onClose(): void {}
  respond(status: number, _headers: OutgoingHeaders, body?: string): void {
    this.answers.push({ status, body });
  }
  stream(): SseSink {
    throw new Error('not used here');
  }
}

function channel(logger: Logger = silentLogger): { channel: ReplyChannel; exchange: RecordingExchange } {
  const exchange = new RecordingExchange();
  const made = new ReplyChannel({
    exchange,
    headers: {},
    requestId: 7,
    logger,
    statusOf: () => 200,
    openOutlet: () => ({ event: () => undefined, end: () => undefined }),
    onClientGone: 'cancel',
    onFinish: () => undefined,
  });
  return { channel: made, exchange };
}

const timedOut = (ms: number): string =>
  JSON.stringify({
    jsonrpc: '2.0',
    id: 7,
    error: { code: -32603, message: `Request timed out after ${ms} ms` },
  });

describe('HTTP reply channel: the limit is the one the pipeline sets', () => {
  it('arms nothing of its own: without timeLimit a request is never cut (the old 120 s limit is gone)', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { channel: made, exchange } = channel();
    t.mock.timers.tick(3_600_000);
    assert.equal(made.finished, false);
    assert.deepEqual(exchange.answers, []);
  });

  it('timeLimit(ms) ends the request with -32603 "Request timed out after ms" and aborts its signal', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { channel: made, exchange } = channel();
    made.timeLimit(180_000); // a tool allowed 180 s is no longer cut at 120 s
    t.mock.timers.tick(179_999);
    assert.equal(made.finished, false);
    t.mock.timers.tick(1);
    assert.deepEqual(exchange.answers, [{ status: 200, body: timedOut(180_000) }]);
    assert.equal(made.cancellation.aborted, true);
  });

  it('timeLimit(Infinity) never ends the request (subscriptions/listen)', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { channel: made } = channel();
    made.timeLimit(Infinity);
    made.received();
    t.mock.timers.tick(86_400_000);
    assert.equal(made.finished, false);
  });

  it('the items of a batch share one POST: the largest limit wins, counted from the first', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const { channel: made, exchange } = channel();
    made.timeLimit(100);
    made.timeLimit(300);
    made.timeLimit(200); // smaller than what is set: no change
    t.mock.timers.tick(299);
    assert.equal(made.finished, false);
    t.mock.timers.tick(1);
    assert.deepEqual(exchange.answers, [{ status: 200, body: timedOut(300) }]);
  });

  it('a request taken without any limit gets the 10-minute fallback, logged at debug as a pipeline bug', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const debug: string[] = [];
    const { channel: made, exchange } = channel({ ...silentLogger, debug: (message) => debug.push(message) });
    made.received();
    assert.deepEqual(debug, [
      `HTTP transport: a request was taken without a time limit (a request pipeline bug); it gets ${FALLBACK_TIME_LIMIT_MS} ms`,
    ]);
    assert.equal(FALLBACK_TIME_LIMIT_MS, 600_000);
    t.mock.timers.tick(599_999);
    assert.equal(made.finished, false);
    t.mock.timers.tick(1);
    assert.deepEqual(exchange.answers, [{ status: 200, body: timedOut(600_000) }]);
  });

  it('no fallback and no log for a request that was limited, or answered while it was received', (t) => {
    t.mock.timers.enable({ apis: ['setTimeout', 'Date'] });
    const debug: string[] = [];
    const logger = { ...silentLogger, debug: (message: string) => debug.push(message) };
    const limited = channel(logger);
    limited.channel.timeLimit(50);
    limited.channel.received();
    const answered = channel(logger);
    answered.channel.reply('{"jsonrpc":"2.0","id":7,"result":{}}', { final: true, relatedRequestId: 7 });
    answered.channel.received();
    assert.deepEqual(debug, []);
    t.mock.timers.tick(50);
    assert.deepEqual(limited.exchange.answers, [{ status: 200, body: timedOut(50) }]);
    assert.deepEqual(answered.exchange.answers, [
      { status: 200, body: '{"jsonrpc":"2.0","id":7,"result":{}}' },
    ]);
  });
});

/** A server whose connections limit every request to `ms`, as the pipeline does with a tool's timeoutMs. */
function limitedServer(ms: number): { server: McpServer; aborted: Promise<void> } {
  const server = new McpServer({ name: 'clock', version: '1.0.0' }, { logger: silentLogger });
  const aborted = deferred();
  server.tool({
    name: 'hang',
    description: 'Runs until its signal aborts, and answers nothing even then',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, ctx) =>
      new Promise<string>(() => ctx.signal.addEventListener('abort', () => aborted.resolve())),
  });
  const create = server.createConnection.bind(server);
  server.createConnection = (...args: Parameters<McpServer['createConnection']>): ServerConnection => {
    const connection = create(...args);
    const receiveMessage = connection.receiveMessage.bind(connection);
    // The pipeline's call, made here with a tiny limit; what the pipeline itself sets is then ignored, so the
    // test keeps its limit whatever the tool's own timeoutMs is.
    connection.receiveMessage = (message, extra?: MessageExtra) => {
      extra?.timeLimit?.(ms);
      receiveMessage(message, extra === undefined ? undefined : { ...extra, timeLimit: () => undefined });
    };
    return connection;
  };
  return { server, aborted: aborted.promise };
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
): Promise<{ status: number; body: string; session: string | null }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.text(), session: res.headers.get('mcp-session-id') };
}

describe('HTTP: a POST ends at the limit the pipeline set (one clock)', () => {
  it('modern POST: the existing timeout answer, -32603 "Request timed out after 40 ms", and the handler is aborted', async () => {
    const { server, aborted } = limitedServer(40);
    const listening = await listenHttp(server, { logger: silentLogger });
    try {
      const answer = await post(
        listening.url,
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'hang' },
        { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'hang', arguments: {}, _meta: META } },
      );
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body), {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -32603, message: 'Request timed out after 40 ms' },
      });
      await aborted;
    } finally {
      await listening.close();
    }
  });

  it('legacy POST of a session: the same answer at the same limit', async () => {
    const { server, aborted } = limitedServer(40);
    const listening = await listenHttp(server, { logger: silentLogger });
    try {
      const init = await post(
        listening.url,
        {},
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: {
            protocolVersion: '2025-06-18',
            capabilities: {},
            clientInfo: { name: 'c', version: '1' },
          },
        },
      );
      assert.equal(init.status, 200, init.body);
      const session = { 'mcp-session-id': init.session ?? '', 'mcp-protocol-version': '2025-06-18' };
      await post(listening.url, session, { jsonrpc: '2.0', method: 'notifications/initialized' });
      const answer = await post(listening.url, session, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'hang', arguments: {} },
      });
      assert.deepEqual(JSON.parse(answer.body), {
        jsonrpc: '2.0',
        id: 2,
        error: { code: -32603, message: 'Request timed out after 40 ms' },
      });
      await aborted;
    } finally {
      await listening.close();
    }
  });
});

describe('HTTP options: requestTimeoutMs is gone', () => {
  it("a config that still passes it is refused, naming what decides a request's limit now", async () => {
    const server = new McpServer({ name: 'clock', version: '1.0.0' }, { logger: silentLogger });
    const legacyOptions = { requestTimeoutMs: 30_000 } as HttpOptions; // what code written for 0.1 passes
    const message =
      "HTTP transport: requestTimeoutMs is no longer an option; a request's time limit is what it runs: the tool's timeoutMs (or the prompt's, the resource's), else the server's defaultTimeoutMs. Remove it";
    assert.throws(() => resolveHttpOptions(server, legacyOptions), { message });
    await assert.rejects(listenHttp(server, legacyOptions), { message });
  });
});
