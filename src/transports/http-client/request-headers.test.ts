// requestHeaders: which header wins; deleteSession: which answers to a session's DELETE are worth reporting.

import assert from 'node:assert/strict';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { POST_HEADERS, deleteSession, requestHeaders } from './request-headers.js';

describe('requestHeaders', () => {
  it('configured, then the request’s own (names lower-cased), then the fixed ones, which win', () => {
    const headers = requestHeaders(
      [
        ['authorization', 'Bearer t'],
        ['x-team', 'a'],
      ],
      POST_HEADERS,
      { 'X-Team': 'b', 'Content-Type': 'text/plain', 'Mcp-Method': 'tools/call' },
    );
    assert.deepEqual(headers, {
      authorization: 'Bearer t',
      'x-team': 'b',
      'content-type': 'application/json',
      'mcp-method': 'tools/call',
      accept: 'application/json, text/event-stream',
    });
  });
});

describe('deleteSession', () => {
  it('reports a refusal with its status, and nothing for 200, 404, 405 or a server that is gone', async () => {
    const seen: string[] = [];
    const server = createServer((request, response) => {
      seen.push(`${request.method} ${request.headers['mcp-session-id']}`);
      response.writeHead(Number(request.url?.slice(1))).end('no');
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const headers = { 'mcp-session-id': 's1' };
      const refused = await deleteSession(fetch, new URL(`${base}/500`), headers);
      assert.equal(refused?.message, 'DELETE of the session answered HTTP 500');
      assert.equal(refused?.status, 500);
      for (const status of [200, 404, 405]) {
        assert.equal(await deleteSession(fetch, new URL(`${base}/${status}`), headers), undefined);
      }
      assert.deepEqual(seen, Array(4).fill('DELETE s1'));
    } finally {
      server.closeAllConnections();
      server.close();
    }
    assert.equal(await deleteSession(fetch, new URL(`${base}/500`), {}), undefined, 'the server is gone');
  });
});
