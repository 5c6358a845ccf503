// A small OAuth 2.1 authorization server for client tests (node:http on 127.0.0.1, port 0) that checks what a real
// one would: PKCE S256 (the verifier against the stored challenge), the resource indicator on both legs, the
// redirect URI and client, refresh tokens, revocation. Its /authorize approves at once (the "user" always agrees)
// and redirects with code, state and iss; everything it saw is recorded for assertions.

import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestAuthServerOptions {
  /** The resource every authorization and token request must name (RFC 8707). */
  resource: () => string;
  scopesSupported?: string[];
  /** code_challenge_methods_supported; null leaves it out. Default ['S256']. */
  codeChallengeMethods?: string[] | null;
  /** Seconds until an access token expires (expires_in). */
  tokenLifetimeS?: number;
  /** Hand out refresh tokens (only when offline_access was asked for, if it is in scopesSupported). */
  refreshTokens?: boolean;
  revocation?: boolean;
  /** The issuer in the metadata, when it must differ from the real one (a mix-up test). */
  metadataIssuer?: string;
  /** What the AS grants of the scopes asked (default all): a stingy AS makes step-ups fail. */
  grant?: (asked: string[]) => string[];
}

export interface IssuedToken {
  scopes: string[];
  resource: string;
  expiresAt: number | undefined;
  revoked: boolean;
}

export interface Seen {
  authorizations: URLSearchParams[];
  tokenRequests: URLSearchParams[];
  registrations: Record<string, unknown>[];
  revocations: URLSearchParams[];
  metadataRequests: string[];
}

export interface TestAuthServer {
  issuer: string;
  seen: Seen;
  /** The access token's grant, or undefined when it is unknown, expired or revoked. */
  verify(token: string): IssuedToken | undefined;
  /** Moves this server's clock (token expiry) forward. */
  advance(ms: number): void;
  close(): Promise<void>;
}

interface PendingCode {
  clientId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  resource: string;
}

