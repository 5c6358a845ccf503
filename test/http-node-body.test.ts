// Reading a POST body on the node:http fast path (spec-digest: bodies are bounded; a request whose body cannot be read
// is answered and forgotten): chunks joined once, UTF-8 split across chunks, the size limit, a client that leaves.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BodyResult } from '../src/transports/http/exchange.js';
import { NodeExchange } from '../src/transports/http/node-adapter.js';

let server: Server;
let port: number;
const results: Array<Promise<BodyResult>> = [];
const LIMIT = 64;

before(async () => {
  server = createServer((req, res) => {
    const exchange = new NodeExchange(req, res);
    const read = exchange.readBody(LIMIT);
    results.push(read);
    void read.then((body) => exchange.respond(body.ok ? 200 : 400, {}, JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

/**
 * Sends a POST whose body goes out in separate writes, `gapMs` apart, and returns the raw response text.
 * A negative `contentLength` sends the body chunked (the parts must already be chunk-framed).
 */
function post(parts: Buffer[], contentLength: number, gapMs = 15): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.write(
      `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n${
        contentLength < 0 ? 'Transfer-Encoding: chunked' : `Content-Length: ${contentLength}`
      }\r\nConnection: close\r\n\r\n`,
    );
    let index = 0;
    const next = (): void => {
      const part = parts[index++];
      if (part === undefined) return;
      socket.write(part);
      setTimeout(next, gapMs);
    };
    next();
  });
}

describe('NodeExchange.readBody', () => {
  it('joins a body that arrives in several chunks, a multi-byte character split between two of them', async () => {
    const text = '{"x":"héllo wörld"}';
    const bytes = Buffer.from(text, 'utf8');
    const split = bytes.indexOf(0xc3) + 1; // inside the two bytes of "é"
    const response = await post(
      [bytes.subarray(0, split), bytes.subarray(split, 12), bytes.subarray(12)],
      bytes.length,
    );
    assert.match(response, /^HTTP\/1\.1 200/);
    assert.deepEqual(await results.at(-1), { ok: true, text });
    assert.match(
      response,
      new RegExp(`content-length: ${Buffer.byteLength(JSON.stringify({ ok: true, text }))}`, 'i'),
    );
  });

  it('refuses a declared Content-Length over the limit before reading, and a chunked body once it passes it', async () => {
    const declared = await post([Buffer.alloc(LIMIT + 10, 0x61)], LIMIT + 10);
    assert.match(declared, /^HTTP\/1\.1 400/);
    assert.deepEqual(await results.at(-1), { ok: false, reason: 'too-large' });

    // No Content-Length: only counting the bytes as they arrive can catch it.
    const chunk = (text: string): Buffer => Buffer.from(`${text.length.toString(16)}\r\n${text}\r\n`);
    const counted = await post([chunk('a'.repeat(40)), chunk('b'.repeat(40)), Buffer.from('0\r\n\r\n')], -1);
    assert.match(counted, /^HTTP\/1\.1 400/);
    assert.deepEqual(await results.at(-1), { ok: false, reason: 'too-large' });
  });

  it('ends the read as aborted when the client leaves in the middle of the body', async () => {
    const before = results.length;
    await new Promise<void>((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write('POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 50\r\n\r\n{"half":');
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 30);
      });
    });
    for (let i = 0; i < 100 && results.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    const read = results[before];
    assert.ok(read !== undefined, 'the request reached the handler');
    const outcome = await Promise.race([
      read,
      new Promise((r) => setTimeout(() => r('still waiting'), 2000)),
    ]);
    assert.deepEqual(outcome, { ok: false, reason: 'aborted' });
  });
});
