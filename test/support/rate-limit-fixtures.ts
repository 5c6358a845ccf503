// Rate-limit tests' fixtures: a server with tools of each annotation class, and the stateless HTTP path's shared
// connection driven in process, each call naming its caller and client address.

import type { JsonObject } from '../../src/jsonrpc/index.js';
import type { Caller, SendOptions } from '../../src/protocol/index.js';
import { McpServer, silentLogger, type ServerOptions } from '../../src/server/index.js';
import { rateLimit, type RateLimitOptions } from '../../src/policy/rate-limit/index.js';
import { modern, type WireMessage } from './harness.js';

export const callerOf = (subject: string, via = 'bearer', scopes: string[] = []): Caller =>
  Object.freeze({ subject, via, scopes: Object.freeze(scopes) });
export const ALICE = callerOf('alice');
export const BOB = callerOf('bob');

/** A server with a few tools of each annotation class; every handler answers "ok". */
export function toolServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'rate-limit-test', version: '1.0.0' },
    { logger: silentLogger, ...options },
  );
  server.tool({
    name: 'search',
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({
    name: 'lookup',
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({
    name: 'delete_file',
    annotations: { destructiveHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({ name: 'wipe', handler: () => 'ok' }); // no annotations: destructive and open-world
  return server;
}

export interface Answer {
  body: WireMessage;
  options: SendOptions;
}

/**
 * The stateless HTTP path's shared connection, driven in process: each call says who calls and from which address,
 * and resolves with its final message and the send options (the HTTP status and headers a denial asks for).
 */
export function sharedConnection(
  server: McpServer,
): (name: string, caller: Caller, address?: string, signal?: AbortSignal) => Promise<Answer> {
  const connection = server.createConnection(undefined, { legacy: false, shared: true });
  let id = 0;
  return (name, caller, address = '203.0.113.7', signal) =>
    new Promise((resolve) => {
      connection.receive(
        { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: modern({ name, arguments: {} }) },
        {
          auth: caller,
          transport: { kind: 'http', remoteAddress: address },
          ...(signal !== undefined && { signal }),
          reply: (text, options) => {
            if (options.final === true) resolve({ body: JSON.parse(text) as WireMessage, options });
          },
        },
      );
    });
}

export const passed = (answer: Answer): boolean => answer.body.result !== undefined;
export const limitOf = (answer: Answer): unknown =>
  (answer.body.error?.data as JsonObject | undefined)?.limit;

/** Calls `name` n times one after another; how many passed. */
export async function passes(
  call: ReturnType<typeof sharedConnection>,
  name: string,
  caller: Caller,
  n: number,
): Promise<number> {
  let count = 0;
  for (let i = 0; i < n; i++) if (passed(await call(name, caller))) count++;
  return count;
}

export function limited(
  options: RateLimitOptions,
  server = toolServer(),
): ReturnType<typeof sharedConnection> {
  server.use(rateLimit({ logger: silentLogger, ...options }).middleware);
  return sharedConnection(server);
}
