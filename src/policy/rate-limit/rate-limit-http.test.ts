// Rate limits on the wire (issue 15, threats F2 and F3): real HTTP on 127.0.0.1 (port 0), modern POSTs and a legacy
// session, each request on a connection of its own; and the same JSON-RPC refusal over stdio.

import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../../jsonrpc/index.js';
import { ANONYMOUS_CALLER, type Caller } from '../../protocol/index.js';
import { McpServer, silentLogger } from '../../server/index.js';
import {
  createFetchHandler,
  listenHttp,
  type HttpChallenge,
  type HttpListening,
} from '../../transports/http/index.js';
import { StdioServerTransport } from '../../transports/stdio/index.js';
import { rateLimit, type RateLimitOptions } from './index.js';

const MODERN = '2026-07-28';
const LEGACY = '2025-11-25';
const META = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientCapabilities': {},
};
const ALICE: Caller = Object.freeze({ subject: 'alice', via: 'bearer', scopes: Object.freeze([]) });
const BOB: Caller = Object.freeze({ subject: 'bob', via: 'bearer', scopes: Object.freeze([]) });
/** Two tokens of Alice's (a refresh rotated it) and one of Bob's; no token at all is the anonymous caller. */
const TOKENS: Record<string, Caller> = {
  'Bearer alice-1': ALICE,
  'Bearer alice-2': ALICE,
  'Bearer bob': BOB,
};

function limitedServer(options: RateLimitOptions): McpServer {
  const server = new McpServer({ name: 'rate-limit-http', version: '1.0.0' }, { logger: silentLogger });
  for (const name of ['search', 'lookup']) {
    server.tool({ name, annotations: { readOnlyHint: true }, handler: () => 'ok' });
  }
  server.use(rateLimit({ logger: silentLogger, ...options }).middleware);
  return server;
}

interface HttpAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The JSON-RPC message of the answer (the last `data:` of an SSE answer); undefined for 202. */
  message: JsonObject | undefined;
}

/** One POST on a connection of its own (agent: false): a new socket and a new source port every time. */
function post(url: string, headers: Record<string, string>, body: unknown): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const sse = String(res.headers['content-type']).startsWith('text/event-stream');
          const json = sse ? (text.match(/^data: (.*)$/gm) ?? []).at(-1)?.slice('data: '.length) : text;
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            message: json === undefined || json === '' ? undefined : (JSON.parse(json) as JsonObject),
          });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

const callBody = (id: number, name: string, meta?: JsonObject): JsonObject => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: {}, ...(meta !== undefined && { _meta: meta }) },
});

const modernHeaders = (name: string, extra: Record<string, string> = {}): Record<string, string> => ({
  'mcp-protocol-version': MODERN,
  'mcp-method': 'tools/call',
  'mcp-name': name,
  ...extra,
});

/** A modern tools/call POST. */
const modernCall = (url: string, id: number, name: string, extra: Record<string, string> = {}) =>
  post(url, modernHeaders(name, extra), callBody(id, name, META));

/** Opens a legacy Streamable HTTP session; the headers its requests carry. */
async function openSession(url: string, extra: Record<string, string> = {}): Promise<Record<string, string>> {
  const opened = await post(url, extra, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: {
      protocolVersion: LEGACY,
      capabilities: {},
      clientInfo: { name: `c${Math.random()}`, version: '1' },
    },
  });
  assert.equal(opened.status, 200, JSON.stringify(opened.message));
  const session = {
    ...extra,
    'mcp-session-id': String(opened.headers['mcp-session-id']),
    'mcp-protocol-version': LEGACY,
  };
  assert.equal(
    (await post(url, session, { jsonrpc: '2.0', method: 'notifications/initialized' })).status,
    202,
  );
  return session;
}

const passed = (answer: HttpAnswer): boolean => answer.status === 200 && answer.message?.result !== undefined;

/** Every refusal is the full shape: 429, an integer Retry-After ≥ 1, and the JSON-RPC error with its data. */
function assertRateLimited(answer: HttpAnswer, limit: string): void {
  assert.equal(answer.status, 429, JSON.stringify(answer.message));
  const retryAfter = Number(answer.headers['retry-after']);
  assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1, `Retry-After ${answer.headers['retry-after']}`);
  const error = answer.message?.error as JsonObject | undefined;
  assert.equal(error?.code, -31429);
  assert.deepEqual(error?.data, { retryAfterMs: retryAfter * 1000, limit });
  assert.match(String(error?.message), new RegExp(`^Rate limited: .*; retry in ${retryAfter} s$`));
}

