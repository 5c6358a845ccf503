// Issue 14: one pipeline for every request of every era and transport. One middleware, driven over memory, stdio,
// HTTP modern and HTTP legacy, must see the same read-only view (caller, era, resolved tool) on each.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, describe, it } from 'node:test';
import { McpClient, type Era } from '../src/client/index.js';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { MODERN_REVISION, type Caller, type Transport } from '../src/protocol/index.js';
import { Denial, type RequestView } from '../src/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { StdioServerTransport } from '../src/transports/stdio/index.js';
import { modern, testServer } from './support/harness.js';

const callerNamed = (subject: string, via: string): Caller =>
  Object.freeze({ subject, via, scopes: Object.freeze(['tools:read']) });

interface Seen {
  transport: string;
  era: Era;
  method: string;
  version: string | undefined;
  caller: string;
  target: string | undefined;
  annotations: unknown;
  frozen: boolean;
}

/** A server whose one middleware writes down what it saw of every request. */
function recordingServer(): { server: ReturnType<typeof testServer>; seen: Seen[] } {
  const server = testServer();
  server.tool({
    name: 'lookup',
    annotations: { readOnlyHint: true },
    handler: (_args, ctx) => `for ${ctx.auth.subject}`,
  });
  const seen: Seen[] = [];
  server.use((request: RequestView, next) => {
    seen.push({
      transport: request.transport.kind,
      era: request.era,
      method: request.method,
      version: request.protocolVersion,
      caller: `${request.caller.subject}/${request.caller.via}`,
      target: request.target === undefined ? undefined : `${request.target.kind}:${request.target.name}`,
      annotations: request.target?.kind === 'tool' ? request.target.annotations : undefined,
      frozen: request.target === undefined || Object.isFrozen(request.target.definition),
    });
    return next();
  });
  return { server, seen };
}

const INTERESTING = new Set(['initialize', 'ping', 'tools/list', 'tools/call']);
const interesting = (seen: Seen[]): Seen[] => seen.filter((entry) => INTERESTING.has(entry.method));

/** What the middleware must see for one client session of `era` over `transport` as `caller`. */
function expected(
  transport: string,
  era: Era,
  caller: string,
  version: string,
  withInitialize: boolean,
): Seen[] {
  const tool = { target: 'tool:lookup', annotations: { readOnlyHint: true }, frozen: true };
  const none = { target: undefined, annotations: undefined, frozen: true };
  const base = { transport, era, version, caller };
  return [
    ...(withInitialize ? [{ ...base, method: 'initialize', ...none }] : []),
    ...(era === 'legacy' ? [{ ...base, method: 'ping', ...none }] : []),
    { ...base, method: 'tools/list', ...none },
    { ...base, method: 'tools/call', ...tool },
  ];
}

/** initialize (legacy), ping (legacy), tools/list and tools/call through the real client. */
async function drive(transport: Transport, era: Era): Promise<void> {
  const client = new McpClient(
    { name: 'pipeline-test', version: '1.0.0' },
    { era, listenForChanges: false, trusted: true },
  );
  await client.connect(transport);
  if (era === 'legacy') await client.request('ping');
  assert.deepEqual(
    (await client.listTools()).map((tool) => tool.name),
    ['lookup'],
  );
  const outcome = await client.callTool('lookup', {});
  assert.equal(outcome.isError, undefined);
  await client.close();
}

/** Writes JSON lines into a stdio server transport and reads its answers by id. */
class StdioPeer {
  readonly #stdin = new PassThrough();
  readonly stdout = new PassThrough();
  readonly #waiting = new Map<number, (message: JsonObject) => void>();
  #partial = '';

