// listenHttp: a node:http server on 127.0.0.1 (by default) serving one McpServer, with its receive timeouts and
// connection caps set, and a clean close.

import type { AddressInfo } from 'node:net';
import type { McpServer } from '../../server/index.js';
import { HttpCore } from './core.js';
import { nodeListener } from './node-adapter.js';
import { createNodeServer } from './node-server.js';
import { resolveHttpOptions, type HttpOptions } from './options.js';

export interface HttpListening {
  /** The MCP endpoint, e.g. http://127.0.0.1:3333/mcp (IPv6 hosts in brackets). */
  url: string;
  port: number;
  host: string;
  /** Ends sessions and open streams and stops listening. The McpServer stays open. */
  close(): Promise<void>;
}

const isLoopback = (host: string): boolean =>
  host === 'localhost' || host === '::1' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);

export async function listenHttp(
  server: McpServer,
  options: HttpOptions & { host?: string; port?: number } = {},
): Promise<HttpListening> {
  const host = options.host ?? '127.0.0.1';
  const core = new HttpCore(server, resolveHttpOptions(server, options, isLoopback(host)));
  const httpServer = createNodeServer(nodeListener(core), core.context.options);
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host.replace(/^\[(.*)\]$/, '$1'), () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo; // a TCP listener always has an AddressInfo
  const shown = address.address.includes(':') ? `[${address.address}]` : address.address;
  return {
    url: `http://${shown}:${address.port}${core.context.options.path}`,
    port: address.port,
    host: address.address,
    async close() {
      await core.close();
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
    },
  };
}
