// The answers of a resource server that says no (RFC 6750 §3, RFC 9728 §5.1, MCP authorization): 401 with where
// to find the metadata and what scope to ask for, plus the error when a token was presented; 403
// insufficient_scope naming exactly what is missing; 503 with Retry-After when tokens cannot be checked now.

import type { HttpChallenge } from '../../transports/http/index.js';
import { quoteParameter } from '../credentials.js';

export interface ChallengeError {
  readonly error: 'invalid_token' | 'invalid_request' | 'insufficient_scope';
  readonly description: string;
}

/** A `Bearer` WWW-Authenticate value: resource_metadata first (what every client looks for), then the rest. */
export function bearerChallenge(
  metadataUrl: string,
  scopes: readonly string[],
  problem?: ChallengeError,
): string {
  const parameters = [`resource_metadata=${quoteParameter(metadataUrl)}`];
  if (scopes.length > 0) parameters.push(`scope=${quoteParameter(scopes.join(' '))}`);
  if (problem !== undefined) {
    parameters.push(`error=${quoteParameter(problem.error)}`);
    parameters.push(`error_description=${quoteParameter(problem.description)}`);
  }
  return `Bearer ${parameters.join(', ')}`;
}

const MESSAGES = {
  none: 'Unauthorized: this server needs an access token (see the WWW-Authenticate header)',
  invalid_token: 'Unauthorized: the access token is not valid here (see the WWW-Authenticate header)',
  invalid_request:
    'Unauthorized: the credentials were sent in a way this server refuses (see the WWW-Authenticate header)',
} as const;

/** 401: no token (no error code, RFC 6750 §3.1), or a token or request that failed. */
export function unauthorized(
  metadataUrl: string,
  scopes: readonly string[],
  problem?: ChallengeError,
): HttpChallenge {
  return {
    status: 401,
    headers: { 'www-authenticate': bearerChallenge(metadataUrl, scopes, problem) },
    message:
      problem === undefined
        ? MESSAGES.none
        : MESSAGES[problem.error === 'invalid_request' ? 'invalid_request' : 'invalid_token'],
  };
}

/** 503: the key set or introspection endpoint cannot be reached; the client retries later with the same token. */
export function unavailableChallenge(retryAfterSeconds: number): HttpChallenge {
  return {
    status: 503,
    headers: { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
    message: 'Service unavailable: access tokens cannot be checked right now; retry later',
  };
}
