// Protocol core, JSON-RPC layer: malformed input, ids, params, notifications, unknown methods and batches.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonDepthExceeds } from '../src/jsonrpc/index.js';
import {
  SERVER_INFO_META,
  connect,
  initializeLegacy,
  modern,
  testServer,
  type WireMessage,
} from './support/harness.js';

const EMPTY_LIST = {
  tools: [],
  ttlMs: 0,
  cacheScope: 'public',
  resultType: 'complete',
  _meta: SERVER_INFO_META,
};

/** Sends raw text and returns the single message that answers it (bad input is answered before anything else). */
async function answerTo(text: string): Promise<WireMessage> {
  const client = await connect(testServer());
  client.send(text);
  await client.flush();
  const answers = client.received().filter((m) => Array.isArray(m) || m.id !== 'flush-1');
  assert.equal(answers.length, 1, `expected one answer, got ${JSON.stringify(answers)}`);
  const [answer] = answers;
  assert.ok(answer !== undefined && !Array.isArray(answer));
  return answer;
}

describe('core JSON-RPC: malformed messages', () => {
  it('B-01 text that is not JSON gets -32700 Parse error, with no id', async () => {
    assert.deepEqual(await answerTo('{"jsonrpc":"2.0","id":1,"method":'), {
      jsonrpc: '2.0',
      error: { code: -32700, message: 'Parse error: the message is not valid JSON' },
    });
  });

  for (const [label, text] of [
    ['a number', '42'],
    ['a string', '"tools/list"'],
    ['null', 'null'],
    ['a boolean', 'true'],
  ] as const) {
    it(`B-01 valid JSON that is ${label}, not an object, gets -32600 with no id`, async () => {
      assert.deepEqual(await answerTo(text), {
        jsonrpc: '2.0',
        error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be a JSON object' },
      });
    });
  }

  it('B-01 "jsonrpc": "1.0" gets -32600 that echoes the readable id', async () => {
    const answer = await answerTo(JSON.stringify({ jsonrpc: '1.0', id: 7, method: 'tools/list' }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be exactly "2.0"' },
    });
  });

  it('B-01 a missing "jsonrpc" member gets -32600 echoing the id', async () => {
    const answer = await answerTo(JSON.stringify({ id: 'x', method: 'tools/list', params: modern() }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 'x',
      error: { code: -32600, message: 'Invalid Request: "jsonrpc" must be exactly "2.0"' },
    });
  });

  it('B-02 id null gets -32600 and the error carries no id', async () => {
    const answer = await answerTo(JSON.stringify({ jsonrpc: '2.0', id: null, method: 'tools/list' }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Invalid Request: "id" must be a string or an integer (null is not allowed)',
      },
    });
  });

  it('B-02 a fractional id (1.5) is not an integer: -32600 with no id', async () => {
    const answer = await answerTo(JSON.stringify({ jsonrpc: '2.0', id: 1.5, method: 'tools/list' }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      error: {
        code: -32600,
        message: 'Invalid Request: "id" must be a string or an integer (null is not allowed)',
      },
    });
  });

  it('B-01 an empty method gets -32600 echoing the id', async () => {
    const answer = await answerTo(JSON.stringify({ jsonrpc: '2.0', id: 3, method: '' }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32600, message: 'Invalid Request: "method" must be a non-empty string' },
    });
  });

  it('B-01 a message with neither method, result nor error gets -32600 echoing the id', async () => {
    const answer = await answerTo(JSON.stringify({ jsonrpc: '2.0', id: 10 }));
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 10,
      error: { code: -32600, message: 'Invalid Request: a message needs "method", "result" or "error"' },
    });
  });

  it('B-01 params given as an array get -32602 echoing the id', async () => {
    const answer = await answerTo(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: [1] }),
    );
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32602, message: 'Invalid params: "params" of tools/list must be a JSON object' },
    });
  });

  it('B-01 params given as a string get -32600 echoing the id', async () => {
    const answer = await answerTo(
      JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'tools/list', params: 'x' }),
    );
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32600, message: 'Invalid params: "params" of tools/list must be a JSON object' },
    });
  });

  it('B-01 JSON nested deeper than maxJsonDepth gets -32600 before it is parsed', async () => {
    const client = await connect(testServer({ maxJsonDepth: 8 }));
    client.send('{"jsonrpc":"2.0","id":1,"method":"x","params":' + '{"a":'.repeat(10) + '1' + '}'.repeat(11));
    const answer = await client.waitFor((m) => m.error !== undefined);
    assert.deepEqual(answer, {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: JSON nesting is deeper than 8 levels' },
    });
  });
});

