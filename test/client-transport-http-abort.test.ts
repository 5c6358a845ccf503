// The Streamable HTTP client transport's abort handling: a POST whose caller gave a signal gets one of its own,
// aborted by that signal or by close(), and nothing stays attached to the caller's signal once the POST is over.

import assert from 'node:assert/strict';
import { getEventListeners, once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, it } from 'node:test';
import { HttpClientTransport, createNodeFetch } from '../src/transports/http-client/index.js';
import { within } from './fixtures/client/harness.js';

const SSE_HEAD = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };
const request = (id: number): string =>
  JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: {} });
const answer = (id: number): string => JSON.stringify({ jsonrpc: '2.0', id, result: { content: [] } });
const progress = JSON.stringify({
  jsonrpc: '2.0',
  method: 'notifications/progress',
  params: { progressToken: 1, progress: 1 },
});

/** A broken abort would hang a test: every wait has a budget instead. */
const WAIT_MS = 5_000;

let servers: Server[] = [];
afterEach(() => {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
  servers = [];
});

/** A server whose handler gets each POST with its JSON-RPC id; `closed` hears each request's connection go. */
async function serve(
  handler: (id: number, response: ServerResponse) => void,
): Promise<{ url: URL; closed: Promise<void>[] }> {
  const closed: Promise<void>[] = [];
  const server = createServer((incoming: IncomingMessage, response: ServerResponse) => {
    closed.push(once(response, 'close').then(() => undefined));
    let body = '';
    incoming.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    incoming.on('end', () => handler((JSON.parse(body) as { id: number }).id, response));
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`), closed };
}

/** The transport (node:http fetch, as the gateway uses it) and what it delivered. */
async function connect(url: URL) {
  const transport = new HttpClientTransport(url, { fetch: createNodeFetch() });
  const messages: string[] = [];
  let arrived: () => void = () => undefined;
  transport.onmessage = (message) => {
    messages.push(message as string);
    arrived();
  };
  const until = (count: number): Promise<void> =>
    new Promise<void>((resolve) => {
      arrived = () => {
        if (messages.length >= count) resolve();
      };
      arrived();
    });
  await transport.start();
  return { transport, messages, until };
}

describe('HttpClientTransport: a POST with its caller’s signal', () => {
  it('close() aborts a POST in flight that was given a signal: the server sees the connection go', async () => {
    const server = await serve((_id, response) => {
      response.writeHead(200, SSE_HEAD);
      response.write(`data: ${progress}\n\n`); // and never the answer
    });
    const { transport, until } = await connect(server.url);
    const caller = new AbortController();
    transport.send(request(1), { requestId: 1, signal: caller.signal });
    await within(until(1), WAIT_MS, 'the progress notification');
    assert.equal(getEventListeners(caller.signal, 'abort').length, 1, 'watched while in flight');
    await within(transport.close(), WAIT_MS, 'close()');
    await within(server.closed[0] as Promise<void>, WAIT_MS, 'the server to see the POST go');
    assert.equal(caller.signal.aborted, false, 'the caller’s own signal is left alone');
    assert.equal(getEventListeners(caller.signal, 'abort').length, 0);
  });

  it('keeps nothing attached to a signal shared by many POSTs once they are answered', async () => {
    const server = await serve((id, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(answer(id));
    });
    const { transport, messages, until } = await connect(server.url);
    const shared = new AbortController();
    for (let id = 1; id <= 20; id++) transport.send(request(id), { requestId: id, signal: shared.signal });
    await within(until(20), WAIT_MS, 'the 20 answers');
    assert.deepEqual(
      messages.map((text) => (JSON.parse(text) as { id: number }).id).sort((a, b) => a - b),
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    // Each POST lets go once its answer is delivered; a few turns later (bounded) every one has.
    for (let turn = 0; turn < 50 && getEventListeners(shared.signal, 'abort').length > 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    // The transport's link and the fetch's watch are both gone: a long-lived signal does not grow per call.
    assert.equal(getEventListeners(shared.signal, 'abort').length, 0);
    await transport.close();
  });

  it('aborting the caller’s signal ends that POST only', async () => {
    const server = await serve((id, response) => {
      response.writeHead(200, SSE_HEAD);
      response.write(`data: ${progress}\n\n`);
      if (id === 2) response.end(`data: ${answer(2)}\n\n`);
    });
    const { transport, messages, until } = await connect(server.url);
    const first = new AbortController();
    transport.send(request(1), { requestId: 1, signal: first.signal });
    await until(1);
    first.abort(new Error('the caller cancelled'));
    await within(server.closed[0] as Promise<void>, WAIT_MS, 'the server to see the aborted POST go');
    transport.send(request(2), { requestId: 2, signal: new AbortController().signal });
    await within(until(3), WAIT_MS, 'the second POST’s answer');
    assert.equal(messages[2], answer(2), 'the transport still works after one POST was aborted');
    await transport.close();
  });
});
