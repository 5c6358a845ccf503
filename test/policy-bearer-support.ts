// A small authorization server on loopback for the bearer tests: RFC 8414 metadata, a JWKS and RFC 7662
// introspection over real HTTP (node:http, port 0), keys made with jose, and counters of what it was asked.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from 'jose';

export interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
  readonly publicKey: CryptoKey;
}

export async function signingKey(kid: string, alg = 'RS256'): Promise<SigningKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, { extractable: true });
  return { kid, privateKey, publicKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
}

export interface AuthorizationServer {
  readonly issuer: string;
  readonly counts: { metadata: number; jwks: number; introspection: number };
  /** The keys the JWKS lists (change it to rotate). */
  published: SigningKey[];
  /** "ok", or every endpoint answers 500. */
  mode: 'ok' | 'down';
  /** Introspection answers by token; any other token is inactive. */
  readonly introspection: Map<string, Record<string, unknown>>;
  readonly clientId: string;
  readonly clientSecret: string;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: unknown): void => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

const readBody = async (request: IncomingMessage): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

export async function startAuthorizationServer(): Promise<AuthorizationServer> {
  let issuer = '';
  const clientId = 'mcp-resource';
  const clientSecret = 's3cret:with/odd chars';
  const expectedBasic = `Basic ${Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString('base64')}`;
  const state: AuthorizationServer = {
    get issuer() {
      return issuer;
    },
    counts: { metadata: 0, jwks: 0, introspection: 0 },
    published: [],
    mode: 'ok',
    introspection: new Map(),
    clientId,
    clientSecret,
    close: () => Promise.resolve(),
  };
  const server: Server = createServer((request, response) => {
    void (async () => {
      const path = new URL(request.url ?? '/', issuer).pathname;
      if (path === '/.well-known/oauth-authorization-server') state.counts.metadata++;
      else if (path === '/jwks') state.counts.jwks++;
      else if (path === '/introspect') state.counts.introspection++;
      if (state.mode === 'down') return json(response, 500, { error: 'down' });
      if (path === '/.well-known/oauth-authorization-server') {
        return json(response, 200, {
          issuer,
          jwks_uri: `${issuer}/jwks`,
          introspection_endpoint: `${issuer}/introspect`,
        });
      }
      if (path === '/jwks') return json(response, 200, { keys: state.published.map((key) => key.publicJwk) });
      if (path === '/introspect' && request.method === 'POST') {
        if (request.headers.authorization !== expectedBasic)
          return json(response, 401, { error: 'invalid_client' });
        const token = new URLSearchParams(await readBody(request)).get('token') ?? '';
        return json(response, 200, state.introspection.get(token) ?? { active: false });
      }
      return json(response, 404, { error: 'not found' });
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // a TCP listener has an AddressInfo
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

/** A signed access token; `header` overrides the protected header (kid, typ, alg). */
export function sign(
  key: SigningKey,
  claims: JWTPayload,
  header: Record<string, unknown> = {},
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: String(key.publicJwk.alg), kid: key.kid, typ: 'at+jwt', ...header })
    .sign(key.privateKey);
}
