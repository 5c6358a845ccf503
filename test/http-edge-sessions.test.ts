// Who is calling, on every HTTP path (issue 14, threat B6): each message carries the caller and the transport facts
// as MessageExtra (modern POST, legacy Streamable HTTP, 2024-11-05 HTTP+SSE), and a legacy session answers only the
// caller that opened it: another one is told the session does not exist, in the very words an unknown id gets.
// Real HTTP on 127.0.0.1 (port 0).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import type { Caller, MessageExtra } from '../src/protocol/index.js';
import type { ServerConnection } from '../src/server/index.js';
import { listenHttp, type HttpChallenge, type HttpListening } from '../src/transports/http/index.js';

const ALICE: Caller = Object.freeze({ subject: 'alice', via: 'bearer', scopes: Object.freeze([]) });
const BOB: Caller = Object.freeze({ subject: 'bob', via: 'bearer', scopes: Object.freeze([]) });
/** Alice again, but established another way: not the same principal for a session. */
const ALICE_BY_KEY: Caller = Object.freeze({ subject: 'alice', via: 'api-key', scopes: Object.freeze([]) });
const TOKENS: Record<string, Caller> = {
  'Bearer alice': ALICE,
  'Bearer bob': BOB,
  'Bearer alice-key': ALICE_BY_KEY,
};
const LEGACY = '2025-11-25';
const ACCEPT_BOTH = 'application/json, text/event-stream';

/** A server whose tool says who calls, and which records the extra of every message its connections receive. */
function makeServer(): { server: McpServer; extras: MessageExtra[] } {
  const server = new McpServer({ name: 'sessions', version: '1.0.0' }, { logger: silentLogger });
  server.tool({
    name: 'whoami',
    description: 'Says who is calling',
    inputSchema: { type: 'object', properties: {} },
    handler: (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.via}`,
  });
  const extras: MessageExtra[] = [];
  const create = server.createConnection.bind(server);
  server.createConnection = (...args: Parameters<McpServer['createConnection']>): ServerConnection => {
    const connection = create(...args);
    for (const name of ['receive', 'receiveMessage', 'receiveBatch'] as const) {
      const original = connection[name].bind(connection) as (value: never, extra?: MessageExtra) => void;
      (connection[name] as (value: never, extra?: MessageExtra) => void) = (value, extra) => {
        if (extra !== undefined) extras.push(extra);
        original(value, extra);
      };
    }
    return connection;
  };
  return { server, extras };
}

interface Answer {
  status: number;
  body: string;
  session: string | null;
}

async function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', accept: ACCEPT_BOTH, ...headers },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.text(), session: res.headers.get('mcp-session-id') };
}

const call = (id: number, params: Record<string, unknown> = {}): Record<string, unknown> => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'whoami', arguments: {}, ...params },
});
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const textOf = (body: string): string =>
  (JSON.parse(body) as { result: { content: Array<{ text: string }> } }).result.content[0]?.text ?? '';

/** Reads an SSE response until `pattern` matches what arrived. */
function sse(response: Response): { until(pattern: RegExp): Promise<RegExpExecArray>; cancel(): void } {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader(); // an SSE answer always has a body
  const decoder = new TextDecoder();
  let text = '';
  return {
    async until(pattern) {
      for (;;) {
        const match = pattern.exec(text);
        if (match !== null) return match;
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended without ${pattern}: ${text}`);
        text += decoder.decode(value, { stream: true });
      }
    },
    cancel: () => void reader.cancel().catch(() => undefined),
  };
}

