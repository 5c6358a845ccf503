// The Streamable HTTP client transport against small node:http servers on 127.0.0.1 (port 0), and its SSE parser.
// Every wait is bounded; time-based checks measure what the server saw.

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import fc from 'fast-check';
import type { TransportError } from '../src/protocol/index.js';
import type { RequestId } from '../src/jsonrpc/index.js';
import {
  HttpClientTransport,
  SseEventTooLargeError,
  SseParser,
  type HttpClientTransportOptions,
  type SseEvent,
} from '../src/transports/http-client/index.js';

const WAIT_MS = 5000;

/** Rejects if `promise` takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Conditions that become true when something happens; `until` resolves on the event that makes them true. */
class Signals {
  readonly #waiters = new Set<() => void>();
  changed(): void {
    for (const check of [...this.#waiters]) check();
  }
  until(predicate: () => boolean, what: string, ms = WAIT_MS): Promise<void> {
    return within(
      new Promise<void>((resolve) => {
        const check = (): void => {
          if (!predicate()) return;
          this.#waiters.delete(check);
          resolve();
        };
        this.#waiters.add(check);
        check();
      }),
      ms,
      what,
    );
  }
}

// ---- the test server ----

interface Seen {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** When the request had fully arrived (performance.now()). */
  at: number;
  /** Resolves when the response's connection closed (finished or abandoned by the client). */
  closed: Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, seen: Seen) => void;

interface TestServer {
  url: string;
  seen: Seen[];
  signals: Signals;
  count(method: string): number;
  close(): Promise<void>;
}

const servers = new Set<TestServer>();
const transports = new Set<HttpClientTransport>();
afterEach(async () => {
  await Promise.all([...transports].map((transport) => transport.close()));
  transports.clear();
  await Promise.all([...servers].map((server) => server.close()));
  servers.clear();
});

/** A server answering each request with `handler`; DELETE gets 204 unless `handlesDelete`. */
async function serve(handler: Handler, handlesDelete = false): Promise<TestServer> {
  const seen: Seen[] = [];
  const signals = new Signals();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    const closed = new Promise<void>((resolve) => res.once('close', resolve));
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: Seen = {
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: performance.now(),
        closed,
      };
      seen.push(entry);
      if (req.method === 'DELETE' && !handlesDelete) res.writeHead(204).end();
      else handler(req, res, entry);
      signals.changed();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo; // listen() on a TCP port always yields an AddressInfo
  const test: TestServer = {
    url: `http://127.0.0.1:${port}/mcp`,
    seen,
    signals,
    count: (method) => seen.filter((entry) => entry.method === method).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  servers.add(test);
  return test;
}

const rpc = {
  request: (id: RequestId, method: string, params: object = {}): string =>
    JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  notification: (method: string, params: object = {}): string =>
    JSON.stringify({ jsonrpc: '2.0', method, params }),
  result: (id: RequestId, result: object = {}): string => JSON.stringify({ jsonrpc: '2.0', id, result }),
  error: (id: RequestId | undefined, code: number, message: string, data?: unknown): string =>
    JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined && { id }), error: { code, message, data } }),
};
const progress = (n: number): string =>
  rpc.notification('notifications/progress', { progressToken: 't', progress: n });
const sse = (data: string, id?: string): string =>
  `${id === undefined ? '' : `id: ${id}\n`}data: ${data}\n\n`;
const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const JSON_HEAD = { 'content-type': 'application/json' };

/** The id of a JSON-RPC request body. */
const idOf = (body: string): unknown => (JSON.parse(body) as { id?: unknown }).id;

// ---- the client side ----

interface Client {
  transport: HttpClientTransport;
  messages: Array<{ message: unknown; status: number | undefined }>;
  errors: Error[];
  requestErrors: Array<{ id: RequestId; error: TransportError }>;
  closes: number;
  signals: Signals;
}