  constructor() {
    this.stdout.on('data', (chunk: Buffer) => {
      const lines = (this.#partial + String(chunk)).split('\n');
      this.#partial = lines.pop() ?? '';
      for (const line of lines) {
        const message = JSON.parse(line) as JsonObject;
        if (typeof message.id === 'number') this.#waiting.get(message.id)?.(message);
      }
    });
  }

  get stdin(): PassThrough {
    return this.#stdin;
  }

  request(id: number, method: string, params: JsonObject = {}): Promise<JsonObject> {
    const answer = new Promise<JsonObject>((resolve) => this.#waiting.set(id, resolve));
    this.#stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return answer;
  }

  notify(method: string): void {
    this.#stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
  }
}

describe('issue 14: one pipeline, one view for middleware on every transport and era', () => {
  const servers: HttpListening[] = [];
  after(async () => {
    for (const listening of servers) await listening.close();
  });

  it('memory, both eras: the caller from the pair, the tool resolved before middleware', async () => {
    const { server, seen } = recordingServer();
    for (const era of ['legacy', 'modern'] as const) {
      const [clientEnd, serverEnd] = createLinkedPair({ caller: callerNamed('alice', 'local') });
      await server.connect(serverEnd);
      await drive(clientEnd, era);
    }
    assert.deepEqual(interesting(seen), [
      ...expected('memory', 'legacy', 'alice/local', '2025-11-25', true),
      ...expected('memory', 'modern', 'alice/local', MODERN_REVISION, false),
    ]);
    await server.close();
  });

  it('stdio, both eras, a ping before initialize included: the caller from the transport options', async () => {
    const { server, seen } = recordingServer();
    const peer = new StdioPeer();
    await server.connect(
      new StdioServerTransport({
        stdin: peer.stdin,
        stdout: peer.stdout,
        caller: callerNamed('ci', 'local'),
      }),
    );
    assert.deepEqual((await peer.request(1, 'ping')).result, {});
    await peer.request(2, 'tools/list', modern());
    await peer.request(3, 'tools/call', modern({ name: 'lookup' }));
    await peer.request(4, 'initialize', { protocolVersion: '2025-06-18', capabilities: {} });
    peer.notify('notifications/initialized');
    await peer.request(5, 'ping');
    await peer.request(6, 'tools/list');
    const call = await peer.request(7, 'tools/call', { name: 'lookup' });
    assert.deepEqual((call.result as JsonObject).content, [{ type: 'text', text: 'for ci' }]);
    const base = { transport: 'stdio', caller: 'ci/local', frozen: true };
    const tool = { target: 'tool:lookup', annotations: { readOnlyHint: true } };
    const none = { target: undefined, annotations: undefined };
    assert.deepEqual(interesting(seen), [
      { ...base, ...none, era: 'legacy', method: 'ping', version: undefined },
      { ...base, ...none, era: 'modern', method: 'tools/list', version: MODERN_REVISION },
      { ...base, ...tool, era: 'modern', method: 'tools/call', version: MODERN_REVISION },
      { ...base, ...none, era: 'legacy', method: 'initialize', version: '2025-06-18' },
      { ...base, ...none, era: 'legacy', method: 'ping', version: '2025-06-18' },
      { ...base, ...none, era: 'legacy', method: 'tools/list', version: '2025-06-18' },
      { ...base, ...tool, era: 'legacy', method: 'tools/call', version: '2025-06-18' },
    ]);
    await server.close();
  });

  it('HTTP modern and legacy: the caller from the authenticate hook, the same view as elsewhere', async () => {
    const { server, seen } = recordingServer();
    const bob = callerNamed('bob', 'bearer');
    const listening = await listenHttp(server, { port: 0, authenticate: () => bob });
    servers.push(listening);
    await drive(new HttpClientTransport(listening.url), 'modern');
    await drive(new HttpClientTransport(listening.url), 'legacy');
    assert.deepEqual(interesting(seen), [
      ...expected('http', 'modern', 'bob/bearer', MODERN_REVISION, false),
      ...expected('http', 'legacy', 'bob/bearer', '2025-11-25', true),
    ]);
  });

  it('HTTP: the view carries the remote address and reads request headers', async () => {
    const server = testServer();
    server.tool({ name: 'lookup', annotations: { readOnlyHint: true }, handler: () => 'ok' });
    const facts: string[] = [];
    server.use((request, next) => {
      facts.push(`${request.transport.remoteAddress} ${request.transport.header?.('mcp-method')}`);
      return next();
    });
    const listening = await listenHttp(server, { port: 0 });
    servers.push(listening);
    await drive(new HttpClientTransport(listening.url), 'modern');
    assert.ok(facts.includes('127.0.0.1 tools/call'), facts.join('; '));
  });
});

describe('issue 14: the middleware verbs', () => {
  it('deny answers with the denial, and on HTTP with its status and headers', async () => {
    const server = testServer();
    let ran = false;
    server.tool({
      name: 'drop_table',
      annotations: { destructiveHint: true },
      handler: () => {
        ran = true;
        return 'dropped';
      },
    });
    server.use((request, next) => {
      if (request.target?.kind === 'tool' && request.target.annotations?.destructiveHint === true) {
        request.deny(-31001, `Forbidden: ${request.caller.subject} may not call destructive tools`, {
          httpStatus: 403,
          httpHeaders: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="tools:write"' },
        });
      }
      return next();
    });
    const listening = await listenHttp(server, { port: 0 });
    try {
      const response = await fetch(listening.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': MODERN_REVISION,
          'mcp-method': 'tools/call',
          'mcp-name': 'drop_table',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: modern({ name: 'drop_table', arguments: {} }),
        }),
      });
      assert.equal(response.status, 403);
      assert.equal(
        response.headers.get('www-authenticate'),
        'Bearer error="insufficient_scope", scope="tools:write"',
      );
      assert.deepEqual(await response.json(), {
        jsonrpc: '2.0',
        id: 1,
        error: { code: -31001, message: 'Forbidden: anonymous may not call destructive tools' },
      });
      assert.equal(ran, false);
    } finally {
      await listening.close();
    }
  });

