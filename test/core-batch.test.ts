// Threat A7, batches and ids: a batch item is a decoded value (never text decoded again) and no answer echoes an
// id that is not a string, an integer or null. In-memory transport and a real stdio server over in-process streams.

import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import type { Logger, McpServer } from '../src/server/index.js';
import { StdioServerTransport } from '../src/transports/stdio/index.js';
import { connect, deferred, initializeLegacy, testServer, type RawClient } from './support/harness.js';

const NOT_AN_OBJECT = {
  jsonrpc: '2.0',
  id: null,
  error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be a JSON object' },
};
const BAD_ERROR_ID = 'Invalid Request: the "id" of an error response must be a string, an integer or null';

/** Wire text of a message, as a client would put it inside a batch as a string. */
const text = (message: object): string => JSON.stringify(message);

/** A 2025-03-26 session over the in-memory pair, with a tool that counts its calls. */
async function session(): Promise<{ client: RawClient; calls: () => number }> {
  const server = testServer();
  let calls = 0;
  server.tool({ name: 'canary', handler: () => `called ${++calls}` });
  const client = await connect(server);
  await initializeLegacy(client, '2025-03-26');
  return { client, calls: () => calls };
}

/** Sends `batch`, then a flush: everything the batch produced has arrived by then. Returns the arrays received. */
async function arraysAfter(client: RawClient, batch: unknown[]): Promise<unknown[]> {
  const from = client.received().length;
  client.send(batch);
  await client.flush();
  return client
    .received()
    .slice(from)
    .filter((m) => Array.isArray(m));
}

/** Sorts batch entries by their id's JSON text, so that tests need not depend on completion order. */
const byId = (entries: unknown): unknown[] =>
  [...(entries as Array<{ id?: unknown }>)].sort((a, b) =>
    String(JSON.stringify(a.id)).localeCompare(String(JSON.stringify(b.id))),
  );

describe('A7 batches on the in-memory transport (2025-03-26 session)', () => {
  it('A7 a string holding a notification is an invalid item and the batch is answered (regression: it was decoded again and the batch never answered)', async () => {
    const { client } = await session();
    const arrays = await arraysAfter(client, [
      text({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      { jsonrpc: '2.0', id: 1, method: 'ping' },
    ]);
    assert.deepEqual(arrays.map(byId), [byId([{ jsonrpc: '2.0', id: 1, result: {} }, NOT_AN_OBJECT])]);
  });

  it('A7 a string holding a request is not run (regression: it was decoded and the request ran)', async () => {
    const { client, calls } = await session();
    const arrays = await arraysAfter(client, [
      text({ jsonrpc: '2.0', id: 'smuggled', method: 'tools/call', params: { name: 'canary' } }),
    ]);
    assert.deepEqual(arrays, [[NOT_AN_OBJECT]]);
    assert.equal(calls(), 0);
  });

  it('A7 a string holding an array gets one -32600 entry (regression: it ran as a nested batch answered [[…]])', async () => {
    const { client } = await session();
    const arrays = await arraysAfter(client, [text([{ jsonrpc: '2.0', id: 7, method: 'ping' }])]);
    assert.deepEqual(arrays, [[NOT_AN_OBJECT]]);
  });

  it('A7 an array nested in a batch is one invalid item with id null', async () => {
    const { client } = await session();
    const arrays = await arraysAfter(client, [[{ jsonrpc: '2.0', id: 7, method: 'ping' }]]);
    assert.deepEqual(arrays, [
      [
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request: batches cannot be nested' },
        },
      ],
    ]);
  });

  it('A7 every non-object item gets its own -32600 entry with id null, next to the answers to requests', async () => {
    const { client } = await session();
    const arrays = await arraysAfter(client, [
      42,
      'tools/list',
      null,
      true,
      { jsonrpc: '2.0', id: 'p', method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
    ]);
    assert.deepEqual(arrays.map(byId), [
      byId([
        NOT_AN_OBJECT,
        NOT_AN_OBJECT,
        NOT_AN_OBJECT,
        NOT_AN_OBJECT,
        { jsonrpc: '2.0', id: 'p', result: {} },
      ]),
    ]);
  });

  it('A7 an error response with id [1] or {} inside a batch is an invalid item with id null (regression: it was taken for a response and got no entry)', async () => {
    const { client } = await session();
    const arrays = await arraysAfter(client, [
      { jsonrpc: '2.0', id: [1], error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', id: {}, error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'an answer to nothing we asked' } },
    ]);
    const entry = { jsonrpc: '2.0', id: null, error: { code: -32600, message: BAD_ERROR_ID } };
    assert.deepEqual(arrays, [[entry, entry]]);
  });

  it('A7 a request the client cancels inside a batch leaves the rest answered (regression: the batch waited for an answer that never comes)', async () => {
    const server = testServer();
    const started = deferred();
    server.tool({
      name: 'hold',
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => resolve('too late'));
          started.resolve();
        }),
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    client.send([
      { jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'hold' } },
      { jsonrpc: '2.0', id: 'quick', method: 'ping' },
    ]);
    await started.promise;
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'held' } });
    assert.deepEqual(await client.waitForBatch(), [{ jsonrpc: '2.0', id: 'quick', result: {} }]);
  });

  it('A7 a batch whose only request is cancelled is answered with nothing, never with an empty array', async () => {
    const server = testServer();
    const started = deferred();
    server.tool({
      name: 'hold',
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => resolve('too late'));
          started.resolve();
        }),
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    client.send([{ jsonrpc: '2.0', id: 'held', method: 'tools/call', params: { name: 'hold' } }]);
    await started.promise;
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'held' } });
    await client.flush();
    assert.deepEqual(
      client.received().filter((m) => Array.isArray(m)),
      [],
    );
  });
});

