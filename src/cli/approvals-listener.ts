// `toolwire serve`'s approval page and API (policy.approvals.admin): a listener of its own beside the MCP endpoint,
// where approvers, identified by their own credential through the policy's authenticate hook, decide.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Policy } from '../policy/index.js';
import type { ApprovalsAdminListen } from '../tools/policy-config.js';

export interface ApprovalsListening {
  /** The origin and base path approvers open. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the listener; undefined when the policy has no approvals. */
export async function listenApprovals(
  policy: Policy,
  listen: ApprovalsAdminListen,
): Promise<ApprovalsListening | undefined> {
  const { approvals, http } = policy;
  if (approvals === undefined) return undefined;
  if (http.authenticate === undefined) {
    throw new Error(
      'policy.approvals needs oauth or apiKeys: approvers are identified by their own credential',
    );
  }
  const { approvalsAdmin } = await import('../policy/index.js');
  const server: Server = createServer(
    approvalsAdmin(approvals, { authenticate: http.authenticate, basePath: listen.basePath }),
  );
  // Bounded like the MCP endpoint's: a slow client cannot hold a connection open.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo; // a TCP listener answers an AddressInfo
  const host = listen.host.includes(':') ? `[${listen.host}]` : listen.host;
  return {
    url: `http://${host}:${port}${listen.basePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
