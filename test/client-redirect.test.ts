// The HTTP client never follows a redirect (B1): a server answering 3xx would have the request body (arguments) and
// every configured header — an X-API-Key, a cookie; fetch itself drops only Authorization — sent to wherever it
// points. The 3xx is an error naming the Location, so a moved server is still easy to find. Both fetches: Node's own
// and createNodeFetch (the gateway's upstreams, the CLI).

import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { createNodeFetch, HttpClientTransport } from '../src/transports/http-client/index.js';
import { CLIENT_INFO, within } from './fixtures/client/harness.js';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
};

describe('HTTP client: redirects', () => {
  const reached: IncomingHttpHeaders[] = [];
  // Another origin (another port): it only notes what reaches it.
  const elsewhere = createServer((request, response) => {
    reached.push(request.headers);
    request.resume();
    response.writeHead(500).end();
  });
  let target = '';
  let status = 307;
  const moved = createServer((request, response) => {
    request.resume();
    response.writeHead(status, { location: target }).end();
  });
  let url = '';
  before(async () => {
    target = await listen(elsewhere);
    url = await listen(moved);
  });
  after(() => {
    moved.close();
    elsewhere.close();
  });

  for (const [name, fetch] of [
    ['fetch', undefined],
    ['createNodeFetch', createNodeFetch()],
  ] as const) {
    for (const code of [301, 302, 307, 308]) {
      it(`B1 ${name}: a ${code} is an error naming where it points, and nothing reaches there`, async () => {
        status = code;
        const transport = new HttpClientTransport(url, {
          headers: { 'X-API-Key': 'twk_secret', Cookie: 'session=secret' },
          ...(fetch !== undefined && { fetch }),
        });
        const client = new McpClient(CLIENT_INFO);
        await assert.rejects(within(client.connect(transport), 20_000, 'connect to fail'), (error: Error) => {
          assert.match(
            error.message,
            new RegExp(
              `HTTP ${code}[^,]*, a redirect to ${target.replace(/[.]/g, '\\.')}, which is not followed \\(it would take the request and its headers there\\): use that URL if it is the server's`,
            ),
          );
          return true;
        });
        await client.close();
        assert.deepEqual(reached, []);
      });
    }
  }
});
