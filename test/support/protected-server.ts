// A toolwire MCP server behind OAuth for client tests: bearer tokens checked against a TestAuthServer, a 401 with
// the RFC 9728 challenge without one, PRM served beside the endpoint, and a `write` tool that needs files:write
// (a 403 insufficient_scope challenge otherwise, for step-up tests).

import { Denial, ErrorCode, McpServer, silentLogger } from '../../src/index.js';
import type { Caller } from '../../src/protocol/index.js';
import { listenHttp, type HttpListening, type HttpRequestInfo } from '../../src/transports/http/index.js';
import type { TestAuthServer } from './oauth-server.js';

export interface ProtectedServerOptions {
  /** The `resource` the PRM claims; default the server's own URL (a mismatch test sets another). */
  prmResource?: (url: string) => string;
  /** Serve no PRM at all (and name none in the challenge). */
  noPrm?: boolean;
  /** The scope the 401 challenge names; default files:read. */
  scope?: string;
  /** The AS the server trusts and names in its PRM, when it can change (a migration test); default `as`. */
  current?: () => TestAuthServer;
}

export interface ProtectedServer {
  url: string;
  /** How many MCP requests came with a valid token. */
  authorizedRequests: () => number;
  close(): Promise<void>;
}

const PRM_PATH = '/.well-known/oauth-protected-resource/mcp';

export async function startProtectedServer(
  as: TestAuthServer,
  options: ProtectedServerOptions = {},
): Promise<ProtectedServer> {
  let base = '';
  let authorized = 0;
  const callers = new Map<string, Caller>(); // one frozen Caller per token, as the pipeline's caches want
  const server = new McpServer({ name: 'protected', version: '1.0.0' }, { logger: silentLogger });
  server.tool({
    name: 'read',
    description: 'Reads something',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
    handler: (_args, ctx) => `read by ${ctx.auth?.subject} with ${ctx.auth?.scopes.join(' ')}`,
  });
  server.tool({
    name: 'write',
    description: 'Writes something (needs files:write)',
    inputSchema: { type: 'object', properties: {} },
    handler: () => 'written',
  });
  server.use((request, next) => {
    if (request.target?.kind === 'tool' && request.target.name === 'write') {
      if (!request.caller.scopes.includes('files:write')) {
        throw new Denial(ErrorCode.InsufficientScope, 'this tool needs the files:write scope', {
          httpStatus: 403,
          httpHeaders: {
            'WWW-Authenticate': `Bearer error="insufficient_scope", scope="files:write", resource_metadata="${base}${PRM_PATH}"`,
          },
        });
      }
    }
    return next();
  });
  const challenge = (): string =>
    options.noPrm === true
      ? `Bearer scope="${options.scope ?? 'files:read'}"`
      : `Bearer resource_metadata="${base}${PRM_PATH}", scope="${options.scope ?? 'files:read'}"`;
  const authenticate = (
    request: HttpRequestInfo,
  ): Caller | { status: number; headers: Record<string, string> } => {
    const header = request.header('authorization') ?? '';
    const token = header.startsWith('Bearer ') ? header.slice(7) : '';
    const grant = token === '' ? undefined : (options.current?.() ?? as).verify(token);
    if (grant === undefined) return { status: 401, headers: { 'WWW-Authenticate': challenge() } };
    authorized++;
    let caller = callers.get(token);
    if (caller === undefined) {
      caller = Object.freeze({ subject: 'user', via: 'bearer', scopes: Object.freeze([...grant.scopes]) });
      callers.set(token, caller);
    }
    return caller;
  };
  const listening: HttpListening = await listenHttp(server, {
    port: 0,
    authenticate,
    routes:
      options.noPrm === true
        ? {}
        : {
            [PRM_PATH]: () => ({
              status: 200,
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                resource: options.prmResource ? options.prmResource(`${base}/mcp`) : `${base}/mcp`,
                authorization_servers: [(options.current?.() ?? as).issuer],
                scopes_supported: ['files:read', 'files:write'],
              }),
            }),
          },
  });
  base = new URL(listening.url).origin;
  return { url: listening.url, authorizedRequests: () => authorized, close: () => listening.close() };
}
