// Enterprise-Managed Authorization (the MCP auth extension, SEP-990): the user's ID token from the enterprise IdP is
// exchanged there (RFC 8693) for an identity assertion grant (ID-JAG) addressed to the MCP server's authorization
// server, which the client then presents with the JWT bearer grant.

import { OAuthError } from './errors.js';
import { describeOAuthError, readJsonObject, send, type FetchLike, type JsonObject } from './http.js';
import type { AssertionProvider } from './flow.js';
import { endpointUrl } from './resource.js';

export interface EnterpriseAssertionOptions {
  /** The IdP's token endpoint. */
  idpTokenEndpoint: string;
  /** The ID token the user got from the IdP at sign-in. */
  idToken: string;
  /** This client's id at the IdP. */
  idpClientId: string;
  /** Its secret there, if it is a confidential client of the IdP (sent with client_secret_basic). */
  idpClientSecret?: string;
  fetch?: FetchLike;
}

const TOKEN_EXCHANGE = 'urn:ietf:params:oauth:grant-type:token-exchange';
const ID_JAG = 'urn:ietf:params:oauth:token-type:id-jag';
const ID_TOKEN = 'urn:ietf:params:oauth:token-type:id_token';

export function enterpriseAssertion(options: EnterpriseAssertionOptions): AssertionProvider {
  const endpoint = endpointUrl(options.idpTokenEndpoint, 'the IdP token endpoint');
  const fetchFn = options.fetch ?? ((input, init) => fetch(input, init));
  return async ({ issuer, resource, scopes, signal }) => {
    const params = new URLSearchParams({
      grant_type: TOKEN_EXCHANGE,
      requested_token_type: ID_JAG,
      audience: issuer,
      resource,
      subject_token: options.idToken,
      subject_token_type: ID_TOKEN,
    });
    if (scopes.length > 0) params.set('scope', scopes.join(' '));
    const headers = new Headers({
      'content-type': 'application/x-www-form-urlencoded',
      accept: 'application/json',
    });
    if (options.idpClientSecret === undefined) params.set('client_id', options.idpClientId);
    else {
      const pair = `${encodeURIComponent(options.idpClientId)}:${encodeURIComponent(options.idpClientSecret)}`;
      headers.set('authorization', `Basic ${Buffer.from(pair).toString('base64')}`);
    }
    const response = await send(
      fetchFn,
      endpoint,
      { method: 'POST', redirect: 'error', headers, body: params.toString(), ...(signal && { signal }) },
      'the IdP token exchange',
    );
    let body: JsonObject | undefined;
    try {
      body = await readJsonObject(response, 'the IdP token exchange response');
    } catch (error) {
      if (response.ok) throw error;
    }
    if (!response.ok) {
      throw new OAuthError(
        'token_refused',
        `the IdP refused the token exchange: ${describeOAuthError(body, response.status)}`,
      );
    }
    const assertion = body?.access_token;
    if (typeof assertion !== 'string' || assertion === '') {
      throw new OAuthError(
        'invalid_metadata',
        'the IdP token exchange response has no access_token (the ID-JAG)',
      );
    }
    return assertion;
  };
}