describe('rate limits over HTTP (node adapter, loopback)', () => {
  let listening: HttpListening;
  before(async () => {
    listening = await listenHttp(
      limitedServer({
        tools: { search: { points: 100, durationSeconds: 600 } },
        perCall: { points: 5, durationSeconds: 600 },
      }),
      {
        logger: silentLogger,
        authenticate: (request): Caller | HttpChallenge => {
          const header = request.header('authorization');
          if (header === undefined) return ANONYMOUS_CALLER;
          return TOKENS[header] ?? { status: 401, headers: { 'www-authenticate': 'Bearer' } };
        },
      },
    );
  });
  after(() => listening.close());

  it('F3 200 parallel modern POSTs against a limit of 100 admit exactly 100; the rest get the full 429', async () => {
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) =>
        modernCall(listening.url, i, 'search', { authorization: 'Bearer alice-1' }),
      ),
    );
    assert.equal(answers.filter(passed).length, 100);
    for (const answer of answers.filter((a) => !passed(a))) assertRateLimited(answer, 'tool');
  });

  it('F3 200 parallel calls in a legacy session against a limit of 100 admit exactly 100', async () => {
    const session = await openSession(listening.url, { authorization: 'Bearer bob' });
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => post(listening.url, session, callBody(i + 1, 'search'))),
    );
    assert.equal(answers.filter(passed).length, 100);
    for (const answer of answers.filter((a) => !passed(a))) assertRateLimited(answer, 'tool');
  });

  it('F2 new connections, fresh initialize, new session ids and rotated tokens never reset a bucket', async () => {
    // The anonymous caller on loopback: modern POSTs on new sockets, then three fresh legacy sessions.
    let passedAnonymous = 0;
    for (let i = 0; i < 3; i++) if (passed(await modernCall(listening.url, i, 'lookup'))) passedAnonymous++;
    for (let s = 0; s < 3; s++) {
      const session = await openSession(listening.url);
      if (passed(await post(listening.url, session, callBody(1, 'lookup')))) passedAnonymous++;
    }
    assert.equal(passedAnonymous, 5);
    // Alice with a rotated token and a new client: the same principal, the same bucket.
    let passedAlice = 0;
    for (const token of ['Bearer alice-1', 'Bearer alice-2']) {
      for (let i = 0; i < 2; i++) {
        if (passed(await modernCall(listening.url, i, 'lookup', { authorization: token }))) passedAlice++;
      }
      const session = await openSession(listening.url, { authorization: token });
      if (passed(await post(listening.url, session, callBody(1, 'lookup')))) passedAlice++;
    }
    assert.equal(passedAlice, 5);
    const refused = await modernCall(listening.url, 9, 'lookup', { authorization: 'Bearer alice-2' });
    assertRateLimited(refused, 'tool');
  });
});

describe('rate limits behind the fetch handler (called directly)', () => {
  const request = (id: number, from: string): Request =>
    new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'x-test-peer': from,
        ...modernHeaders('lookup'),
      },
      body: JSON.stringify(callBody(id, 'lookup', META)),
    });
  const statuses = async (
    handle: (request: Request) => Promise<Response>,
    from: string,
  ): Promise<number[]> => {
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) seen.push((await handle(request(i, from))).status);
    return seen;
  };

  it('F2 anonymous callers count per address the clientAddress option reports, IPv6 per /64', async () => {
    const handle = createFetchHandler(limitedServer({ perCall: { points: 2, durationSeconds: 600 } }), {
      logger: silentLogger,
      // A test stand-in for the runtime's peer address (never a client-writable header in production).
      clientAddress: (req) => req.headers.get('x-test-peer') ?? undefined,
    });
    assert.deepEqual(await statuses(handle, '198.51.100.1'), [200, 200, 429]);
    assert.deepEqual(await statuses(handle, '198.51.100.2'), [200, 200, 429]);
    assert.deepEqual(await statuses(handle, '2001:db8:0:1::1'), [200, 200, 429]);
    assert.deepEqual(await statuses(handle, '2001:db8:0:1::ffff'), [429, 429, 429]);
  });

  it('without clientAddress, every anonymous caller shares one bucket (anonymous:unknown)', async () => {
    const handle = createFetchHandler(limitedServer({ perCall: { points: 2, durationSeconds: 600 } }), {
      logger: silentLogger,
    });
    assert.deepEqual(await statuses(handle, '198.51.100.1'), [200, 200, 429]);
    assert.deepEqual(await statuses(handle, '198.51.100.2'), [429, 429, 429]);
  });
});

/** The far end of a stdio pipe: writes requests as lines, reads the answers. */
class StdioPeer {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly #waiting = new Map<number, (message: JsonObject) => void>();
  #partial = '';

  constructor() {
    this.stdout.on('data', (chunk: Buffer) => {
      const lines = (this.#partial + String(chunk)).split('\n');
      this.#partial = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as JsonObject;
        this.#waiting.get(message.id as number)?.(message);
      }
    });
  }

  request(id: number, method: string, params: JsonObject): Promise<JsonObject> {
    const answer = new Promise<JsonObject>((resolve) => this.#waiting.set(id, resolve));
    this.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return answer;
  }
}

describe('rate limits over stdio', () => {
  it('the same JSON-RPC refusal: -31429 with data.retryAfterMs and data.limit (no HTTP status to carry)', async (t) => {
    t.mock.timers.enable({ apis: ['Date'] }); // the clock stands still: the retry seconds are exact
    const server = limitedServer({ perCall: { points: 2, durationSeconds: 30 } });
    const peer = new StdioPeer();
    await server.connect(new StdioServerTransport({ stdin: peer.stdin, stdout: peer.stdout }));
    const params = { name: 'search', arguments: {}, _meta: META };
    assert.ok((await peer.request(1, 'tools/call', params)).result);
    assert.ok((await peer.request(2, 'tools/call', params)).result);
    assert.deepEqual((await peer.request(3, 'tools/call', params)).error, {
      code: -31429,
      message: 'Rate limited: tool "search" allows 2 calls per 30 s; retry in 30 s',
      data: { retryAfterMs: 30_000, limit: 'tool' },
    });
    await server.close();
  });
});
