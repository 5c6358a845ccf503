// Threat A7 over real HTTP (127.0.0.1, port 0): 2025-03-26 batch items are values judged once, and no answer on
// either era echoes an id that is not a string, an integer or null.

import assert from 'node:assert/strict';
import { EventEmitter, once } from 'node:events';
import { request as httpRequest } from 'node:http';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import {
  BATCHES_THAT_BROKE,
  ECHOED_BEFORE,
  LATER_TEXT,
  anyMessage,
  batches,
  idsAreUsable,
  sortEntries,
} from './support/batch-items.js';
import { within } from './fixtures/client/harness.js';

const ACCEPT_BOTH = 'application/json, text/event-stream';
const JSON_HEADERS = { 'content-type': 'application/json', accept: ACCEPT_BOTH };
const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const NOT_AN_OBJECT =
  '[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON-RPC message must be a JSON object"}}]';
const BAD_ERROR_ID =
  '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: the \\"id\\" of an error response must be a string, an integer or null"}}';

/** Kept small: every run is a real HTTP round trip. */
const RUNS = 60;

interface Answer {
  status: number;
  sessionId: string | undefined;
  body: string;
}

/** Every id in an answer body is the message's own string or integer id, null, or absent. */
function assertIdsUsable(answer: Answer, sent: Record<string, unknown>): void {
  if (answer.body === '') return;
  assert.ok(idsAreUsable(answer.body), answer.body);
  const { id } = JSON.parse(answer.body) as { id?: unknown };
  // As JSON carries it: a sent -0 is written, and so answered, as 0.
  if (id !== undefined && id !== null)
    assert.equal(id, JSON.parse(JSON.stringify(sent.id) ?? 'null'), answer.body);
}

