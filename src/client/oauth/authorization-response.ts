// The authorization request URL, and checking the redirect that answers it: state, the RFC 9207 `iss`, then the
// code or the error. Nothing from the response is acted on before the issuer check passes.

import { OAuthError, quoteForeign } from './errors.js';

export interface AuthorizationRequestParams {
  endpoint: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string;
  scope: string | undefined;
  resource: string;
}

export function authorizationUrl(params: AuthorizationRequestParams): URL {
  const url = new URL(params.endpoint);
  const query = url.searchParams;
  query.set('response_type', 'code');
  query.set('client_id', params.clientId);
  query.set('redirect_uri', params.redirectUri);
  query.set('code_challenge', params.codeChallenge);
  query.set('code_challenge_method', 'S256');
  query.set('state', params.state);
  if (params.scope !== undefined && params.scope !== '') query.set('scope', params.scope);
  query.set('resource', params.resource);
  return url;
}

export interface ExpectedResponse {
  state: string;
  issuer: string;
  issParameterSupported: boolean;
  redirectUri: string;
}

/** The authorization code of a redirect, after every check; otherwise an error that quotes nothing unchecked. */
export function codeFromRedirect(redirect: string | URL, expected: ExpectedResponse): string {
  const bad = (why: string): OAuthError =>
    new OAuthError('invalid_authorization_response', `the authorization response ${why}`);
  if (!URL.canParse(String(redirect))) throw bad('is not a URL');
  const url = new URL(redirect);
  const wanted = new URL(expected.redirectUri);
  if (url.origin !== wanted.origin || url.pathname !== wanted.pathname)
    throw bad('did not come to the redirect URI');
  const query = url.searchParams;
  if (query.getAll('iss').length > 1 || query.getAll('state').length > 1 || query.getAll('code').length > 1) {
    throw bad('repeats a parameter');
  }
  const iss = query.get('iss');
  // RFC 9207 §2.4: simple string comparison, no normalisation of any kind.
  if (iss !== null && iss !== expected.issuer) {
    throw bad(
      `names issuer ${quoteForeign(iss)}, not ${quoteForeign(expected.issuer)} (a mix-up attack?): refused`,
    );
  }
  if (iss === null && expected.issParameterSupported) {
    throw bad('has no iss although the authorization server says it always sends one: refused');
  }
  if (query.get('state') !== expected.state) throw bad('does not carry the state of the request: refused');
  const error = query.get('error');
  if (error !== null) {
    const description = query.get('error_description');
    throw new OAuthError(
      'authorization_denied',
      `the authorization server answered ${quoteForeign(error, 60)}${description ? ` (${quoteForeign(description)})` : ''}`,
    );
  }
  const code = query.get('code');
  if (code === null || code === '') throw bad('has no code');
  return code;
}