describe('A7 responses from the client with ids that are not ids (in-memory transport)', () => {
  for (const [label, id] of [
    ['[1]', [1]],
    ['{}', {}],
    ['true', true],
    ['1.5', 1.5],
  ] as const) {
    it(`A7 an error response with id ${label} gets -32600 without an id (regression: it was taken for a response)`, async () => {
      const client = await connect(testServer());
      const from = client.received().length;
      client.send({ jsonrpc: '2.0', id, error: { code: -1, message: 'x' } });
      await client.flush();
      assert.deepEqual(client.received().slice(from, -1), [
        { jsonrpc: '2.0', error: { code: -32600, message: BAD_ERROR_ID } },
      ]);
    });
  }

  it('A7 an error response with id null is a response (to an unreadable message): dropped without an answer', async () => {
    const client = await connect(testServer());
    client.send({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    await client.flush();
    assert.equal(client.received().length, 1, JSON.stringify(client.received()));
  });

  it('A7 a result response with id [1] gets -32600 without an id', async () => {
    const client = await connect(testServer());
    client.send({ jsonrpc: '2.0', id: [1], result: {} });
    await client.flush();
    assert.deepEqual(client.received()[0], {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: a response needs a string or integer "id"' },
    });
  });
});

/** A server on StdioServerTransport over in-process streams; `exchange` writes lines and reads the answer lines. */
async function stdioServer(server: McpServer): Promise<{
  /** Writes `lines`, then a ping with id "after"; resolves with every line written before the answer to it. */
  exchange: (...lines: string[]) => Promise<string[]>;
  close: () => Promise<void>;
}> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const transport = new StdioServerTransport({ stdin, stdout });
  await server.connect(transport);
  let buffer = '';
  const lines: string[] = [];
  let waiter: (() => void) | undefined;
  stdout.setEncoding('utf8');
  stdout.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n')) >= 0) {
      lines.push(buffer.slice(0, end));
      buffer = buffer.slice(end + 1);
    }
    waiter?.();
  });
  const AFTER = '{"jsonrpc":"2.0","id":"after","result":{}}';
  return {
    exchange: async (...sent) => {
      lines.length = 0;
      stdin.write(
        sent.map((line) => line + '\n').join('') + '{"jsonrpc":"2.0","id":"after","method":"ping"}\n',
      );
      while (!lines.includes(AFTER)) await new Promise<void>((resolve) => (waiter = resolve));
      return lines.slice(0, lines.indexOf(AFTER));
    },
    close: () => transport.close(),
  };
}