function post(url: string, headers: Record<string, string>, body: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const sessionId = res.headers['mcp-session-id'];
        resolve({
          status: res.statusCode ?? 0,
          sessionId: typeof sessionId === 'string' ? sessionId : undefined,
          body: text,
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

const text = (message: unknown): string => JSON.stringify(message);

describe('A7 over HTTP', () => {
  let listening: HttpListening;
  let url: string;
  let calls = 0;

  before(async () => {
    const server = new McpServer({ name: 'batch', version: '1.0.0' }, { logger: silentLogger });
    server.tool({ name: 'canary', description: 'Counts its calls', handler: () => `called ${++calls}` });
    server.tool({
      name: 'later',
      description: 'Answers after a microtask',
      handler: async () => {
        await Promise.resolve();
        return LATER_TEXT;
      },
    });
    listening = await listenHttp(server, { logger: silentLogger });
    url = listening.url;
  });
  after(() => listening.close());

  /** Opens a legacy session at `revision` and returns the headers its later POSTs carry. */
  async function openSession(revision: string): Promise<Record<string, string>> {
    const opened = await post(
      url,
      JSON_HEADERS,
      text({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: revision, capabilities: {} },
      }),
    );
    assert.equal(opened.status, 200, opened.body);
    assert.ok(opened.sessionId !== undefined);
    const headers = { ...JSON_HEADERS, 'mcp-session-id': opened.sessionId, 'mcp-protocol-version': revision };
    const initialized = await post(
      url,
      headers,
      text({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    assert.equal(initialized.status, 202);
    return headers;
  }

  describe('legacy wire, 2025-03-26 session', () => {
    let headers: Record<string, string>;
    before(async () => {
      headers = await openSession('2025-03-26');
    });

    it('A7 a string holding a notification is answered at once with one -32600 entry (regression: the POST hung until the request time limit)', async () => {
      const batch = text([text({ jsonrpc: '2.0', method: 'notifications/initialized' })]);
      const answer = await post(url, headers, batch);
      assert.equal(answer.status, 200);
      assert.equal(answer.body, NOT_AN_OBJECT);
    });

    it('A7 a string holding a request is not run (regression: it was decoded and the request ran)', async () => {
      const before = calls;
      const smuggled = text({
        jsonrpc: '2.0',
        id: 'smuggled',
        method: 'tools/call',
        params: { name: 'canary' },
      });
      const answer = await post(url, headers, text([smuggled]));
      assert.equal(answer.status, 200);
      assert.equal(answer.body, NOT_AN_OBJECT);
      assert.equal(calls, before);
    });

    it('A7 a string holding an array is one invalid item (regression: it was answered [[…]])', async () => {
      const answer = await post(url, headers, text([text([{ jsonrpc: '2.0', id: 7, method: 'ping' }])]));
      assert.equal(answer.status, 200);
      assert.equal(answer.body, NOT_AN_OBJECT);
    });

    it('A7 an error response with id {} in a batch gets an entry with id null; a valid request beside it its answer', async () => {
      const answer = await post(
        url,
        headers,
        text([
          { jsonrpc: '2.0', id: {}, error: { code: -1, message: 'x' } },
          { jsonrpc: '2.0', id: 3, method: 'ping' },
        ]),
      );
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.body), [
        {
          jsonrpc: '2.0',
          id: null,
          error: {
            code: -32600,
            message: 'Invalid Request: the "id" of an error response must be a string, an integer or null',
          },
        },
        { jsonrpc: '2.0', id: 3, result: {} },
      ]);
    });

    it('A7 a batch of notifications and well-formed responses only is accepted with 202 and no body', async () => {
      const batch = text([
        { jsonrpc: '2.0', method: 'notifications/whatever' },
        { jsonrpc: '2.0', id: 99, result: {} },
      ]);
      assert.deepEqual(await post(url, headers, batch), { status: 202, sessionId: undefined, body: '' });
    });

    it('A7 property: one array answer with one entry per request or invalid item, or 202 and no body', async () => {
      await fc.assert(
        fc.asyncProperty(batches, async (batch) => {
          const answer = await post(url, headers, text(batch.items));
          if (batch.entries.length === 0) {
            assert.deepEqual([answer.status, answer.body], [202, '']);
            return;
          }
          assert.equal(answer.status, 200, answer.body);
          const entries: unknown = JSON.parse(answer.body);
          assert.ok(Array.isArray(entries), answer.body);
          assert.deepEqual(sortEntries(entries), sortEntries(batch.entries));
          assert.ok(idsAreUsable(answer.body), answer.body);
        }),
        { numRuns: RUNS, examples: BATCHES_THAT_BROKE },
      );
    });

    it('A7 property: a single message with an id of any JSON type is never answered with that id unless it is one', async () => {
      await fc.assert(
        fc.asyncProperty(anyMessage, async (message) => {
          assertIdsUsable(await post(url, headers, text(message)), message);
        }),
        { numRuns: RUNS, examples: ECHOED_BEFORE },
      );
    });

    for (const id of [[1], {}]) {
      it(`A7 a lone error response with id ${text(id)} is refused with 400 and no id (it was accepted with 202)`, async () => {
        const answer = await post(
          url,
          headers,
          text({ jsonrpc: '2.0', id, error: { code: -1, message: 'x' } }),
        );
        assert.equal(answer.status, 400);
        assert.equal(answer.body, BAD_ERROR_ID);
      });
    }
  });

  describe('modern wire', () => {
    const modernHeaders = { ...JSON_HEADERS, 'mcp-protocol-version': '2026-07-28' };

    for (const id of [[1], {}]) {
      it(`A7 an error response with id ${text(id)} is refused with 400 and no id (regression: the id was echoed)`, async () => {
        const answer = await post(
          url,
          modernHeaders,
          text({ jsonrpc: '2.0', id, error: { code: -1, message: 'x' } }),
        );
        assert.deepEqual(answer, { status: 400, sessionId: undefined, body: BAD_ERROR_ID });
      });
    }

    it('A7 property: a single message with an id of any JSON type is never answered with that id unless it is one', async () => {
      await fc.assert(
        fc.asyncProperty(anyMessage, async (message) => {
          assertIdsUsable(await post(url, modernHeaders, text(message)), message);
        }),
        { numRuns: RUNS, examples: ECHOED_BEFORE },
      );
    });

    it('A7 an error response with a real id is refused with 400 and that id', async () => {
      const answer = await post(
        url,
        modernHeaders,
        text({ jsonrpc: '2.0', id: 5, error: { code: -1, message: 'x' } }),
      );
      assert.equal(answer.status, 400);
      assert.equal(
        answer.body,
        '{"jsonrpc":"2.0","id":5,"error":{"code":-32600,"message":"Invalid Request: clients do not POST responses on protocol revision 2026-07-28"}}',
      );
    });

    it('A7 an error response with id null is refused with 400 and no id (null is not echoed as a request id)', async () => {
      const answer = await post(
        url,
        modernHeaders,
        text({ jsonrpc: '2.0', id: null, error: { code: -1, message: 'x' } }),
      );
      assert.equal(answer.status, 400);
      assert.equal(
        answer.body,
        '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: clients do not POST responses on protocol revision 2026-07-28"}}',
      );
    });

    it('A7 a batch holding strings is refused whole with 400, and nothing inside it runs', async () => {
      const before = calls;
      const smuggled = text({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'canary', _meta: META },
      });
      const answer = await post(url, modernHeaders, text([smuggled]));
      assert.equal(answer.status, 400);
      assert.equal(
        answer.body,
        '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: protocol revision 2026-07-28 has no JSON-RPC batches; send one message per POST"}}',
      );
      assert.equal(calls, before);
    });
  });
});

/** A POST whose answer is read as it arrives (SSE), and whose end is awaited separately. */
interface Streamed {
  status: number;
  contentType: string | undefined;
  /** Resolves once the body read so far satisfies `predicate`. */
  until(predicate: (body: string) => boolean): Promise<string>;
  /** The whole body, once the response ends. */
  ended: Promise<string>;
}

function postStreamed(url: string, headers: Record<string, string>, body: string): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'POST', headers }, (res) => {
      let text = '';
      const waiters = new Set<{ predicate: (body: string) => boolean; resolve(body: string): void }>();
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        for (const waiter of [...waiters]) {
          if (!waiter.predicate(text)) continue;
          waiters.delete(waiter);
          waiter.resolve(text);
        }
      });
      const ended = new Promise<string>((done, fail) => {
        res.on('end', () => done(text));
        res.on('error', fail);
      });
      resolve({
        status: res.statusCode ?? 0,
        contentType: res.headers['content-type'],
        until: (predicate) =>
          predicate(text)
            ? Promise.resolve(text)
            : new Promise((found) => waiters.add({ predicate, resolve: found })),
        ended,
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * How long a cancelled request's POST may take to end here. Far under the request time limit (120 s): a POST that
 * only ended at the limit fails the test; a correct one ends within milliseconds of the cancellation.
 */
const ENDS_MS = 15_000;

describe('A7 requests the client cancels, on legacy HTTP (2025-03-26 session)', () => {
  let listening: HttpListening;
  let url: string;
  let headers: Record<string, string>;
  /** Emits "started:<tag>" when a call of "hold" with that tag runs, and "ended:<tag>" when it was aborted. */
  const calls = new EventEmitter();

  before(async () => {
    const server = new McpServer({ name: 'cancel', version: '1.0.0' }, { logger: silentLogger });
    server.tool({
      name: 'hold',
      description: 'Runs until it is cancelled; reports progress first when asked',
      inputSchema: {
        type: 'object',
        properties: { tag: { type: 'string' }, progress: { type: 'boolean' } },
        required: ['tag'],
      },
      handler: (args, ctx) => {
        const { tag, progress } = args as { tag: string; progress?: boolean };
        return new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            calls.emit(`ended:${tag}`);
            resolve('too late');
          });
          if (progress === true) ctx.progress(1, 2);
          calls.emit(`started:${tag}`);
        });
      },
    });
    listening = await listenHttp(server, { logger: silentLogger });
    url = listening.url;
    const opened = await post(
      url,
      JSON_HEADERS,
      text({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {} },
      }),
    );
    assert.equal(opened.status, 200, opened.body);
    headers = {
      ...JSON_HEADERS,
      'mcp-session-id': String(opened.sessionId),
      'mcp-protocol-version': '2025-03-26',
    };
    assert.equal(
      (await post(url, headers, text({ jsonrpc: '2.0', method: 'notifications/initialized' }))).status,
      202,
    );
  });
  after(() => listening.close());

  const hold = (id: string, tag: string, progress = false): Record<string, unknown> => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: {
      name: 'hold',
      arguments: progress ? { tag, progress } : { tag },
      ...(progress && { _meta: { progressToken: `p-${id}` } }),
    },
  });

  /** Cancels `id` in a POST of its own; the cancellation itself is accepted with 202. */
  async function cancel(id: string): Promise<void> {
    const answer = await post(
      url,
      headers,
      text({
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: id, reason: 'not needed' },
      }),
    );
    assert.deepEqual([answer.status, answer.body], [202, '']);
  }

  /** A POST holding requests MUST be answered with JSON or SSE (2025-03-26 transports): an empty stream, not 202. */
  async function assertEmptyStream(pending: ReturnType<typeof postStreamed>): Promise<void> {
    const streamed = await within(pending, ENDS_MS, 'the POST to answer');
    assert.deepEqual([streamed.status, streamed.contentType], [200, 'text/event-stream']);
    assert.equal(await within(streamed.ended, ENDS_MS, 'the POST to end'), '');
  }

  it('A7 a POST whose only request is cancelled before anything was sent ends as an empty SSE stream (regression: it stayed open until the 120 s time limit)', async () => {
    const started = once(calls, 'started:single');
    const ended = once(calls, 'ended:single');
    const pending = postStreamed(url, headers, text(hold('single', 'single')));
    await within(started, ENDS_MS, 'the call to start');
    await cancel('single');
    await within(ended, ENDS_MS, 'the handler to see the cancellation');
    await assertEmptyStream(pending);
  });

  it('A7 a POST whose request is cancelled after its SSE stream began ends that stream with no response (regression: the stream stayed open until the time limit)', async () => {
    const streamed = await within(
      postStreamed(url, headers, text(hold('streamed', 'streamed', true))),
      ENDS_MS,
      'the SSE response to start',
    );
    assert.equal(streamed.status, 200);
    assert.equal(streamed.contentType, 'text/event-stream');
    await within(
      streamed.until((body) => body.includes('notifications/progress')),
      ENDS_MS,
      'the progress event',
    );
    await cancel('streamed');
    const body = await within(streamed.ended, ENDS_MS, 'the SSE stream to end');
    const data = body
      .split('\n')
      .filter((line) => line.startsWith('data:') && line.length > 'data:'.length)
      .map((line) => JSON.parse(line.slice('data:'.length)) as Record<string, unknown>);
    assert.deepEqual(data, [
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'p-streamed', progress: 1, total: 2 },
      },
    ]);
  });

  it('A7 a batch whose every request is cancelled ends as an empty SSE stream (regression: the POST stayed open until the time limit)', async () => {
    const started = Promise.all([once(calls, 'started:b1'), once(calls, 'started:b2')]);
    const pending = postStreamed(url, headers, text([hold('b1', 'b1'), hold('b2', 'b2')]));
    await within(started, ENDS_MS, 'both calls to start');
    await cancel('b1');
    await cancel('b2');
    await assertEmptyStream(pending);
  });

  it('A7 a batch with one request cancelled is answered with the other entries only', async () => {
    const started = once(calls, 'started:kept');
    const pending = post(
      url,
      headers,
      text([hold('dropped', 'kept'), { jsonrpc: '2.0', id: 'quick', method: 'ping' }]),
    );
    await within(started, ENDS_MS, 'the call to start');
    await cancel('dropped');
    const answer = await within(pending, ENDS_MS, 'the POST to end');
    assert.deepEqual(
      [answer.status, JSON.parse(answer.body)],
      [200, [{ jsonrpc: '2.0', id: 'quick', result: {} }]],
    );
  });

  it('a cancellation naming no request in flight is ignored, and the next request is answered as usual', async () => {
    await cancel('no-such-request');
    const answer = await post(url, headers, text({ jsonrpc: '2.0', id: 'p', method: 'ping' }));
    assert.deepEqual([answer.status, answer.body], [200, '{"jsonrpc":"2.0","id":"p","result":{}}']);
  });
});