  it('a Denial thrown from middleware on stdio is the same JSON-RPC error (no HTTP status to give)', async () => {
    const server = testServer();
    server.tool({ name: 'lookup', handler: () => 'ok' });
    server.use(() => {
      throw new Denial(-31002, 'Too many requests: wait 3 s', {
        httpStatus: 429,
        httpHeaders: { 'retry-after': '3' },
      });
    });
    const peer = new StdioPeer();
    await server.connect(new StdioServerTransport({ stdin: peer.stdin, stdout: peer.stdout }));
    const answer = await peer.request(9, 'tools/call', modern({ name: 'lookup' }));
    assert.deepEqual(answer.error, { code: -31002, message: 'Too many requests: wait 3 s' });
    await server.close();
  });

  it('addResultMeta adds to the result _meta, on a serialised list as on a call result', async () => {
    const server = testServer();
    server.tool({ name: 'lookup', handler: () => 'ok' });
    server.use((request, next) => {
      request.addResultMeta({ 'example.com/policy': `checked ${request.method}` });
      return next();
    });
    const peer = new StdioPeer();
    await server.connect(new StdioServerTransport({ stdin: peer.stdin, stdout: peer.stdout }));
    const list = (await peer.request(1, 'tools/list', modern())).result as JsonObject;
    const call = (await peer.request(2, 'tools/call', modern({ name: 'lookup' }))).result as JsonObject;
    for (const [result, method] of [
      [list, 'tools/list'],
      [call, 'tools/call'],
    ] as const) {
      const meta = result._meta as JsonObject;
      assert.equal(meta['example.com/policy'], `checked ${method}`);
      assert.deepEqual(meta['io.modelcontextprotocol/serverInfo'], { name: 'core-test', version: '1.0.0' });
    }
    assert.deepEqual(
      (list.tools as JsonObject[]).map((tool) => tool.name),
      ['lookup'],
    );
    await server.close();
  });

  it('a Denial with an HTTP status outside 400–599 is a programming error, said at once', () => {
    assert.throws(() => new Denial(-31000, 'no', { httpStatus: 302 }), {
      message: "a denial's httpStatus must be an integer from 400 to 599, got 302",
    });
  });

  it('a Denial may not set framing headers or header values with line breaks (response splitting)', () => {
    assert.throws(
      () => new Denial(-31000, 'no', { httpStatus: 403, httpHeaders: { 'Content-Length': '0' } }),
      {
        message: 'a denial may not set the HTTP header "Content-Length"',
      },
    );
    assert.throws(
      () => new Denial(-31000, 'no', { httpStatus: 403, httpHeaders: { 'x-why': 'a\r\nSet-Cookie: x=1' } }),
      {
        message:
          'the denial\'s HTTP header "x-why" must be visible ASCII, space and tab (at most 8,192 characters)',
      },
    );
    assert.throws(() => new Denial(-31000, 'no', { httpHeaders: { 'bad name': 'x' } }), {
      message: 'a denial may not set the HTTP header "bad name"',
    });
  });

  it('the view signal aborts when the client cancels, so a slow policy step can stop waiting', async () => {
    const server = testServer();
    server.tool({ name: 'lookup', handler: () => 'ok' });
    let aborted: Promise<void> | undefined;
    server.use((request, next) => {
      if (request.method !== 'tools/call') return next();
      aborted = new Promise((resolve) => request.signal.addEventListener('abort', () => resolve()));
      return new Promise(() => {}); // a policy step that never decides
    });
    const peer = new StdioPeer();
    await server.connect(new StdioServerTransport({ stdin: peer.stdin, stdout: peer.stdout }));
    await peer.request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {} }).catch(() => {});
    void peer.request(2, 'tools/call', { name: 'lookup' });
    for (let turn = 0; turn < 1000 && aborted === undefined; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(aborted !== undefined, 'the middleware saw the tools/call');
    peer.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } }) + '\n',
    );
    await aborted;
    await server.close();
  });
});
