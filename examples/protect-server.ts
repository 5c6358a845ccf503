// Protect a server (the README's "Protect a server"): OAuth access tokens checked against a key set, per-tool scopes
// with a step-up challenge, and a rate limit. Everything runs here: a key pair made at start, its public half served
// on loopback where an authorization server's key set would be, and tokens signed with the private half.
// Run it: node --import tsx examples/protect-server.ts

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, exportJWK, generateKeyPair } from 'jose';
import { McpServer } from '../src/index.js';
import { createPolicy } from '../src/policy/index.js';
import { createNodeHandler } from '../src/transports/http/index.js';

const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // listening on TCP: an address, not a path
};

export interface ProtectedNotes {
  url: string;
  /** A token for `scope` (space-separated), as an authorization server would issue it. */
  token(scope: string): Promise<string>;
  close(): Promise<void>;
}

export async function startProtectedNotes(): Promise<ProtectedNotes> {
  // The authorization server's part: a key pair, and its public key set at /jwks.json.
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwks = JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'demo', alg: 'ES256' }] });
  const keys = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(jwks);
  });
  const issuer = await listen(keys);

  const server = new McpServer({ name: 'notes', version: '1.0.0' });
  const notes = ['buy milk'];
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

  const http = createServer();
  const url = `${await listen(http)}/mcp`; // the resource: the URL clients use, and the tokens' audience
  const policy = createPolicy({
    oauth: { resource: url, authorizationServers: [issuer], jwks: { uri: `${issuer}/jwks.json` } },
    scopes: {
      rules: [
        { annotations: ['read-only'], see: ['notes:read'] },
        // Readers see clear_notes, but calling it takes notes:write: a step-up challenge, not "unknown tool".
        { annotations: ['destructive'], see: ['notes:read'], call: ['notes:write'] },
      ],
    },
    rateLimits: { perCall: { points: 3, durationSeconds: 60 } },
  });
  policy.install(server);
  http.on('request', createNodeHandler(server, { path: '/mcp', ...policy.http }));

  return {
    url,
    token: (scope) =>
      new SignJWT({ scope })
        .setProtectedHeader({ alg: 'ES256', kid: 'demo' })
        .setIssuer(issuer)
        .setAudience(url)
        .setSubject('ada')
        .setExpirationTime('10m')
        .sign(privateKey),
    async close() {
      await policy.close();
      await server.close();
      for (const closing of [http, keys]) {
        closing.closeAllConnections();
        await new Promise((resolve) => closing.close(resolve));
      }
    },
  };
}

/** One tools/call over the 2026-07-28 wire, with its status and the headers a client acts on. */
export async function call(url: string, token: string, name: string): Promise<string> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': name,
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name,
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    }),
  });
  const body = (await response.json()) as {
    result?: { content: Array<{ text: string }> };
    error?: { message: string };
  };
  const said = body.result?.content[0]?.text ?? body.error?.message;
  const challenge = response.headers.get('www-authenticate') ?? response.headers.get('retry-after');
  return `${name}: ${response.status} ${said}${challenge === null ? '' : ` [${challenge}]`}`;
}

if (process.argv[1]?.endsWith('protect-server.ts')) {
  const notes = await startProtectedNotes();
  const reader = await notes.token('notes:read');
  console.log(await call(notes.url, reader, 'list_notes')); // 200 buy milk
  console.log(await call(notes.url, reader, 'clear_notes')); // 403 … insufficient_scope, scope="notes:write"
  console.log(await call(notes.url, reader, 'list_notes')); // 200
  console.log(await call(notes.url, reader, 'list_notes')); // 200: the third call of three a minute
  console.log(await call(notes.url, reader, 'list_notes')); // 429 … [Retry-After]
  await notes.close();
}
