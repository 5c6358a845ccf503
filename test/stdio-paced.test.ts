// The stdio server transport hands on a read's lines a slice per turn (paced-lines.ts): the answers of one slice are
// written before the next slice is handled, the input waits meanwhile, and nothing changes order or gets lost.

import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { StdioServerTransport } from '../src/transports/stdio/index.js';
import { MAX_SLICE, MIN_SLICE, sliceSize } from '../src/transports/stdio/paced-lines.js';

const request = (id: number): string => `{"jsonrpc":"2.0","id":${id},"method":"ping"}`;
const answer = (id: number): string => `{"jsonrpc":"2.0","id":${id},"result":{}}`;
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A transport that answers every request in a microtask (as a quick tool would), and the writes stdout got. */
async function echoing(maxLineBytes?: number) {
  const stdin = new PassThrough();
  const writes: string[] = [];
  /** How many requests had been handled when each write reached stdout. */
  const handledAtWrite: number[] = [];
  const handled: number[] = [];
  const handledAfterClose: number[] = [];
  const stdout = new Writable({
    write: (chunk: Buffer, _encoding, done) => {
      writes.push(chunk.toString('utf8'));
      handledAtWrite.push(handled.length);
      done();
    },
  });
  const transport = new StdioServerTransport({
    stdin,
    stdout,
    ...(maxLineBytes !== undefined && { maxLineBytes }),
  });
  transport.onmessage = (message) => {
    const { id } = JSON.parse(message as string) as { id: number };
    handled.push(id);
    // Answered after the handler returns, as a server's answers are; one due after close has nowhere to go.
    queueMicrotask(() => {
      try {
        transport.send(answer(id));
      } catch {
        handledAfterClose.push(id);
      }
    });
  };
  await transport.start();
  const lines = (): string[] => writes.join('').split('\n').slice(0, -1);
  return { stdin, transport, writes, handled, handledAtWrite, handledAfterClose, lines };
}

/** Waits (turn by turn, a bounded number of turns) until stdout has `count` lines. */
async function until(lines: () => string[], count: number): Promise<void> {
  for (let turns = 0; turns < 1_000 && lines().length < count; turns++) await turn();
  assert.equal(lines().length, count);
}

describe('stdio server transport: a read is handled a slice per turn', () => {
  it('slices a read in about four, of 4 to 64 lines each', () => {
    assert.deepEqual([1, 4, 8, 16, 40, 64, 256, 600].map(sliceSize), [4, 4, 4, 4, 10, 16, 64, 64]);
    assert.equal(sliceSize(MIN_SLICE * 4 + 1), MIN_SLICE + 1);
    assert.equal(sliceSize(Number.MAX_SAFE_INTEGER), MAX_SLICE);
  });

  it('answers the first 10 of 40 lines read at once before it handles the next 10', async () => {
    const { stdin, transport, writes, handledAtWrite, lines } = await echoing();
    const ids = Array.from({ length: 40 }, (_, index) => index + 1);
    stdin.write(ids.map(request).join('\n') + '\n'); // one chunk: one read
    await until(lines, 40);
    assert.deepEqual(lines(), ids.map(answer), 'every answer, in request order');
    assert.deepEqual(
      writes.map((write) => write.split('\n').length - 1),
      [10, 10, 10, 10],
      'one write per slice',
    );
    assert.deepEqual(handledAtWrite, [10, 20, 30, 40], 'each slice answered before the next');
    await transport.close();
  });

  it('keeps an oversize line in its place among paced lines', async () => {
    const { stdin, transport, handled, lines } = await echoing(64);
    const handledAtError: number[] = [];
    transport.onerror = () => handledAtError.push(handled.length);
    const before = Array.from({ length: 20 }, (_, index) => request(index + 1));
    const after = Array.from({ length: 5 }, (_, index) => request(index + 21));
    stdin.write([...before, `{"id":0,"pad":"${'x'.repeat(100)}"}`, ...after].join('\n') + '\n');
    await until(lines, 26);
    assert.deepEqual(handledAtError, [20], 'refused after the 20 lines before it, before the 5 after it');
    assert.deepEqual(
      handled,
      Array.from({ length: 25 }, (_, index) => index + 1),
    );
    const refusal =
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: message exceeds the 64-byte line limit"}}';
    assert.deepEqual(
      lines().filter((line) => line !== refusal),
      Array.from({ length: 25 }, (_, index) => answer(index + 1)),
    );
    assert.equal(lines().filter((line) => line === refusal).length, 1);
    await transport.close();
  });

  it('stops reading while lines wait, and reads again once they are handled', async () => {
    const { stdin, transport, lines } = await echoing();
    stdin.write(Array.from({ length: 48 }, (_, index) => request(index + 1)).join('\n') + '\n');
    await turn();
    assert.equal(stdin.isPaused(), true, 'paused while three slices of 12 wait');
    await until(lines, 48);
    await turn();
    assert.equal(stdin.isPaused(), false, 'flowing again');
    stdin.write(request(99) + '\n');
    await until(lines, 49);
    assert.equal(lines().at(-1), answer(99));
    await transport.close();
  });

  it('hands on every waiting line when stdin ends, then closes', async () => {
    const { stdin, transport, handled } = await echoing();
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    stdin.end(Array.from({ length: 50 }, (_, index) => request(index + 1)).join('\n'));
    await closed;
    assert.deepEqual(
      handled,
      Array.from({ length: 50 }, (_, index) => index + 1),
      'all 50, the last one unterminated',
    );
  });

  it('hands on nothing more once closed, even lines already read', async () => {
    const { stdin, transport, handled, handledAfterClose } = await echoing();
    const original = transport.onmessage;
    transport.onmessage = (message, extra) => {
      original?.(message, extra);
      if (handled.length === 20) void transport.close(); // a handler that closes in the second slice
    };
    stdin.write(Array.from({ length: 40 }, (_, index) => request(index + 1)).join('\n') + '\n');
    for (let turns = 0; turns < 10; turns++) await turn();
    assert.equal(handled.length, 20);
    // Slices of 10: the first was answered; 11 to 20, handled in the second before the close, were not yet.
    assert.deepEqual(handledAfterClose, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  });
});