describe('core JSON-RPC: ids', () => {
  for (const id of [0, -5, 'abc', '', '0']) {
    it(`B-04 id ${JSON.stringify(id)} is echoed exactly, type included`, async () => {
      const client = await connect(testServer());
      const response = await client.request('tools/list', modern(), { id });
      assert.deepEqual(response, { jsonrpc: '2.0', id, result: EMPTY_LIST });
      const wire = client.traffic.find((t) => t.direction === 'server->client');
      assert.ok(wire?.text.startsWith(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},`), wire?.text);
    });
  }

  for (const id of [0, -5, 'abc', '']) {
    it(`B-05 error responses echo id ${JSON.stringify(id)} exactly too`, async () => {
      const client = await connect(testServer());
      assert.deepEqual(await client.request('no/such/method', modern(), { id }), {
        jsonrpc: '2.0',
        id,
        error: { code: -32601, message: 'Method not found: no/such/method' },
      });
    });
  }
});

describe('core JSON-RPC: notifications and unknown methods', () => {
  it('B-06 notifications are never answered, known, unknown or request-shaped', async () => {
    const client = await connect(testServer());
    client.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    client.send({ jsonrpc: '2.0', method: 'notifications/whatever' });
    client.send({ jsonrpc: '2.0', method: 'tools/list', params: modern() });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } });
    client.send({ jsonrpc: '2.0', method: 'no/such/method' });
    await client.flush();
    assert.deepEqual(
      client.received().map((m) => (Array.isArray(m) ? 'batch' : m.id)),
      ['flush-1'],
    );
  });

  it('B-06 a notification with non-object params is not answered either (regression: it got an id-less error)', async () => {
    const client = await connect(testServer());
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: 'x' });
    client.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: [1] });
    await client.flush();
    assert.deepEqual(
      client.received().map((m) => (Array.isArray(m) ? 'batch' : m.id)),
      ['flush-1'],
    );
  });

  it('B-08 a response from the client to nothing the server asked is dropped without an answer', async () => {
    const client = await connect(testServer());
    client.send({ jsonrpc: '2.0', id: 9, result: {} });
    client.send({ jsonrpc: '2.0', id: 10, error: { code: -1, message: 'x' } });
    await client.flush();
    assert.equal(client.received().length, 1);
  });

  it('B-25 an unknown method on the modern wire gets -32601', async () => {
    const client = await connect(testServer());
    assert.deepEqual(await client.request('prompts/list', modern(), { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found: prompts/list' },
    });
  });

  it('L-08 an unknown method in a legacy session gets -32601', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(await client.request('prompts/list', {}, { id: 'p' }), {
      jsonrpc: '2.0',
      id: 'p',
      error: { code: -32601, message: 'Method not found: prompts/list' },
    });
  });
});

describe('core JSON-RPC: batches', () => {
  const BATCH_REFUSED = {
    jsonrpc: '2.0',
    error: {
      code: -32600,
      message: 'Invalid Request: JSON-RPC batches are only allowed on protocol revision 2025-03-26',
    },
  };

  it('B-09 a batch outside any session (modern wire) is refused with -32600 and a clear message', async () => {
    const client = await connect(testServer());
    client.send([{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: modern() }]);
    await client.flush();
    assert.deepEqual(client.received()[0], BATCH_REFUSED);
    assert.equal(client.received().length, 2);
  });

  for (const revision of ['2025-06-18', '2025-11-25', '2024-11-05']) {
    it(`B-09 a batch in a ${revision} session is refused with -32600`, async () => {
      const client = await connect(testServer());
      await initializeLegacy(client, revision);
      client.send([{ jsonrpc: '2.0', id: 5, method: 'ping' }]);
      assert.deepEqual(await client.waitFor((m) => m.error !== undefined), BATCH_REFUSED);
    });
  }

  it('B-09 an empty array is refused with -32600 even in a 2025-03-26 session', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-03-26');
    client.send([]);
    assert.deepEqual(await client.waitFor((m) => m.error !== undefined), {
      jsonrpc: '2.0',
      error: { code: -32600, message: 'Invalid Request: empty batch' },
    });
  });

  it("B-09 a 2025-03-26 session gets its batch answered as one array (an invalid item's entry has id null); notifications inside get nothing", async () => {
    const server = testServer();
    server.tool({ name: 'later', handler: () => Promise.resolve('done') });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    client.send([
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/whatever' },
      { jsonrpc: '2.0', id: 6, method: 'tools/call', params: { name: 'later' } },
      42,
    ]);
    const batch = await client.waitForBatch();
    assert.deepEqual(
      [...batch].sort((a, b) => String(a.id).localeCompare(String(b.id))),
      [
        { jsonrpc: '2.0', id: 5, result: {} },
        { jsonrpc: '2.0', id: 6, result: { content: [{ type: 'text', text: 'done' }] } },
        {
          jsonrpc: '2.0',
          id: null,
          error: { code: -32600, message: 'Invalid Request: a JSON-RPC message must be a JSON object' },
        },
      ],
    );
  });

  it('B-09 initialize inside a 2025-03-26 batch is refused; the rest of the batch is answered', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-03-26');
    client.send([
      { jsonrpc: '2.0', id: 7, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
      { jsonrpc: '2.0', id: 8, method: 'ping' },
    ]);
    const batch = await client.waitForBatch();
    assert.deepEqual(batch, [
      {
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32600, message: 'Invalid Request: initialize must not be part of a batch' },
      },
      { jsonrpc: '2.0', id: 8, result: {} },
    ]);
  });

  it('B-09 a batch whose requests all answer at once is answered exactly once (regression: the array was sent twice)', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-03-26');
    client.send([
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
    ]);
    await client.waitForBatch();
    await client.flush();
    const batches = client.received().filter((m) => Array.isArray(m));
    assert.deepEqual(batches, [
      [
        { jsonrpc: '2.0', id: 5, result: {} },
        { jsonrpc: '2.0', id: 6, result: {} },
      ],
    ]);
  });

  it('B-09 a batch of notifications only gets no answer at all', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-03-26');
    client.send([{ jsonrpc: '2.0', method: 'notifications/whatever' }]);
    await client.flush();
    assert.equal(
      client.received().filter((m) => Array.isArray(m)).length,
      0,
      JSON.stringify(client.received()),
    );
  });
});

describe('core JSON-RPC: the nesting check', () => {
  it('B-01 counts depth, not brackets: many shallow objects pass, one deep chain does not', () => {
    const siblings = JSON.stringify({ items: Array.from({ length: 200 }, (_, n) => ({ n, tags: [n] })) });
    assert.equal(jsonDepthExceeds(siblings, 8), false); // 401 opening brackets, depth 4
    assert.equal(jsonDepthExceeds('[[[[[[[[[1]]]]]]]]]', 8), true); // 9 levels
    assert.equal(jsonDepthExceeds('[[[[[[[[1]]]]]]]]', 8), false); // 8 levels
  });

  it('B-01 brackets inside strings, escaped quotes included, never count as nesting', () => {
    const inString = JSON.stringify({ text: '{'.repeat(100) + '\\"[[[' + '['.repeat(100) });
    assert.equal(jsonDepthExceeds(inString, 8), false);
    const escaped = `{"a":"\\"{{{{{{{{{{","b":${'['.repeat(9)}1${']'.repeat(9)}}`;
    assert.equal(jsonDepthExceeds(escaped, 8), true); // the array after the string is 10 deep
  });
});
