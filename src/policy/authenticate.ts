// One authenticate hook for the HTTP edge out of the configured authenticators: an API key when the credential has
// the key shape, else an OAuth access token; no credential, or one that fails, is challenged the way the MCP
// authorization spec asks (401 with WWW-Authenticate pointing at the protected-resource metadata).

import { ANONYMOUS_CALLER, type Caller } from '../protocol/index.js';
import type { HttpAuthenticate, HttpChallenge, HttpRequestInfo } from '../transports/http/index.js';
import type { ApiKeys } from './api-keys/index.js';
import type { Bearer } from './bearer/index.js';
import { presentedCredential, quoteParameter } from './credentials.js';

export interface CredentialsOptions {
  bearer?: Bearer;
  apiKeys?: ApiKeys;
  /** Requests without credentials go on as the anonymous caller (no scopes) instead of getting 401. Default false. */
  anonymous?: boolean;
}

/** The WWW-Authenticate value of a 401: the metadata to discover when OAuth is on, a realm otherwise. */
function challengeHeader(
  bearer: Bearer | undefined,
  error?: { code: 'invalid_request' | 'invalid_token'; description: string },
): string {
  const parts = [
    bearer === undefined
      ? 'Bearer realm="mcp"'
      : `Bearer resource_metadata=${quoteParameter(bearer.resourceMetadataUrl)}`,
  ];
  if (error !== undefined) {
    parts.push(`error="${error.code}"`, `error_description=${quoteParameter(error.description)}`);
  }
  return parts.join(', ');
}

const unauthorized = (
  bearer: Bearer | undefined,
  message: string,
  error?: { code: 'invalid_request' | 'invalid_token'; description: string },
): HttpChallenge =>
  Object.freeze({
    status: 401,
    headers: Object.freeze({ 'www-authenticate': challengeHeader(bearer, error) }),
    message: `Unauthorized: ${message}`,
  });

/**
 * The edge hook. With OAuth configured, the bearer piece's own challenges are used as they are (they carry the
 * configured scope hint); API keys and the composition's own refusals point at the same metadata.
 */
export function credentials(options: CredentialsOptions): HttpAuthenticate {
  const { bearer, apiKeys, anonymous = false } = options;
  if (bearer === undefined && apiKeys === undefined) {
    throw new TypeError('policy: credentials need OAuth (oauth) or API keys (apiKeys), or both');
  }
  const missing = unauthorized(bearer, 'this server needs credentials (see the WWW-Authenticate header)');
  const wrongKey = unauthorized(bearer, 'the API key is not valid', {
    code: 'invalid_token',
    description: 'the API key is unknown, revoked or expired',
  });
  const notAKey = unauthorized(bearer, 'the credential is not valid', {
    code: 'invalid_token',
    description: 'this server accepts API keys only',
  });
  return (request: HttpRequestInfo): Caller | HttpChallenge | Promise<Caller | HttpChallenge> => {
    const presented = presentedCredential(request, apiKeys !== undefined);
    if (presented.kind === 'none') {
      if (anonymous) return ANONYMOUS_CALLER;
      // The bearer piece's 401 carries its scope hint; without OAuth, the plain realm challenge.
      return bearer === undefined ? missing : bearer.authenticate(request);
    }
    if (presented.kind === 'malformed') {
      return unauthorized(bearer, presented.problem, {
        code: 'invalid_request',
        description: presented.problem,
      });
    }
    const { token } = presented;
    if (apiKeys !== undefined && (presented.header === 'x-api-key' || apiKeys.owns(token))) {
      return apiKeys.verify(token) ?? wrongKey;
    }
    if (bearer === undefined) return notAKey;
    // The header is read once: the bearer piece takes the token as it is.
    return bearer.authenticateToken(token, request.connection);
  };
}