describe('A7 batches on stdio (2025-03-26 session)', () => {
  const NOT_AN_OBJECT_LINE =
    '[{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request: a JSON-RPC message must be a JSON object"}}]';

  async function stdioSession(): Promise<{
    exchange: (...lines: string[]) => Promise<string[]>;
    close: () => Promise<void>;
    calls: () => number;
  }> {
    const server = testServer();
    let calls = 0;
    server.tool({ name: 'canary', handler: () => `called ${++calls}` });
    const stdio = await stdioServer(server);
    const [initialized] = await stdio.exchange(
      text({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-03-26' } }),
      text({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    );
    assert.match(String(initialized), /"protocolVersion":"2025-03-26"/);
    return { ...stdio, calls: () => calls };
  }

  it('A7 a string holding a notification: the batch is answered with one -32600 entry (regression: it was never answered)', async () => {
    const stdio = await stdioSession();
    const batch = text([text({ jsonrpc: '2.0', method: 'notifications/initialized' })]);
    assert.deepEqual(await stdio.exchange(batch), [NOT_AN_OBJECT_LINE]);
    await stdio.close();
  });

  it('A7 a string holding a request is not run (regression: it ran and was answered)', async () => {
    const stdio = await stdioSession();
    const smuggled = text({
      jsonrpc: '2.0',
      id: 'smuggled',
      method: 'tools/call',
      params: { name: 'canary' },
    });
    assert.deepEqual(await stdio.exchange(text([smuggled])), [NOT_AN_OBJECT_LINE]);
    assert.equal(stdio.calls(), 0);
    await stdio.close();
  });

  it('A7 a string holding an array is one invalid item (regression: it was answered [[…]])', async () => {
    const stdio = await stdioSession();
    const inner = text([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
    assert.deepEqual(await stdio.exchange(text([inner])), [NOT_AN_OBJECT_LINE]);
    await stdio.close();
  });

  it('A7 an error response with id [1] gets -32600 without an id, never the id echoed', async () => {
    const stdio = await stdioSession();
    assert.deepEqual(await stdio.exchange('{"jsonrpc":"2.0","id":[1],"error":{"code":-1,"message":"x"}}'), [
      `{"jsonrpc":"2.0","error":{"code":-32600,"message":${JSON.stringify(BAD_ERROR_ID)}}}`,
    ]);
    await stdio.close();
  });
});

/** A logger that keeps what the server logs as errors (message and details). */
function errorLog(): { logger: Logger; errors: Array<{ message: string; details: unknown }> } {
  const errors: Array<{ message: string; details: unknown }> = [];
  const ignore = (): void => undefined;
  return {
    errors,
    logger: {
      debug: ignore,
      info: ignore,
      warn: ignore,
      error: (message, details) => errors.push({ message, details }),
    },
  };
}

const NOTHING_RETURNED =
  'the handler of example/nothing returned nothing and sent no response; return a result object ({} when there is nothing to say)';

/** The reference of a neutral internal error, after checking that the message is exactly that. */
function referenceOf(error: unknown): string {
  const message = (error as { message?: unknown } | undefined)?.message;
  const match = /^Internal error \(reference ([0-9a-f]{8})\)$/.exec(String(message));
  assert.ok(match !== null, `a neutral internal error, got ${JSON.stringify(error)}`);
  return String(match[1]);
}

/** The log line written for the reference the client got, with the handler's mistake in its details. */
function assertLogged(errors: Array<{ message: string; details: unknown }>, reference: string): void {
  assert.deepEqual(
    errors.map(({ message, details }) => [message, (details as Error).message]),
    [[`example/nothing failed (reference ${reference})`, NOTHING_RETURNED]],
  );
}

describe('A7 a request handler that returns nothing (2025-03-26 session, in-memory transport)', () => {
  async function nothingSession(): Promise<{
    client: RawClient;
    errors: Array<{ message: string; details: unknown }>;
  }> {
    const log = errorLog();
    const server = testServer({ logger: log.logger });
    server.setRequestHandler('example/nothing', () => undefined);
    server.setRequestHandler('example/nothing-later', async () => {
      await Promise.resolve();
      return undefined;
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    return { client, errors: log.errors };
  }

  it('A7 inside a batch it gets an Internal error entry and the batch is answered (regression: the batch was never answered)', async () => {
    const { client, errors } = await nothingSession();
    client.send([
      { jsonrpc: '2.0', id: 'nothing', method: 'example/nothing' },
      { jsonrpc: '2.0', id: 'quick', method: 'ping' },
    ]);
    const entries = byId(await client.waitForBatch()) as Array<{ id: unknown; error?: { code: number } }>;
    assert.deepEqual(entries[1], { jsonrpc: '2.0', id: 'quick', result: {} });
    assert.equal(entries[0]?.id, 'nothing');
    assert.equal(entries[0]?.error?.code, -32603);
    assertLogged(errors, referenceOf(entries[0]?.error));
  });

  it('A7 a single request gets the same Internal error, for a handler that returns nothing at once or later (regression: it was never answered)', async () => {
    const { client, errors } = await nothingSession();
    for (const method of ['example/nothing', 'example/nothing-later']) {
      const answer = await client.request(method);
      assert.equal(answer.error?.code, -32603);
      const reference = referenceOf(answer.error);
      assert.deepEqual(answer, {
        jsonrpc: '2.0',
        id: answer.id,
        error: { code: -32603, message: `Internal error (reference ${reference})` },
      });
      const last = errors.at(-1);
      assert.deepEqual(
        [last?.message, (last?.details as Error).message],
        [`${method} failed (reference ${reference})`, NOTHING_RETURNED.replace('example/nothing', method)],
      );
    }
  });

  it('a handler that answers itself and then returns nothing is answered once, with its own answer', async () => {
    const server = testServer();
    server.setRequestHandler('example/self', (scope) => {
      scope.respond(`{"jsonrpc":"2.0","id":${JSON.stringify(scope.id)},"result":{"by":"handler"}}`);
      return undefined;
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    client.send([{ jsonrpc: '2.0', id: 's', method: 'example/self' }]);
    assert.deepEqual(await client.waitForBatch(), [{ jsonrpc: '2.0', id: 's', result: { by: 'handler' } }]);
    await client.flush();
    assert.equal(client.received().filter((m) => Array.isArray(m)).length, 1);
  });
});
