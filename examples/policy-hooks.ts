// The hooks a policy layer uses, by hand: who is calling (authenticate), who sees what (a visibility rule), and a
// middleware that refuses destructive calls without the right scope. Real deployments use the policy packs instead.
// Run it: node --import tsx examples/policy-hooks.ts   (then call with: Authorization: Bearer reader-token)

import { Denial, ErrorCode, McpServer, type Caller } from '../src/index.js';
import { listenHttp } from '../src/transports/http/index.js';

// One Caller object per credential: visibility is cached per caller object.
const CALLERS = new Map<string, Caller>([
  ['reader-token', { subject: 'ada', via: 'bearer', scopes: ['notes:read'] }],
  ['writer-token', { subject: 'grace', via: 'bearer', scopes: ['notes:read', 'notes:write'] }],
]);

export function createPolicyServer(): McpServer {
  const server = new McpServer(
    { name: 'notes', version: '1.0.0' },
    // Only writers see the tools that change things.
    {
      visibility: (caller, target) =>
        target.kind !== 'tool' ||
        target.annotations?.readOnlyHint === true ||
        caller.scopes.includes('notes:write'),
    },
  );
  const notes: string[] = [];
  server.tool({
    name: 'list_notes',
    annotations: { readOnlyHint: true },
    handler: () => notes.join('\n') || '(no notes)',
  });
  server.tool({
    name: 'clear_notes',
    annotations: { destructiveHint: true },
    handler: () => `cleared ${notes.splice(0).length} notes`,
  });
  server.use((request, next) => {
    if (request.target?.kind === 'tool' && request.target.annotations?.destructiveHint === true) {
      if (!request.caller.scopes.includes('notes:write')) {
        throw new Denial(
          ErrorCode.InsufficientScope,
          `Forbidden: ${request.target.name} needs the notes:write scope`,
          {
            httpStatus: 403,
            httpHeaders: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="notes:write"' },
          },
        );
      }
    }
    return next();
  });
  return server;
}

export function listenPolicyServer(port: number): Promise<{ url: string; close(): Promise<void> }> {
  // The Host header was already checked against the allowed hosts (DNS rebinding) when these hooks run.
  const base = (host: string | undefined): string => `http://${host ?? '127.0.0.1'}`;
  return listenHttp(createPolicyServer(), {
    port,
    // RFC 9728 metadata beside the endpoint, served without credentials.
    routes: {
      '/.well-known/oauth-protected-resource/mcp': (request) => ({
        body: JSON.stringify({
          resource: `${base(request.header('host'))}/mcp`,
          authorization_servers: ['https://auth.example.com'],
        }),
      }),
    },
    // Runs before the body is read: a Caller, or a challenge that says where to learn how to get a token.
    authenticate: (request) => {
      const token = /^Bearer (\S+)$/.exec(request.header('authorization') ?? '')?.[1];
      const caller = token === undefined ? undefined : CALLERS.get(token);
      const metadata = `${base(request.header('host'))}/.well-known/oauth-protected-resource/mcp`;
      return (
        caller ?? { status: 401, headers: { 'www-authenticate': `Bearer resource_metadata="${metadata}"` } }
      );
    },
  });
}

if (process.argv[1]?.endsWith('policy-hooks.ts')) {
  const { url } = await listenPolicyServer(Number(process.env.PORT ?? 3000));
  process.stderr.write(`listening on ${url}\n`);
}
