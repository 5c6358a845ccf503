// stdio framing: the bounded line splitter and the server transport over in-process streams.

import assert from 'node:assert/strict';
import { PassThrough, Writable } from 'node:stream';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LineSplitter, StdioServerTransport, attachSignalHandlers } from '../src/transports/stdio/index.js';

interface Collected {
  lines: string[];
  oversize: number[];
  splitter: LineSplitter;
}

function collect(maxLineBytes = 1024): Collected {
  const lines: string[] = [];
  const oversize: number[] = [];
  const splitter = new LineSplitter({
    maxLineBytes,
    onLine: (line) => lines.push(line),
    onOversize: ({ bytes }) => oversize.push(bytes),
  });
  return { lines, oversize, splitter };
}

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('LineSplitter', () => {
  it('splits lines within and across chunks', () => {
    const { lines, splitter } = collect();
    splitter.push(bytes('{"a":1}\n{"b"'));
    splitter.push(bytes(':2}\n{"c":3}\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('strips a trailing \\r, also when \\r and \\n arrive in different chunks', () => {
    const { lines, splitter } = collect();
    splitter.push(bytes('{"a":1}\r\n{"b":2}\r'));
    splitter.push(bytes('\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  });

  it('skips empty and whitespace-only lines', () => {
    const { lines, splitter } = collect();
    splitter.push(bytes('\n\r\n  \t \n{"a":1}\n\n \r\n'));
    splitter.end();
    assert.deepEqual(lines, ['{"a":1}']);
  });

  it('decodes a multi-byte character split between chunks', () => {
    const { lines, splitter } = collect();
    const encoded = bytes('{"s":"é€😀"}\n');
    // Cut inside the 2-, 3- and 4-byte sequences.
    splitter.push(encoded.subarray(0, 8));
    splitter.push(encoded.subarray(8, 10));
    splitter.push(encoded.subarray(10, 13));
    splitter.push(encoded.subarray(13));
    assert.deepEqual(lines, ['{"s":"é€😀"}']);
  });

  it('accepts a plain Uint8Array', () => {
    const { lines, splitter } = collect();
    splitter.push(new TextEncoder().encode('{"u":8}\n'));
    assert.deepEqual(lines, ['{"u":8}']);
  });

  it('handles many one-byte chunks', () => {
    const { lines, splitter } = collect();
    const text = '{"id":1,"s":"ü"}\n{"id":2}\r\n';
    for (const byte of bytes(text)) splitter.push(Uint8Array.of(byte));
    assert.deepEqual(lines, ['{"id":1,"s":"ü"}', '{"id":2}']);
  });

  it('reports an oversize line once and still delivers the next line', () => {
    const { lines, oversize, splitter } = collect(16);
    splitter.push(bytes('{"a":1}\n' + 'x'.repeat(10)));
    splitter.push(bytes('y'.repeat(30)));
    splitter.push(bytes('z'.repeat(5) + '\n{"b":2}\n'));
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
    assert.deepEqual(oversize, [45]);
  });

  it('reports an oversize line that arrives in a single chunk', () => {
    const { lines, oversize, splitter } = collect(4);
    splitter.push(bytes('abcdefgh\r\nok\n'));
    assert.deepEqual(lines, ['ok']);
    assert.deepEqual(oversize, [8]);
  });

  it('accepts a line of exactly the limit, with or without \\r', () => {
    const { lines, oversize, splitter } = collect(16);
    const exact = '{"k":"' + 'v'.repeat(8) + '"}';
    assert.equal(Buffer.byteLength(exact), 16);
    splitter.push(bytes(exact + '\n' + exact + '\r'));
    splitter.push(bytes('\n' + exact + 'x\n'));
    assert.deepEqual(lines, [exact, exact]);
    assert.deepEqual(oversize, [17]);
  });

  it('counts the limit in bytes, not characters', () => {
    const { lines, oversize, splitter } = collect(4);
    splitter.push(bytes('éé\néé€\n'));
    assert.deepEqual(lines, ['éé']);
    assert.deepEqual(oversize, [7]);
  });

  it('emits a final unterminated line on end()', () => {
    const { lines, splitter } = collect();
    splitter.push(bytes('{"a":1}\n{"b":2}\r'));
    splitter.end();
    assert.deepEqual(lines, ['{"a":1}', '{"b":2}']);
  });

  it('reports a final unterminated oversize line on end() instead of emitting it', () => {
    const { lines, oversize, splitter } = collect(4);
    splitter.push(bytes('abcdef'));
    splitter.end();
    assert.deepEqual(lines, []);
    assert.deepEqual(oversize, [6]);
  });

  it('rejects a limit that is not a positive integer', () => {
    assert.throws(() => collect(0), RangeError);
    assert.throws(() => collect(1.5), RangeError);
  });

  it('yields the same lines however the stream is chunked (property)', () => {
    // JSON-encoded strings never contain a raw newline, and JSON.stringify of a non-empty string is never blank.
    const line = fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s));
    fc.assert(
      fc.property(fc.array(line), fc.array(fc.nat(), { maxLength: 20 }), (input, cuts) => {
        const encoded = bytes(input.join('\n'));
        const points = [...new Set(cuts.map((cut) => cut % (encoded.length + 1)))].sort((x, y) => x - y);
        const { lines, oversize, splitter } = collect(1 << 20);
        let from = 0;
        for (const point of [...points, encoded.length]) {
          splitter.push(encoded.subarray(from, point));
          from = point;
        }
        splitter.end();
        assert.deepEqual(lines, input);
        assert.deepEqual(oversize, []);
      }),
    );
  });

  it('delivers lines within the limit and reports the others, in order, however chunked (property)', () => {
    const line = fc.record({
      text: fc.string({ unit: 'binary' }).map((s) => JSON.stringify(s)),
      crlf: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fc.array(line),
        fc.integer({ min: 1, max: 24 }),
        fc.array(fc.nat()),
        (input, limit, cuts) => {
          const encoded = bytes(input.map(({ text, crlf }) => text + (crlf ? '\r\n' : '\n')).join(''));
          const points = [...new Set(cuts.map((cut) => cut % (encoded.length + 1)))].sort((x, y) => x - y);
          const events: string[] = [];
          const splitter = new LineSplitter({
            maxLineBytes: limit,
            onLine: (text) => events.push('line ' + text),
            onOversize: ({ bytes: size }) => events.push('oversize ' + size),
          });
          let from = 0;
          for (const point of [...points, encoded.length]) {
            splitter.push(encoded.subarray(from, point));
            from = point;
          }
          splitter.end();
          const expected = input.map(({ text }) => {
            const size = Buffer.byteLength(text);
            return size > limit ? 'oversize ' + size : 'line ' + text;
          });
          assert.deepEqual(events, expected);
        },
      ),
    );
  });
});

interface Harness {
  stdin: PassThrough;
  stdout: PassThrough;
  transport: StdioServerTransport;
  received: unknown[];
  output: () => string[];
}

async function harness(maxLineBytes?: number): Promise<Harness> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const options = maxLineBytes === undefined ? { stdin, stdout } : { stdin, stdout, maxLineBytes };
  const transport = new StdioServerTransport(options);
  const received: unknown[] = [];
  transport.onmessage = (message) => received.push(message);
  await transport.start();
  const chunks: Buffer[] = [];
  // stdout stays paused: a PassThrough holds what was written, so the output can be read synchronously.
  const output = (): string[] => {
    const chunk: unknown = stdout.read();
    if (Buffer.isBuffer(chunk)) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8').split('\n').slice(0, -1);
  };
  return { stdin, stdout, transport, received, output };
}

/** Resolves once `count` messages have arrived, so tests wait on events instead of sleeping. */
function messages(transport: StdioServerTransport, received: unknown[], count: number): Promise<void> {
  return new Promise((resolve) => {
    const previous = transport.onmessage;
    transport.onmessage = (message, extra) => {
      previous?.(message, extra);
      if (received.length >= count) resolve();
    };
  });
}

describe('StdioServerTransport', () => {
  it('delivers each incoming line as text', async () => {
    const { stdin, transport, received } = await harness();
    const arrived = messages(transport, received, 2);
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0",');
    stdin.write('"method":"notifications/initialized"}\n');
    await arrived;
    assert.deepEqual(received, [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
    ]);
    await transport.close();
  });

  it('writes one line per sent message; those of one event-loop turn leave together right after it', async () => {
    const { transport, output } = await harness();
    transport.send('{"jsonrpc":"2.0","id":1,"result":{}}');
    transport.send('{"jsonrpc":"2.0","method":"notifications/message"}');
    assert.deepEqual(output(), [], 'nothing is written during the turn');
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(output(), [
      '{"jsonrpc":"2.0","id":1,"result":{}}',
      '{"jsonrpc":"2.0","method":"notifications/message"}',
    ]);
    await transport.close();
  });

  it('answers an oversize line with -32600 and keeps the connection', async () => {
    const { stdin, transport, received, output } = await harness(16);
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const arrived = messages(transport, received, 1);
    stdin.write('{"jsonrpc":"2.0","id":1,"method":"tools/list"}\n{"id":2}\n');
    // Lines are handled in order, so the error line is written before the next message arrives.
    await arrived;
    assert.deepEqual(output(), [
      '{"jsonrpc":"2.0","error":{"code":-32600,"message":"Invalid Request: message exceeds the 16-byte line limit"}}',
    ]);
    assert.deepEqual(received, ['{"id":2}']);
    assert.equal(errors.length, 1);
    await transport.close();
  });

  it('closes once when stdin ends, after delivering a final unterminated line', async () => {
    const { stdin, transport, received } = await harness();
    let closes = 0;
    const closed = new Promise<void>((resolve) => {
      transport.onclose = () => {
        closes++;
        resolve();
      };
    });
    stdin.end('{"id":1}');
    await closed;
    await transport.close();
    assert.equal(closes, 1);
    assert.deepEqual(received, ['{"id":1}']);
    assert.throws(() => transport.send('{}'), { message: 'transport closed' });
  });

  it('close() is idempotent, fires onclose once and leaves injected streams open', async () => {
    const { stdin, stdout, transport } = await harness();
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.close();
    await transport.close();
    assert.equal(closes, 1);
    assert.equal(stdin.destroyed || stdin.writableEnded, false);
    assert.equal(stdout.destroyed || stdout.writableEnded, false);
    assert.equal(stdin.listenerCount('data'), 0);
  });

  it('closes quietly when stdout fails with EPIPE', async () => {
    const { stdout, transport } = await harness();
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    const closed = new Promise<void>((resolve) => (transport.onclose = resolve));
    stdout.destroy(Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    await closed;
    assert.deepEqual(errors, []);
  });

  it('respects backpressure: a slow stdout receives every message in order', async () => {
    const stdin = new PassThrough();
    const expected = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ jsonrpc: '2.0', id: i, result: {} }),
    );
    const written: Buffer[] = [];
    let newlines = 0;
    let allWritten: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (allWritten = resolve));
    const stdout = new Writable({
      highWaterMark: 64,
      write(chunk: Buffer, _encoding, callback) {
        written.push(chunk);
        for (const byte of chunk) if (byte === 0x0a) newlines++;
        if (newlines === expected.length) allWritten();
        setImmediate(callback);
      },
    });
    const transport = new StdioServerTransport({ stdin, stdout });
    await transport.start();
    for (const message of expected) transport.send(message);
    // The stream itself saw few writes: the transport held messages back while stdout was full.
    assert.ok(stdout.writableLength < 1024, `stdout buffered ${stdout.writableLength} bytes`);
    await done;
    assert.deepEqual(Buffer.concat(written).toString('utf8').split('\n').slice(0, -1), expected);
    assert.ok(written.length < expected.length);
    await transport.close();
  });

  it('joins the answers of one turn into one write (one syscall on a pipe), and flushes them before closing', async () => {
    const stdin = new PassThrough();
    const writes: string[] = [];
    const stdout = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        writes.push(chunk.toString('utf8'));
        done();
      },
    });
    const transport = new StdioServerTransport({ stdin, stdout });
    await transport.start();
    for (let id = 1; id <= 64; id++) transport.send(`{"jsonrpc":"2.0","id":${id},"result":{}}`);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 1);
    assert.equal(writes[0]?.split('\n').length, 65, '64 lines and the empty tail');
    transport.send('{"jsonrpc":"2.0","id":65,"result":{}}');
    await transport.close();
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(writes.length, 2, 'a message sent just before close is not lost');
    assert.equal(writes[1], '{"jsonrpc":"2.0","id":65,"result":{}}\n');
  });

  it('reports an error and closes when stdout stops draining past the queue limit', async () => {
    const stdin = new PassThrough();
    const stdout = new Writable({ highWaterMark: 8, write: () => undefined });
    const transport = new StdioServerTransport({ stdin, stdout, maxQueuedBytes: 100 });
    const errors: Error[] = [];
    transport.onerror = (error) => errors.push(error);
    let closes = 0;
    transport.onclose = () => closes++;
    await transport.start();
    for (let i = 0; i < 10 && closes === 0; i++) {
      transport.send('x'.repeat(30));
      await new Promise((resolve) => setImmediate(resolve)); // each message its own write
    }
    assert.equal(closes, 1);
    assert.match(errors[0]?.message ?? '', /not draining/);
  });
});

describe('attachSignalHandlers', () => {
  it("reports the first signal, then detaches so a second one gets Node's default behaviour", () => {
    const before = { term: process.listenerCount('SIGTERM'), int: process.listenerCount('SIGINT') };
    const seen: string[] = [];
    const detach = attachSignalHandlers((signal) => seen.push(signal));
    assert.equal(process.listenerCount('SIGTERM'), before.term + 1);
    assert.equal(process.listenerCount('SIGINT'), before.int + 1);
    // emit() only calls the listeners; no real signal is raised.
    process.emit('SIGTERM', 'SIGTERM');
    assert.deepEqual(seen, ['SIGTERM']);
    assert.equal(process.listenerCount('SIGTERM'), before.term);
    assert.equal(process.listenerCount('SIGINT'), before.int);
    detach();
    assert.equal(process.listenerCount('SIGINT'), before.int);
  });

  it('detach() removes both listeners', () => {
    const before = process.listenerCount('SIGINT');
    const detach = attachSignalHandlers(() => assert.fail('no signal expected'));
    detach();
    assert.equal(process.listenerCount('SIGINT'), before);
  });
});
