// Threat A7 on the client: a batch a server sends is split once and each item dispatched as the value it is; a
// string item is never JSON text to decode again. A hand-written legacy server on the in-memory pair sends them.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import type { RequestId } from '../src/jsonrpc/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { CLIENT_INFO, recordingLogger, within, type RecordingLogger } from './fixtures/client/harness.js';

const TEST_MS = 20_000;
/** An error that only came from a time limit would blow this bound. */
const FAST_MS = 8_000;

const NOT_AN_OBJECT =
  'the server sent an invalid JSON-RPC message in a batch: Invalid Request: a JSON-RPC message must be a JSON object';

type Message = Record<string, unknown>;

/** Wire text of a message, as a misbehaving server puts it inside a batch as a string. */
const text = (message: unknown): string => JSON.stringify(message);

interface FakeServer {
  client: McpClient;
  recorder: RecordingLogger;
  /** The first message from the client that satisfies `predicate` (already received or still to come). */
  waitFor(predicate: (message: Message) => boolean): Promise<Message>;
  /** Every message the client sent so far. */
  received: Message[];
}

const live = new Set<McpClient>();
afterEach(async () => {
  await Promise.all([...live].map((client) => client.close()));
  live.clear();
});

/** A legacy server that answers initialize, and answers every ping with the batch `onPing` makes for its id. */
async function fakeServer(onPing: (id: RequestId) => unknown[]): Promise<FakeServer> {
  const [clientSide, serverSide] = createLinkedPair();
  const received: Message[] = [];
  const waiters = new Set<{ predicate: (message: Message) => boolean; resolve(message: Message): void }>();
  serverSide.onmessage = (raw) => {
    const message = JSON.parse(String(raw)) as Message;
    received.push(message);
    for (const waiter of [...waiters]) {
      if (!waiter.predicate(message)) continue;
      waiters.delete(waiter);
      waiter.resolve(message);
    }
    const id = message.id as RequestId;
    if (message.method === 'initialize') {
      const result = {
        protocolVersion: '2025-03-26',
        capabilities: { tools: { listChanged: true } },
        serverInfo: { name: 'batching', version: '0.0.1' },
      };
      serverSide.send(text({ jsonrpc: '2.0', id, result }));
    } else if (message.method === 'ping') serverSide.send(text(onPing(id)));
  };
  await serverSide.start();
  const recorder = recordingLogger();
  const client = new McpClient(CLIENT_INFO, { era: 'legacy', logger: recorder.logger });
  live.add(client);
  await within(client.connect(clientSide), FAST_MS, 'connect');
  return {
    client,
    recorder,
    received,
    waitFor: (predicate) => {
      const seen = received.find(predicate);
      if (seen !== undefined) return Promise.resolve(seen);
      const arrived = new Promise<Message>((resolve) => waiters.add({ predicate, resolve }));
      return within(arrived, FAST_MS, 'a message from the client');
    },
  };
}

describe('A7 batches a server sends, on the client', () => {
  it(
    'A7 a string item holding the response is not decoded again: the call fails with ProtocolError (regression: it was decoded and settled the call)',
    { timeout: TEST_MS },
    async () => {
      const { client, recorder } = await fakeServer((id) => [text({ jsonrpc: '2.0', id, result: {} })]);
      await within(
        assert.rejects(client.request('ping'), { name: 'ProtocolError', message: NOT_AN_OBJECT }),
        FAST_MS,
        'the ProtocolError (not a time-out)',
      );
      assert.deepEqual(
        recorder.warnings,
        [],
        'the reason reaches the open call, so it is not also a warning',
      );
    },
  );

  it(
    'A7 a string item holding a notification is not delivered; the response beside it settles the call and the bad item is a warning (regression: the notification was decoded and delivered)',
    { timeout: TEST_MS },
    async () => {
      const { client, recorder } = await fakeServer((id) => [
        text({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }),
        { jsonrpc: '2.0', id, result: {} },
      ]);
      let changes = 0;
      client.onToolsChanged(() => changes++);
      assert.deepEqual(await within(client.request('ping'), FAST_MS, 'the ping'), {});
      assert.equal(changes, 0);
      assert.deepEqual(recorder.warnings, [NOT_AN_OBJECT]);
    },
  );

  it(
    'A7 a string item holding a server request is not run (regression: it was decoded and the client answered it)',
    { timeout: TEST_MS },
    async () => {
      const server = await fakeServer((id) => [
        text({ jsonrpc: '2.0', id: 'smuggled', method: 'ping' }),
        { jsonrpc: '2.0', id: 'real', method: 'ping' },
        { jsonrpc: '2.0', id, result: {} },
      ]);
      await within(server.client.request('ping'), FAST_MS, 'the ping');
      // Both server requests would take the same path, so an answer to the smuggled one would come first.
      assert.deepEqual(await server.waitFor((message) => message.id === 'real'), {
        jsonrpc: '2.0',
        id: 'real',
        result: {},
      });
      assert.deepEqual(
        server.received.filter((message) => message.id === 'smuggled'),
        [],
      );
      assert.deepEqual(server.recorder.warnings, [NOT_AN_OBJECT]);
    },
  );

  it(
    'A7 an array nested in a batch is an invalid item, not a batch of its own (regression: its response settled the call)',
    { timeout: TEST_MS },
    async () => {
      const { client } = await fakeServer((id) => [[{ jsonrpc: '2.0', id, result: {} }]]);
      await within(
        assert.rejects(client.request('ping'), {
          name: 'ProtocolError',
          message:
            'the server sent an invalid JSON-RPC message in a batch: Invalid Request: batches cannot be nested',
        }),
        FAST_MS,
        'the ProtocolError (not a time-out)',
      );
    },
  );

  it(
    'a batch of well-formed messages is delivered item by item, in order',
    { timeout: TEST_MS },
    async () => {
      const { client, recorder } = await fakeServer((id) => [
        { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
        { jsonrpc: '2.0', id, result: { seen: true } },
      ]);
      let changes = 0;
      client.onToolsChanged(() => changes++);
      assert.deepEqual(await within(client.request('ping'), FAST_MS, 'the ping'), { seen: true });
      assert.equal(changes, 1);
      assert.deepEqual(recorder.warnings, []);
    },
  );
});
