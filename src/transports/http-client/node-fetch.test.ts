// createNodeFetch: what the HTTP client transport reads of a response, on node:http with keep-alive, and fetch's own
// behaviour for what it hands over (redirects).

import assert from 'node:assert/strict';
import { getEventListeners, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createNodeFetch } from './node-fetch.js';

const LARGE_BYTES = 32 * 1024 * 1024;

describe('createNodeFetch', () => {
  let server: Server;
  let base = '';
  const sockets = new Set<number>();
  let releaseStream: (() => void) | undefined;
  let hungClosed: Promise<unknown> | undefined;
  /** Bytes of the large body the server has handed to its socket so far. */
  let largeWritten = 0;
  before(async () => {
    server = createServer((request, response) => {
      sockets.add(request.socket.remotePort ?? 0);
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        switch (request.url) {
          case '/echo':
            response.writeHead(200, { 'content-type': 'application/json', 'x-two': ['a', 'b'] });
            response.end(
              JSON.stringify({ method: request.method, body, auth: request.headers.authorization }),
            );
            return;
          case '/empty':
            response.writeHead(204).end();
            return;
          case '/stream':
            response.writeHead(200, { 'content-type': 'text/event-stream' });
            response.write('data: first\n\n');
            releaseStream = () => response.end('data: second\n\n');
            return;
          case '/hang': // headers never come; the test watches the connection go
            hungClosed = once(response, 'close');
            return;
          case '/large': {
            // 32 MiB in 64 KiB pieces, each written once the socket has taken the one before
            const piece = Buffer.alloc(64 * 1024, 0x61);
            response.writeHead(200, { 'content-length': String(LARGE_BYTES) });
            largeWritten = 0;
            const more = (): void => {
              while (largeWritten < LARGE_BYTES) {
                largeWritten += piece.length;
                if (!response.write(piece)) return void response.once('drain', more);
              }
              response.end();
            };
            more();
            return;
          }
          case '/cut': // promises 100 bytes, sends 5, then drops the connection
            response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
            response.write('{"a":');
            setImmediate(() => request.socket.destroy());
            return;
          case '/moved':
            response.writeHead(307, { location: '/echo' }).end();
            return;
          default:
            response.writeHead(404).end('no');
        }
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers status, ok, headers and the body, and reuses its connection', async () => {
    const fetch = createNodeFetch();
    const headers = new Headers({ authorization: 'Bearer t', 'content-type': 'application/json' });
    sockets.clear();
    for (let round = 0; round < 3; round++) {
      const response = await fetch(`${base}/echo`, { method: 'POST', headers, body: '{"a":1}' });
      assert.equal(response.status, 200);
      assert.equal(response.ok, true);
      assert.equal(response.headers.get('Content-Type'), 'application/json');
      assert.equal(response.headers.get('x-two'), 'a, b');
      assert.equal(response.headers.get('x-none'), null);
      assert.deepEqual(JSON.parse(await response.text()), {
        method: 'POST',
        body: '{"a":1}',
        auth: 'Bearer t',
      });
    }
    assert.equal(sockets.size, 1, 'three requests in a row share one keep-alive connection');
    const missing = await fetch(`${base}/nothing`, { method: 'GET' });
    assert.equal(missing.status, 404);
    assert.equal(missing.ok, false);
    assert.equal(await missing.text(), 'no');
    const empty = await fetch(`${base}/empty`, { method: 'POST', body: '' });
    assert.equal(empty.status, 204);
    assert.equal(empty.body, null);
  });

  it('hands an event stream over chunk by chunk, before it ends', async () => {
    const response = await createNodeFetch()(`${base}/stream`, { method: 'GET' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const first = await reader.read();
    assert.equal(Buffer.from(first.value as Uint8Array).toString(), 'data: first\n\n');
    (releaseStream as () => void)();
    const second = await reader.read();
    assert.equal(Buffer.from(second.value as Uint8Array).toString(), 'data: second\n\n');
    assert.equal((await reader.read()).done, true);
  });

  it(
    'an aborted signal rejects with its reason, before and during the request',
    { timeout: 10_000 },
    async () => {
      const fetch = createNodeFetch();
      const early = new AbortController();
      early.abort(new Error('stop early'));
      await assert.rejects(fetch(`${base}/echo`, { method: 'GET', signal: early.signal }), /stop early/);
      const late = new AbortController();
      const response = await fetch(`${base}/stream`, { method: 'GET', signal: late.signal });
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      await reader.read();
      late.abort(new Error('stop late'));
      await assert.rejects(reader.read());
      releaseStream?.();
    },
  );

  it(
    'an abort before the answer destroys the request, and the signal is watched only while it runs',
    { timeout: 10_000 },
    async () => {
      const fetch = createNodeFetch();
      const controller = new AbortController();
      const pending = fetch(`${base}/hang`, { method: 'POST', body: '{}', signal: controller.signal });
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
      controller.abort(new Error('gave up waiting'));
      await assert.rejects(pending, /gave up waiting/);
      await hungClosed;
      assert.equal(getEventListeners(controller.signal, 'abort').length, 0);
      const kept = new AbortController();
      for (let round = 0; round < 5; round++) {
        const response = await fetch(`${base}/echo`, { method: 'POST', body: '{}', signal: kept.signal });
        await response.text();
      }
      for (let turn = 0; turn < 50 && getEventListeners(kept.signal, 'abort').length > 0; turn++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      assert.equal(getEventListeners(kept.signal, 'abort').length, 0, 'five exchanges left nothing attached');
    },
  );

  it('a body cut off before its Content-Length rejects the read instead of ending it', async () => {
    const response = await createNodeFetch()(`${base}/cut`, { method: 'POST', body: '' });
    assert.equal(response.status, 200);
    await assert.rejects(response.text(), /cut off|aborted|ECONNRESET/);
  });

  it('a read waiting when the body is cancelled rejects: an unfinished body never looks complete', async () => {
    const response = await createNodeFetch()(`${base}/stream`, { method: 'GET' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    await reader.read(); // the first event; the stream stays open
    const waiting = reader.read();
    await reader.cancel();
    await assert.rejects(waiting, /cut off/);
    releaseStream?.();
  });

  it('a body nobody reads stays in the socket: the server stalls until reading goes on', async () => {
    const response = await createNodeFetch()(`${base}/large`, { method: 'GET' });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    let received = (await reader.read()).value?.length ?? 0;
    // Turn the loop until the server's writes stop moving (bounded); a reader that took everything in would let it
    // write the whole body here.
    let last = -1;
    for (let still = 0, turn = 0; still < 50 && turn < 10_000; turn++) {
      still = largeWritten === last ? still + 1 : 0;
      last = largeWritten;
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.ok(largeWritten < LARGE_BYTES, `the server wrote ${largeWritten} of ${LARGE_BYTES} bytes unread`);
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value?.length ?? 0;
    }
    assert.equal(received, LARGE_BYTES, 'every byte arrives once reading goes on');
  });

  it('sends to an IPv6 literal, from one URL object used twice', async () => {
    const six = createServer((request, response) => {
      request.resume();
      request.on('end', () => response.end(`${request.method} ${request.url}`));
    });
    six.listen(0, '::1');
    await once(six, 'listening');
    try {
      const url = new URL(`http://[::1]:${(six.address() as AddressInfo).port}/mcp?x=1`);
      const fetch = createNodeFetch();
      for (let round = 0; round < 2; round++) {
        const response = await fetch(url, { method: 'POST', body: '{}' });
        assert.equal(await response.text(), 'POST /mcp?x=1');
      }
    } finally {
      six.closeAllConnections();
      six.close();
    }
  });

  it('leaves a redirect to fetch, which follows it as fetch does', async () => {
    const response = await createNodeFetch()(`${base}/moved`, { method: 'POST', body: 'again' });
    assert.equal(response.status, 200);
    assert.equal((JSON.parse(await response.text()) as { body: string }).body, 'again');
  });
});
