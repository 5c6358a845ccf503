// The in-memory linked pair: ordering, asynchronous delivery, early messages, and closing.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  LOCAL_CALLER,
  MEMORY_TRANSPORT,
  type Caller,
  type MessageExtra,
  type Transport,
} from '../src/protocol/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { modern, testServer } from './support/harness.js';

/** Collects what a transport receives and resolves once `count` messages are in. */
function receiver(transport: Transport, count: number): { received: unknown[]; done: Promise<void> } {
  const received: unknown[] = [];
  const done = new Promise<void>((resolve) => {
    transport.onmessage = (message) => {
      received.push(message);
      if (received.length === count) resolve();
    };
  });
  return { received, done };
}

describe('createLinkedPair', () => {
  it('delivers messages in order, both ways, as the same strings', async () => {
    const [a, b] = createLinkedPair();
    const atB = receiver(b, 3);
    const atA = receiver(a, 1);
    await a.start();
    await b.start();
    const big = JSON.stringify({ jsonrpc: '2.0', id: 3, params: { s: 'x'.repeat(10_000) } });
    a.send('{"id":1}');
    a.send('{"id":2}');
    a.send(big);
    b.send('{"id":1,"result":{}}');
    await Promise.all([atB.done, atA.done]);
    assert.deepEqual(atB.received, ['{"id":1}', '{"id":2}', big]);
    assert.equal(atB.received[2], big);
    assert.deepEqual(atA.received, ['{"id":1,"result":{}}']);
  });

  it('delivers asynchronously, never inside send()', async () => {
    const [a, b] = createLinkedPair();
    const atB = receiver(b, 1);
    await a.start();
    await b.start();
    a.send('{"id":1}');
    assert.deepEqual(atB.received, []);
    await atB.done;
    assert.deepEqual(atB.received, ['{"id":1}']);
  });

  it('queues messages sent before the peer starts and delivers them after start()', async () => {
    const [a, b] = createLinkedPair();
    await a.start();
    a.send('{"id":1}');
    a.send('{"id":2}');
    const atB = receiver(b, 3);
    await Promise.resolve();
    assert.deepEqual(atB.received, []);
    await b.start();
    a.send('{"id":3}');
    await atB.done;
    assert.deepEqual(atB.received, ['{"id":1}', '{"id":2}', '{"id":3}']);
  });

  it('closing either end closes both, each onclose firing once', async () => {
    const [a, b] = createLinkedPair();
    await a.start();
    await b.start();
    const closes = { a: 0, b: 0 };
    a.onclose = () => closes.a++;
    b.onclose = () => closes.b++;
    await b.close();
    await a.close();
    await b.close();
    assert.deepEqual(closes, { a: 1, b: 1 });
  });

  it('delivers what was sent before close, then fires onclose', async () => {
    const [a, b] = createLinkedPair();
    await a.start();
    await b.start();
    const events: string[] = [];
    b.onmessage = (message) => events.push(String(message));
    b.onclose = () => events.push('close');
    a.send('{"id":1}');
    await a.close();
    assert.deepEqual(events, ['{"id":1}', 'close']);
  });

  it('throws "transport closed" on send after close, from either end', async () => {
    const [a, b] = createLinkedPair();
    await a.start();
    await b.start();
    await a.close();
    assert.throws(() => a.send('{}'), { message: 'transport closed' });
    assert.throws(() => b.send('{}'), { message: 'transport closed' });
    await assert.rejects(a.start(), { message: 'transport closed' });
  });

  it('rejects a second start()', async () => {
    const [a] = createLinkedPair();
    await a.start();
    await assert.rejects(a.start(), /already started/);
  });

  it('reports a throwing onmessage to onerror and keeps delivering', async () => {
    const [a, b] = createLinkedPair();
    await a.start();
    await b.start();
    const errors: Error[] = [];
    b.onerror = (error) => errors.push(error);
    const { received, done } = receiver(b, 2);
    const collect = b.onmessage;
    b.onmessage = (message) => {
      collect?.(message);
      if (message === 'boom') throw new Error('handler failed');
    };
    a.send('boom');
    a.send('after');
    await done;
    assert.deepEqual(received, ['boom', 'after']);
    assert.equal(errors[0]?.message, 'handler failed');
  });

  it('shows traffic to an onTraffic hook and nowhere else', async () => {
    const traffic: string[] = [];
    const [a, b] = createLinkedPair({
      onTraffic: (direction, message) => traffic.push(`${direction} ${message}`),
    });
    const atA = receiver(a, 1);
    await a.start();
    await b.start();
    a.send('{"id":1}');
    b.send('{"id":1,"result":{}}');
    await atA.done;
    assert.deepEqual(traffic, ['a->b {"id":1}', 'b->a {"id":1,"result":{}}']);
    assert.equal('sent' in a, false);
  });
});

describe('createLinkedPair: who is calling (issue 14)', () => {
  const ALICE: Caller = Object.freeze({ subject: 'alice', via: 'test', scopes: Object.freeze(['read']) });

  it('every message carries the caller option and MEMORY_TRANSPORT, in one frozen extra for the whole pair', async () => {
    const [a, b] = createLinkedPair({ caller: ALICE });
    const extras: Array<MessageExtra | undefined> = [];
    b.onmessage = (_message, extra) => extras.push(extra);
    a.onmessage = (_message, extra) => extras.push(extra);
    await a.start();
    await b.start();
    a.send('{"id":1}');
    a.send('{"id":2}');
    b.send('{"id":1,"result":{}}');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(extras.length, 3);
    const [first] = extras;
    assert.deepEqual(first, { auth: ALICE, transport: MEMORY_TRANSPORT });
    assert.equal(first?.auth, ALICE);
    assert.ok(Object.isFrozen(first));
    // No allocation per message: the same object every time, both ways.
    assert.ok(extras.every((extra) => extra === first));
  });

  it('without the option the caller is LOCAL_CALLER: both ends live in this process', async () => {
    const [a, b] = createLinkedPair();
    const atB = new Promise<MessageExtra | undefined>(
      (resolve) => (b.onmessage = (_m, extra) => resolve(extra)),
    );
    await a.start();
    await b.start();
    a.send('{"id":1}');
    assert.equal((await atB)?.auth, LOCAL_CALLER);
  });

  it('a tool on a server connected to one end sees the caller as ctx.auth', async () => {
    const server = testServer();
    server.tool({ name: 'whoami', handler: (_args, ctx) => `${ctx.auth?.subject} via ${ctx.auth?.via}` });
    const [client, side] = createLinkedPair({ caller: ALICE });
    const answer = new Promise<string>(
      (resolve) => (client.onmessage = (message) => resolve(String(message))),
    );
    await server.connect(side);
    await client.start();
    client.send(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'whoami' }) }),
    );
    const response = JSON.parse(await answer) as { result: { content: Array<{ text: string }> } };
    assert.equal(response.result.content[0]?.text, 'alice via test');
    await server.close();
  });
});
