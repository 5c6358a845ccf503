// Token requests (RFC 6749 §4.1.3, §4.4, §6) and their responses, checked before anything is kept.

import { authenticateClient, type PrivateKeyJwt, type RegisteredClient } from './client-auth.js';
import { OAuthError, quoteForeign } from './errors.js';
import { describeOAuthError, readJsonObject, send, type FetchLike, type JsonObject } from './http.js';

export interface TokenSet {
  accessToken: string;
  /** "Bearer" or "DPoP", as the token endpoint said. */
  tokenType: string;
  refreshToken?: string;
  /** Milliseconds since the epoch, from expires_in. */
  expiresAt?: number;
  /** The scope the AS granted, when it said (else what was asked). */
  scope?: string;
}

export interface TokenRequest {
  fetch: FetchLike;
  endpoint: string;
  issuer: string;
  client: RegisteredClient;
  jwt: PrivateKeyJwt | undefined;
  params: URLSearchParams;
  now: number;
  signal: AbortSignal | undefined;
  /** Adds a DPoP proof for this request; gets the nonce the AS asked for on a retry. */
  proof: ((nonce: string | undefined) => Promise<string>) | undefined;
}

/** An access token longer than this is not a token but an attack on memory or the token file. */
const MAX_TOKEN_CHARS = 16 * 1024;

/** POSTs a grant to the token endpoint and returns the validated token set (retrying once for a DPoP nonce). */
export async function requestToken(request: TokenRequest, previous?: TokenSet): Promise<TokenSet> {
  let nonce: string | undefined;
  for (let attempt = 0; ; attempt++) {
    const params = new URLSearchParams(request.params);
    const headers = new Headers({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    await authenticateClient(request.client, params, headers, request.issuer, request.jwt);
    if (request.proof !== undefined) headers.set('dpop', await request.proof(nonce));
    const response = await send(
      request.fetch,
      request.endpoint,
      {
        method: 'POST',
        redirect: 'error',
        headers,
        body: params.toString(),
        ...(request.signal && { signal: request.signal }),
      },
      'the token endpoint',
    );
    let body: JsonObject | undefined;
    try {
      body = await readJsonObject(response, 'the token response');
    } catch (error) {
      if (response.ok) throw error;
    }
    const offered = response.headers.get('dpop-nonce');
    if (
      !response.ok &&
      request.proof !== undefined &&
      attempt === 0 &&
      body?.error === 'use_dpop_nonce' &&
      offered !== null
    ) {
      nonce = offered; // RFC 9449 §8: the AS wants a nonce; one retry carries it.
      continue;
    }
    if (!response.ok) {
      const grant = request.params.get('grant_type') ?? 'grant';
      throw new OAuthError(
        'token_refused',
        `the token endpoint refused the ${grant}: ${describeOAuthError(body, response.status)}`,
      );
    }
    return parseTokenResponse(
      body as JsonObject, // a 2xx whose body failed to parse has thrown above
      request.now,
      request.params.get('scope') ?? undefined,
      previous,
    );
  }
}

export function parseTokenResponse(
  body: JsonObject,
  now: number,
  askedScope: string | undefined,
  previous?: TokenSet,
): TokenSet {
  const { access_token: accessToken, token_type: tokenType, expires_in: expiresIn } = body;
  if (typeof accessToken !== 'string' || accessToken === '' || accessToken.length > MAX_TOKEN_CHARS) {
    throw new OAuthError('invalid_metadata', 'the token response has no usable access_token');
  }
  if (!/^[\x21-\x7e]+$/.test(accessToken)) {
    throw new OAuthError('invalid_metadata', 'the access token has characters that cannot go in a header');
  }
  if (typeof tokenType !== 'string' || !/^(bearer|dpop)$/i.test(tokenType)) {
    throw new OAuthError(
      'invalid_metadata',
      `the token response has an unsupported token_type ${quoteForeign(tokenType, 40)}`,
    );
  }
  const refresh =
    typeof body.refresh_token === 'string' &&
    body.refresh_token !== '' &&
    body.refresh_token.length <= MAX_TOKEN_CHARS
      ? body.refresh_token
      : previous?.refreshToken; // RFC 6749 §6: the old refresh token stays valid when no new one is issued
  const lifetime =
    typeof expiresIn === 'number' && Number.isFinite(expiresIn) && expiresIn > 0 ? expiresIn : undefined;
  const scope = typeof body.scope === 'string' ? body.scope : (askedScope ?? previous?.scope);
  return {
    accessToken,
    tokenType: tokenType.toLowerCase() === 'dpop' ? 'DPoP' : 'Bearer',
    ...(refresh !== undefined && { refreshToken: refresh }),
    ...(lifetime !== undefined && { expiresAt: now + lifetime * 1000 }),
    ...(scope !== undefined && scope !== '' && { scope }),
  };
}