const s256 = (text: string): string => createHash('sha256').update(text).digest('base64url');
const token = (prefix: string): string => `${prefix}-${randomBytes(12).toString('hex')}`;

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > 65536) throw new Error('body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startTestAuthServer(options: TestAuthServerOptions): Promise<TestAuthServer> {
  const seen: Seen = {
    authorizations: [],
    tokenRequests: [],
    registrations: [],
    revocations: [],
    metadataRequests: [],
  };
  const clients = new Map<string, { redirectUris: string[] }>();
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, IssuedToken>();
  const refreshTokens = new Map<string, { clientId: string; scopes: string[]; resource: string }>();
  let skew = 0;
  const now = (): number => Date.now() + skew;
  let issuer = '';

  const json = (response: ServerResponse, status: number, body: unknown): void => {
    response.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    response.end(JSON.stringify(body));
  };
  const oauthError = (response: ServerResponse, status: number, error: string, description: string): void =>
    json(response, status, { error, error_description: description });

  const issue = (clientId: string, scopes: string[], resource: string): Record<string, unknown> => {
    const access = token('at');
    const lifetime = options.tokenLifetimeS;
    accessTokens.set(access, {
      scopes,
      resource,
      expiresAt: lifetime === undefined ? undefined : now() + lifetime * 1000,
      revoked: false,
    });
    const wantsRefresh =
      options.refreshTokens === true &&
      (!(options.scopesSupported ?? []).includes('offline_access') || scopes.includes('offline_access'));
    const body: Record<string, unknown> = {
      access_token: access,
      token_type: 'Bearer',
      scope: scopes.join(' '),
    };
    if (lifetime !== undefined) body.expires_in = lifetime;
    if (wantsRefresh) {
      const refresh = token('rt');
      refreshTokens.set(refresh, { clientId, scopes, resource });
      body.refresh_token = refresh;
    }
    return body;
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const url = new URL(request.url ?? '/', issuer);
    if (request.method === 'GET' && url.pathname === '/.well-known/oauth-authorization-server') {
      seen.metadataRequests.push(url.pathname);
      const methods = options.codeChallengeMethods === undefined ? ['S256'] : options.codeChallengeMethods;
      return json(response, 200, {
        issuer: options.metadataIssuer ?? issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        registration_endpoint: `${issuer}/register`,
        ...(options.revocation === true && { revocation_endpoint: `${issuer}/revoke` }),
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        token_endpoint_auth_methods_supported: ['none'],
        authorization_response_iss_parameter_supported: true,
        ...(methods !== null && { code_challenge_methods_supported: methods }),
        ...(options.scopesSupported && { scopes_supported: options.scopesSupported }),
      });
    }
    if (request.method === 'GET' && url.pathname === '/authorize') {
      const query = url.searchParams;
      seen.authorizations.push(query);
      const client = clients.get(query.get('client_id') ?? '');
      const redirectUri = query.get('redirect_uri') ?? '';
      if (client === undefined || !client.redirectUris.includes(redirectUri)) {
        return oauthError(response, 400, 'invalid_request', 'unknown client or redirect_uri');
      }
      const back = new URL(redirectUri);
      back.searchParams.set('state', query.get('state') ?? '');
      back.searchParams.set('iss', issuer);
      const problem =
        query.get('response_type') !== 'code'
          ? 'response_type must be code'
          : query.get('code_challenge_method') !== 'S256' || !query.get('code_challenge')
            ? 'PKCE with S256 is required'
            : query.get('resource') !== options.resource()
              ? `resource must be ${options.resource()}`
              : undefined;
      if (problem !== undefined) {
        back.searchParams.set('error', 'invalid_request');
        back.searchParams.set('error_description', problem);
      } else {
        const code = token('code');
        codes.set(code, {
          clientId: query.get('client_id') ?? '',
          redirectUri,
          challenge: query.get('code_challenge') ?? '',
          scopes: (options.grant ?? ((asked: string[]) => asked))(
            (query.get('scope') ?? '').split(' ').filter((s) => s !== ''),
          ),
          resource: query.get('resource') ?? '',
        });
        back.searchParams.set('code', code);
      }
      response.writeHead(302, { location: back.href });
      return void response.end();
    }
    if (request.method === 'POST' && url.pathname === '/register') {
      const body = JSON.parse(await readBody(request)) as Record<string, unknown>;
      seen.registrations.push(body);
      const clientId = token('client');
      const redirectUris = Array.isArray(body.redirect_uris) ? (body.redirect_uris as string[]) : [];
      clients.set(clientId, { redirectUris });
      return json(response, 201, {
        client_id: clientId,
        redirect_uris: redirectUris,
        token_endpoint_auth_method: 'none',
      });
    }
    if (request.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(await readBody(request));
      seen.tokenRequests.push(form);
      if (form.get('resource') !== options.resource()) {
        return oauthError(response, 400, 'invalid_target', `resource must be ${options.resource()}`);
      }
      if (form.get('grant_type') === 'authorization_code') {
        const pending = codes.get(form.get('code') ?? '');
        codes.delete(form.get('code') ?? '');
        if (pending === undefined) return oauthError(response, 400, 'invalid_grant', 'unknown or used code');
        if (pending.clientId !== form.get('client_id') || pending.redirectUri !== form.get('redirect_uri')) {
          return oauthError(response, 400, 'invalid_grant', 'client or redirect_uri differs');
        }
        if (s256(form.get('code_verifier') ?? '') !== pending.challenge) {
          return oauthError(response, 400, 'invalid_grant', 'PKCE verification failed');
        }
        return json(response, 200, issue(pending.clientId, pending.scopes, pending.resource));
      }
      if (form.get('grant_type') === 'refresh_token') {
        const grant = refreshTokens.get(form.get('refresh_token') ?? '');
        if (grant === undefined || grant.clientId !== form.get('client_id')) {
          return oauthError(response, 400, 'invalid_grant', 'unknown refresh token');
        }
        refreshTokens.delete(form.get('refresh_token') ?? ''); // rotation: each refresh token works once
        return json(response, 200, issue(grant.clientId, grant.scopes, grant.resource));
      }
      return oauthError(response, 400, 'unsupported_grant_type', 'not this grant');
    }
    if (request.method === 'POST' && url.pathname === '/revoke' && options.revocation === true) {
      const form = new URLSearchParams(await readBody(request));
      seen.revocations.push(form);
      const value = form.get('token') ?? '';
      refreshTokens.delete(value);
      const access = accessTokens.get(value);
      if (access !== undefined) access.revoked = true;
      response.writeHead(200);
      return void response.end();
    }
    json(response, 404, { error: 'not_found' });
  };

  const server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) json(response, 500, { error: 'server_error' });
      else response.destroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // a TCP listener's address
  return {
    issuer,
    seen,
    verify(value) {
      const grant = accessTokens.get(value);
      if (grant === undefined || grant.revoked) return undefined;
      if (grant.expiresAt !== undefined && now() >= grant.expiresAt) return undefined;
      return grant;
    },
    advance(ms) {
      skew += ms;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