async function connect(url: string, options: HttpClientTransportOptions = {}): Promise<Client> {
  const transport = new HttpClientTransport(url, options);
  transports.add(transport);
  const signals = new Signals();
  const client: Client = { transport, messages: [], errors: [], requestErrors: [], closes: 0, signals };
  transport.onmessage = (message, extra) => {
    client.messages.push({ message, status: extra?.httpStatus });
    signals.changed();
  };
  transport.onerror = (error) => {
    client.errors.push(error);
    signals.changed();
  };
  transport.onrequesterror = (id, error) => {
    client.requestErrors.push({ id, error });
    signals.changed();
  };
  transport.onclose = () => {
    client.closes++;
    signals.changed();
  };
  await transport.start();
  return client;
}

const texts = (client: Client): unknown[] => client.messages.map((entry) => entry.message);

describe('HttpClientTransport: POST and its answers', () => {
  it('delivers a JSON response with its status, after POSTing with the protocol headers', async () => {
    const server = await serve((_req, res, seen) => {
      res.writeHead(200, JSON_HEAD).end(rpc.result(idOf(seen.body) as number, { tools: [] }));
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'tools/list'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 1, 'the response');
    assert.deepEqual(client.messages, [{ message: rpc.result(1, { tools: [] }), status: 200 }]);
    const [post] = server.seen;
    assert.equal(post?.method, 'POST');
    assert.equal(post?.headers['content-type'], 'application/json');
    assert.equal(post?.headers.accept, 'application/json, text/event-stream');
    assert.equal(post?.body, rpc.request(1, 'tools/list'));
    assert.equal(post?.headers['mcp-session-id'], undefined);
    assert.equal(post?.headers['mcp-protocol-version'], undefined);
  });

  it('delivers SSE progress notifications before the result, in order, and does not reconnect', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.write(': keep-alive\n\n');
      res.write(sse(progress(1)));
      // An event split across writes, with CRLF line ends.
      const text = `data: ${progress(2)}\r\n\r\n`;
      res.write(text.slice(0, 20));
      res.write(text.slice(20));
      res.end(sse(rpc.result(7, { content: [] })));
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(7, 'tools/call'), { requestId: 7 });
    await client.signals.until(() => client.messages.length === 3, 'three messages');
    assert.deepEqual(texts(client), [progress(1), progress(2), rpc.result(7, { content: [] })]);
    assert.ok(client.messages.every((entry) => entry.status === 200));
    await client.transport.close();
    assert.equal(server.count('GET'), 0);
    assert.deepEqual(client.requestErrors, []);
    assert.deepEqual(client.errors, []);
  });

  it('delivers a 400 JSON-RPC error body (-32022) with httpStatus 400, for the client to decide the era', async () => {
    const body = rpc.error(3, -32022, 'Unsupported protocol version', {
      supported: ['2026-07-28'],
      requested: 'x',
    });
    const server = await serve((_req, res) => res.writeHead(400, JSON_HEAD).end(body));
    const client = await connect(server.url);
    client.transport.send(rpc.request(3, 'server/discover'), { requestId: 3 });
    await client.signals.until(() => client.messages.length === 1, 'the error response');
    assert.deepEqual(client.messages, [{ message: body, status: 400 }]);
    assert.deepEqual(client.requestErrors, []);
  });

  it('fails the request with the whole body when a 4xx JSON-RPC error names no request', async () => {
    const body = rpc.error(undefined, -32020, 'Header mismatch');
    const server = await serve((_req, res) => res.writeHead(400, JSON_HEAD).end(body));
    const client = await connect(server.url);
    client.transport.send(rpc.request('a', 'tools/call'), { requestId: 'a' });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    const [failure] = client.requestErrors;
    assert.equal(failure?.id, 'a');
    assert.equal(failure?.error.status, 400);
    assert.equal(failure?.error.body, body);
    assert.equal(
      failure?.error.message,
      'POST answered HTTP 400 with JSON-RPC error -32020: Header mismatch',
    );
    assert.deepEqual(client.messages, []);
  });

  it('reports a 404 without a JSON-RPC body through onrequesterror, with status and snippet', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(404, { 'content-type': 'text/plain' }).end('No\n such  endpoint'),
    );
    const client = await connect(server.url);
    // Not initialize: a 404 to that tries the HTTP+SSE fallback first (test/client-sse.test.ts).
    client.transport.send(rpc.request(1, 'tools/list'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    const error = client.requestErrors[0]?.error;
    assert.equal(error?.name, 'TransportError');
    assert.equal(error?.status, 404);
    assert.equal(error?.body, 'No such endpoint');
    assert.equal(error?.message, 'POST answered HTTP 404 Not Found: No such endpoint');
    assert.deepEqual(client.messages, []);
  });

  it('reports a failure without a request id through onerror', async () => {
    const server = await serve((_req, res) => res.writeHead(500).end('boom'));
    const client = await connect(server.url);
    client.transport.send(rpc.notification('notifications/initialized'));
    await client.signals.until(() => client.errors.length === 1, 'the error');
    assert.equal(client.errors[0]?.message, 'POST answered HTTP 500 Internal Server Error: boom');
  });

  it('delivers nothing for a 202 to a notification', async () => {
    const server = await serve((_req, res) => res.writeHead(202).end());
    const client = await connect(server.url);
    client.transport.send(rpc.notification('notifications/initialized'));
    await server.signals.until(() => server.seen.length === 1, 'the POST');
    await client.transport.close();
    assert.deepEqual(client.messages, []);
    assert.deepEqual(client.errors, []);
    assert.equal(client.closes, 1);
  });

  it('delivers the messages of an SSE answer to a notification and expects nothing more from it', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.end(sse(rpc.notification('notifications/message')));
    });
    const client = await connect(server.url);
    client.transport.send(rpc.notification('notifications/initialized'));
    await client.signals.until(() => client.messages.length === 1, 'the message');
    await client.transport.close();
    assert.deepEqual(client.errors, []);
    assert.equal(server.count('GET'), 0);
  });

  it('splits a JSON batch into its messages', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, JSON_HEAD).end(`[${rpc.result(1)},${rpc.result(2)}]`),
    );
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'ping'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 2, 'two messages');
    assert.deepEqual(texts(client), [rpc.result(1), rpc.result(2)]);
  });

  it('fails the request on a 200 body that is not JSON-RPC', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hi</html>'),
    );
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'ping'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(
      client.requestErrors[0]?.error.message,
      'POST answered HTTP 200 OK with a body that is not JSON-RPC: <html>hi</html>',
    );
  });

  it('fails the request on a network error, naming the cause', async () => {
    const server = await serve(() => {});
    const url = server.url;
    await server.close();
    const client = await connect(url);
    client.transport.send(rpc.request(1, 'ping'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.match(client.requestErrors[0]?.error.message ?? '', /^POST failed: fetch failed: .*ECONNREFUSED/);
    assert.equal(client.requestErrors[0]?.error.status, undefined);
  });

  it('fails the request when the JSON response is over maxResponseBytes', async () => {
    const server = await serve((_req, res) =>
      res.writeHead(200, JSON_HEAD).end(rpc.result(1, { pad: 'x'.repeat(2000) })),
    );
    const client = await connect(server.url, { maxResponseBytes: 1000 });
    client.transport.send(rpc.request(1, 'ping'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(
      client.requestErrors[0]?.error.message,
      'the POST response (HTTP 200) exceeds the 1000-byte limit',
    );
    assert.deepEqual(client.messages, []);
  });

  it('fails the request when one SSE event is over maxResponseBytes, and closes that stream', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.write(sse(progress(1)));
      res.write(`data: ${'x'.repeat(600)}`);
      res.write('x'.repeat(600)); // no end of event yet: the limit must hold mid-line
    });
    const client = await connect(server.url, { maxResponseBytes: 1000 });
    client.transport.send(rpc.request(1, 'tools/call'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(client.requestErrors[0]?.error.message, 'an SSE event exceeds the 1000-byte limit');
    assert.deepEqual(texts(client), [progress(1)]);
    await within(server.seen[0]!.closed, WAIT_MS, 'the server to see the stream closed');
  });
});

describe('HttpClientTransport: headers and sessions', () => {
  it('sends custom, bearer and per-request headers, the session id once issued, and MCP-Protocol-Version', async () => {
    const server = await serve((_req, res, seen) => {
      const id = idOf(seen.body) as number;
      const head =
        id === 1 ? { ...JSON_HEAD, 'mcp-session-id': 'sess-1' } : { ...JSON_HEAD, 'mcp-session-id': 'other' };
      res.writeHead(200, head).end(rpc.result(id));
    });
    const client = await connect(server.url, { headers: { 'X-Custom': 'c1' }, bearerToken: 'tok-123' });
    const call = async (id: number, headers?: Record<string, string>): Promise<Seen> => {
      client.transport.send(rpc.request(id, 'm'), { requestId: id, ...(headers && { headers }) });
      await client.signals.until(() => client.messages.length === id, `response ${id}`);
      return server.seen[id - 1]!;
    };
    const first = await call(1, { 'Mcp-Method': 'initialize' });
    assert.equal(first.headers['x-custom'], 'c1');
    assert.equal(first.headers.authorization, 'Bearer tok-123');
    assert.equal(first.headers['mcp-method'], 'initialize');
    assert.equal(first.headers['mcp-session-id'], undefined);
    assert.equal(client.transport.sessionId, 'sess-1');

    const second = await call(2);
    assert.equal(second.headers['mcp-session-id'], 'sess-1', 'the first session id wins');
    assert.equal(second.headers['mcp-protocol-version'], undefined);
    assert.equal(second.headers['mcp-method'], undefined, 'per-request headers stay with their request');

    client.transport.setProtocolVersion('2025-11-25');
    const third = await call(3);
    assert.equal(third.headers['mcp-protocol-version'], '2025-11-25');
    const fourth = await call(4, { 'MCP-Protocol-Version': '2026-07-28' });
    assert.equal(
      fourth.headers['mcp-protocol-version'],
      '2026-07-28',
      'a per-request version is not overridden',
    );
    assert.equal(fourth.headers['x-custom'], 'c1');
  });

  it('rejects header values that HTTP cannot carry when constructed, without echoing the token', () => {
    assert.throws(() => new HttpClientTransport('http://127.0.0.1:1/', { bearerToken: 'a\r\nb' }), {
      message: 'bearerToken contains characters that are not allowed in an HTTP header',
    });
    assert.throws(() => new HttpClientTransport('ftp://127.0.0.1/'), /must be http or https/);
  });

  it('forgets the session on a 404 to a request that carried it, so the client can initialize again', async () => {
    const server = await serve((_req, res, seen) => {
      const id = idOf(seen.body) as number;
      if (id === 1) res.writeHead(200, { ...JSON_HEAD, 'mcp-session-id': 'sess-old' }).end(rpc.result(1));
      else if (id === 2) res.writeHead(404, JSON_HEAD).end(rpc.error(undefined, -32001, 'Session not found'));
      else res.writeHead(200, { ...JSON_HEAD, 'mcp-session-id': 'sess-new' }).end(rpc.result(id));
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'initialize'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 1, 'initialize');
    client.transport.send(rpc.request(2, 'tools/list'), { requestId: 2 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the session error');
    const error = client.requestErrors[0]?.error;
    assert.equal(error?.status, 404);
    assert.equal(error?.message, 'the server ended the session (HTTP 404); initialize again');
    assert.equal(client.transport.sessionId, undefined);
    client.transport.send(rpc.request(3, 'initialize'), { requestId: 3 });
    await client.signals.until(() => client.messages.length === 2, 'the new initialize');
    assert.equal(server.seen[2]?.headers['mcp-session-id'], undefined);
    assert.equal(client.transport.sessionId, 'sess-new');
  });

  it('DELETEs the session on close (405 is fine) and fires onclose once', async () => {
    const server = await serve((req, res, seen) => {
      if (req.method === 'DELETE') res.writeHead(405).end();
      else
        res
          .writeHead(200, { ...JSON_HEAD, 'mcp-session-id': 'sess-9' })
          .end(rpc.result(idOf(seen.body) as number));
    }, true);
    const client = await connect(server.url, { bearerToken: 't' });
    client.transport.setProtocolVersion('2025-11-25');
    client.transport.send(rpc.request(1, 'initialize'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 1, 'initialize');
    await Promise.all([client.transport.close(), client.transport.close()]);
    const deletes = server.seen.filter((entry) => entry.method === 'DELETE');
    assert.equal(deletes.length, 1);
    assert.equal(deletes[0]?.headers['mcp-session-id'], 'sess-9');
    assert.equal(deletes[0]?.headers.authorization, 'Bearer t');
    assert.equal(deletes[0]?.headers['mcp-protocol-version'], '2025-11-25');
    assert.equal(client.closes, 1);
    assert.deepEqual(client.errors, []);
    assert.equal(client.transport.sessionId, undefined);
    assert.throws(() => client.transport.send('{}'), /transport closed/);
  });

  it('sends no DELETE without a session', async () => {
    const server = await serve((_req, res, seen) =>
      res.writeHead(200, JSON_HEAD).end(rpc.result(idOf(seen.body) as number)),
    );
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'ping'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 1, 'the response');
    await client.transport.close();
    assert.equal(server.count('DELETE'), 0);
    assert.equal(client.closes, 1);
  });
});

describe('HttpClientTransport: cancellation and resumption', () => {
  it('aborting SendOptions.signal closes the request: the server sees the connection go', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.write(sse(progress(1)));
    });
    const client = await connect(server.url);
    assert.equal(client.transport.closesStreamToCancel, true);
    const controller = new AbortController();
    client.transport.send(rpc.request(5, 'tools/call'), { requestId: 5, signal: controller.signal });
    await client.signals.until(() => client.messages.length === 1, 'the progress notification');
    controller.abort();
    await within(server.seen[0]!.closed, WAIT_MS, 'the server to see the request closed');
    assert.deepEqual(client.requestErrors, [], 'a cancelled request is not a transport failure');
    assert.deepEqual(client.errors, []);
  });

  it('resumes a stream that ended early with GET + Last-Event-ID after the server’s retry (2025-11-25 polling)', async () => {
    let streamEndedAt = 0;
    const server = await serve((req, res, seen) => {
      if (req.method === 'POST' && idOf(seen.body) === 1) {
        res.writeHead(200, { ...JSON_HEAD, 'mcp-session-id': 's-1' }).end(rpc.result(1));
      } else if (req.method === 'POST') {
        res.writeHead(200, SSE_HEAD);
        res.write('id: ev-1\nretry: 200\ndata: \n\n'); // priming event
        res.write(sse(progress(1), 'ev-2'));
        res.end(() => (streamEndedAt = performance.now()));
      } else if (req.method === 'GET') {
        res.writeHead(200, SSE_HEAD);
        // The stream stays open after the response: the client closes it once it has what it waited for.
        res.write(sse(rpc.result(2, { content: [] }), 'ev-3'));
      }
    });
    const client = await connect(server.url);
    client.transport.setProtocolVersion('2025-11-25');
    client.transport.send(rpc.request(1, 'initialize'), { requestId: 1 });
    await client.signals.until(() => client.messages.length === 1, 'initialize');
    client.transport.send(rpc.request(2, 'tools/call'), {
      requestId: 2,
      headers: { 'MCP-Protocol-Version': '2025-11-25' },
    });
    await client.signals.until(() => client.messages.length === 3, 'the resumed response');
    assert.deepEqual(texts(client).slice(1), [progress(1), rpc.result(2, { content: [] })]);
    const get = server.seen.find((entry) => entry.method === 'GET');
    assert.ok(get);
    assert.equal(get.headers['last-event-id'], 'ev-2');
    assert.equal(get.headers.accept, 'text/event-stream');
    assert.equal(get.headers['mcp-session-id'], 's-1');
    assert.equal(get.headers['mcp-protocol-version'], '2025-11-25');
    const waited = get.at - streamEndedAt;
    assert.ok(waited >= 195 && waited < 1000, `reconnected after ${waited.toFixed(0)} ms`);
    await within(get.closed, WAIT_MS, 'the client to close the resumed stream');
    assert.equal(server.count('GET'), 1);
    assert.deepEqual(client.requestErrors, []);
  });

  it('fails the request when a stream without event ids ends before the response (nothing to resume)', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.end(sse(progress(1)));
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'tools/call'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(
      client.requestErrors[0]?.error.message,
      'the response stream ended before the response arrived',
    );
    assert.equal(server.count('GET'), 0);
  });

  it('gives up after maxAttempts reconnections that bring nothing, backing off', async () => {
    const server = await serve((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(200, SSE_HEAD);
        res.end('id: e1\nretry: 10\ndata: \n\n');
      } else res.writeHead(503).end();
    });
    const client = await connect(server.url, { reconnect: { maxAttempts: 3 } });
    client.transport.send(rpc.request(1, 'tools/call'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(
      client.requestErrors[0]?.error.message,
      'the GET for the event stream answered HTTP 503; gave up after 3 reconnection attempts',
    );
    const gets = server.seen.filter((entry) => entry.method === 'GET');
    assert.equal(gets.length, 3);
    // 10 ms, then 20, then 40: each wait at least as long as the one before.
    const gaps = gets.slice(1).map((entry, i) => entry.at - gets[i]!.at);
    assert.ok(gaps[0]! >= 15 && gaps[1]! >= 35, `gaps ${gaps.map((gap) => gap.toFixed(0)).join(', ')}`);
  });

  it('fails the request when the server refuses to resume (405 on GET)', async () => {
    const server = await serve((req, res) => {
      if (req.method === 'POST') {
        res.writeHead(200, SSE_HEAD);
        res.end('id: e1\nretry: 10\n\n');
      } else res.writeHead(405).end();
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'tools/call'), { requestId: 1 });
    await client.signals.until(() => client.requestErrors.length === 1, 'the request error');
    assert.equal(client.requestErrors[0]?.error.status, 405);
    assert.equal(client.requestErrors[0]?.error.message, 'GET answered HTTP 405 Method Not Allowed');
  });

  it('close() ends a reconnection wait at once', async () => {
    const server = await serve((_req, res) => {
      res.writeHead(200, SSE_HEAD);
      res.end('id: e1\nretry: 60000\n\n');
    });
    const client = await connect(server.url);
    client.transport.send(rpc.request(1, 'tools/call'), { requestId: 1 });
    await server.signals.until(() => server.seen.length === 1, 'the POST');
    await within(server.seen[0]!.closed, WAIT_MS, 'the POST stream to end');
    await within(client.transport.close(), 1000, 'close during a 60 s retry wait');
    assert.deepEqual(client.requestErrors, []);
    assert.equal(client.closes, 1);
  });
});

describe('HttpClientTransport: the standalone GET stream', () => {
  it('delivers server messages and reconnects with Last-Event-ID when the connection drops', async () => {
    const server = await serve((req, res) => {
      if (req.method !== 'GET') return void res.writeHead(202).end();
      const gets = server.count('GET');
      if (gets === 1) {
        res.writeHead(200, SSE_HEAD);
        res.write('retry: 50\n\n');
        res.write(sse(rpc.notification('notifications/tools/list_changed'), 's-1'));
        // Drop the connection without ending the stream cleanly.
        setImmediate(() => res.socket?.destroy());
      } else if (gets === 2) {
        res.writeHead(200, SSE_HEAD);
        res.write(sse(rpc.request('srv-1', 'ping'), 's-2'));
      }
    });
    const client = await connect(server.url);
    client.transport.openEventStream();
    client.transport.openEventStream(); // a second call while open is a no-op
    await client.signals.until(() => client.messages.length === 2, 'two server messages');
    assert.deepEqual(texts(client), [
      rpc.notification('notifications/tools/list_changed'),
      rpc.request('srv-1', 'ping'),
    ]);
    assert.equal(server.count('GET'), 2);
    assert.equal(server.seen[1]?.headers['last-event-id'], 's-1');
    assert.equal(server.seen[0]?.headers.accept, 'text/event-stream');
    await client.transport.close();
    assert.deepEqual(client.errors, []);
  });

  it('gives up quietly on 405 (the server offers no standalone stream)', async () => {
    const server = await serve((_req, res) => res.writeHead(405).end());
    const client = await connect(server.url);
    client.transport.openEventStream();
    await server.signals.until(() => server.seen.length === 1, 'the GET');
    await client.transport.close();
    assert.deepEqual(client.errors, []);
    assert.equal(server.count('GET'), 1);
  });
});

// ---- the SSE parser ----

function parseAll(
  chunks: Array<string | Uint8Array>,
  maxEventBytes = 1 << 20,
): { events: SseEvent[]; retries: number[] } {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = new SseParser({
    maxEventBytes,
    onEvent: (event) => events.push(event),
    onRetry: (ms) => retries.push(ms),
  });
  for (const chunk of chunks) parser.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  parser.end();
  return { events, retries };
}

describe('SseParser', () => {
  it('parses fields, joins data lines, keeps ids across events, ignores comments and unknown fields', () => {
    const { events, retries } = parseAll([
      '\uFEFF: comment\n',
      'event: note\ndata: a\ndata:b\ndata:  c\nunknown: x\n\n',
      'id: 7\ndata\n\n',
      'data: after\n\n',
      'retry: 250\nretry: soon\n\n',
      'id\n\n',
    ]);
    assert.deepEqual(events, [
      { data: 'a\nb\n c', event: 'note', id: undefined },
      { data: '', event: '', id: '7' },
      { data: 'after', event: '', id: '7' },
      { data: '', event: '', id: '' },
    ]);
    assert.deepEqual(retries, [250]);
  });

  it('accepts CRLF, LF and CR line ends, also with CR and LF in different chunks', () => {
    const { events } = parseAll(['data: a\r', '\ndata: b\r\r', 'data: c\n\r\n']);
    assert.deepEqual(
      events.map((event) => event.data),
      ['a\nb', 'c'],
    );
  });

  it('drops an event the stream ended in the middle of, and ignores an id containing NUL', () => {
    const { events } = parseAll(['id: 1\ndata: x\n\nid: a\0b\ndata: y\n\ndata: never finished\n']);
    assert.deepEqual(events, [
      { data: 'x', event: '', id: '1' },
      { data: 'y', event: '', id: '1' },
    ]);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const bytes = Buffer.from('data: é€😀\n\n');
    const { events } = parseAll([
      bytes.subarray(0, 8),
      bytes.subarray(8, 10),
      bytes.subarray(10, 14),
      bytes.subarray(14),
    ]);
    assert.equal(events[0]?.data, 'é€😀');
  });

  it('throws SseEventTooLargeError for an event over the limit, also before its line ends', () => {
    assert.throws(() => parseAll([`data: ${'x'.repeat(100)}`], 64), SseEventTooLargeError);
    assert.throws(() => parseAll(['data: x\n'.repeat(20)], 64), {
      message: 'an SSE event exceeds the 64-byte limit',
    });
    // Many small events are fine: the limit is per event.
    assert.equal(parseAll(['data: x\n\n'.repeat(100)], 64).events.length, 100);
  });

  it('parses the same events however the bytes are chunked and whatever the line ends (property)', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', ':', '\u2028') });
    const event = fc.record({
      data: fc.array(field, { minLength: 1, maxLength: 3 }),
      id: fc.option(fc.stringMatching(/^[a-z0-9.-]{1,8}$/), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(event, { maxLength: 6 }),
        fc.constantFrom('\n', '\r', '\r\n'),
        fc.array(fc.nat(), { maxLength: 10 }),
        (events, eol, cuts) => {
          const text = events
            .map(
              (e) =>
                (e.id === undefined ? '' : `id: ${e.id}${eol}`) +
                e.data.map((d) => `data: ${d}${eol}`).join('') +
                eol,
            )
            .join('');
          const bytes = Buffer.from(text);
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks: Uint8Array[] = [];
          let last = 0;
          for (const point of [...points, bytes.length]) {
            chunks.push(bytes.subarray(last, point));
            last = point;
          }
          let id: string | undefined;
          const expected = events.map((e) => {
            id = e.id ?? id;
            return { data: e.data.join('\n'), event: '', id };
          });
          assert.deepEqual(parseAll(chunks).events, expected);
        },
      ),
      { numRuns: 300 },
    );
  });
});