describe('HTTP edge: a legacy session answers only the caller that opened it (B6)', () => {
  let listening: HttpListening;
  let extras: MessageExtra[];
  before(async () => {
    const made = makeServer();
    extras = made.extras;
    listening = await listenHttp(made.server, {
      authenticate: (request): Caller | HttpChallenge =>
        TOKENS[request.header('authorization') ?? ''] ?? {
          status: 401,
          headers: { 'www-authenticate': 'Bearer' },
        },
      logger: silentLogger,
    });
  });
  after(() => listening.close());

  it('B6: Streamable HTTP: another caller with the session id gets 404, the same body as an unknown session', async () => {
    const alice = { authorization: 'Bearer alice' };
    const opened = await send(listening.url, 'POST', alice, initialize);
    assert.equal(opened.status, 200, opened.body);
    const session = { 'mcp-session-id': opened.session ?? '', 'mcp-protocol-version': LEGACY };
    await send(
      listening.url,
      'POST',
      { ...alice, ...session },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    );

    for (const [method, body] of [
      ['POST', call(3)],
      ['GET', undefined],
      ['DELETE', undefined],
    ] as const) {
      const unknown = await send(
        listening.url,
        method,
        { ...alice, ...session, 'mcp-session-id': 'no-such-session' },
        body,
      );
      assert.equal(unknown.status, 404, method);
      assert.match(unknown.body, /Session not found: it expired or was ended; send initialize again/);
      for (const intruder of ['Bearer bob', 'Bearer alice-key']) {
        const refused = await send(listening.url, method, { ...session, authorization: intruder }, body);
        assert.equal(refused.status, 404, `${intruder} ${method}`);
        assert.equal(refused.body, unknown.body, `${intruder} ${method}`);
      }
    }
    // The session itself is untouched by the attempts, and carries Alice's calls as hers.
    const mine = await send(listening.url, 'POST', { ...alice, ...session }, call(4));
    assert.equal(mine.status, 200, mine.body);
    assert.equal(textOf(mine.body), 'alice via bearer');
    const last = extras.at(-1);
    assert.equal(last?.auth, ALICE);
    assert.equal(last?.transport?.kind, 'http');
    assert.equal(last?.transport?.remoteAddress, '127.0.0.1');
    assert.equal(last?.transport?.header?.('Authorization'), 'Bearer alice');
    assert.equal(typeof last?.timeLimit, 'function');
  });

  it('B6: HTTP+SSE (2024-11-05): another caller posting to the session gets the unknown-session 404', async () => {
    const alice = { authorization: 'Bearer alice' };
    const stream = await fetch(`${listening.url}/sse`, {
      headers: { ...alice, accept: 'text/event-stream' },
    });
    assert.equal(stream.status, 200);
    const events = sse(stream);
    try {
      const endpoint = (await events.until(/event: endpoint\ndata: (\S+)\n\n/))[1] ?? '';
      const messages = new URL(endpoint, listening.url).href;
      const unknown = await send(
        messages.replace(/sessionId=[^&]+/, 'sessionId=nope'),
        'POST',
        alice,
        call(9),
      );
      const stolen = await send(messages, 'POST', { authorization: 'Bearer bob' }, call(9));
      assert.equal(unknown.status, 404);
      assert.equal(stolen.status, 404);
      assert.equal(stolen.body, unknown.body);

      const init = { ...initialize, params: { ...initialize.params, protocolVersion: '2024-11-05' } };
      assert.equal((await send(messages, 'POST', alice, init)).status, 202);
      await events.until(/"id":1,"result"/);
      await send(messages, 'POST', alice, { jsonrpc: '2.0', method: 'notifications/initialized' });
      assert.equal((await send(messages, 'POST', alice, call(10))).status, 202);
      await events.until(/alice via bearer/);
      const last = extras.at(-1);
      assert.equal(last?.auth, ALICE);
      assert.equal(last?.transport?.kind, 'http');
      assert.equal(last?.transport?.header?.('authorization'), 'Bearer alice');
    } finally {
      events.cancel();
    }
  });

  it('modern POST: the message carries the caller, the transport facts and a time-limit hook', async () => {
    const answer = await send(
      listening.url,
      'POST',
      {
        authorization: 'Bearer bob',
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'whoami',
      },
      call(20, {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      }),
    );
    assert.equal(answer.status, 200, answer.body);
    assert.equal(textOf(answer.body), 'bob via bearer');
    const last = extras.at(-1);
    assert.equal(last?.auth, BOB);
    assert.equal(last?.transport?.kind, 'http');
    assert.equal(last?.transport?.remoteAddress, '127.0.0.1');
    assert.equal(last?.transport?.header?.('Mcp-Method'), 'tools/call');
    assert.equal(last?.transport?.header?.('x-not-sent'), undefined);
    assert.equal(typeof last?.timeLimit, 'function');
  });
});
