// The OAuth client's own errors: a string code a program can branch on, and a message a person can act on.

export type OAuthErrorCode =
  /** No Protected Resource Metadata and no other way to find an authorization server. */
  | 'no_metadata'
  /** A metadata document, token response or registration answer that breaks its RFC. */
  | 'invalid_metadata'
  /** The PRM `resource` names another server than the one being called (RFC 9728 §3.3). */
  | 'resource_mismatch'
  /** The AS metadata `issuer` differs from the issuer identifier used to find it (RFC 8414 §3.3). */
  | 'issuer_mismatch'
  /** The authorization server does not offer PKCE with S256. */
  | 'pkce_unsupported'
  /** No pre-registered client, no Client ID Metadata Document support and no registration endpoint. */
  | 'no_client'
  /** The authorization response failed validation (state, iss, missing code). */
  | 'invalid_authorization_response'
  /** The authorization server answered the authorization request with an error. */
  | 'authorization_denied'
  /** The token endpoint refused a grant. */
  | 'token_refused'
  /** Interactive authorization is needed but the client has no way to ask the user. */
  | 'authorization_required'
  /** A metadata or token endpoint could not be reached or answered with an unexpected status. */
  | 'unreachable';

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;

  constructor(code: OAuthErrorCode, message: string) {
    super(message);
    this.name = 'OAuthError';
    this.code = code;
  }
}

/** Text another party chose, cut short and stripped of control characters before it goes in a message. */
export function quoteForeign(text: unknown, max = 200): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is being removed
  const flat = String(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return JSON.stringify(flat.length > max ? `${flat.slice(0, max)}…` : flat);
}
