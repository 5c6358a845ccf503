// Where a credential may travel on an HTTP request, shared by every authenticator: the Authorization header (and,
// for API keys, X-API-Key), never the URL. The MCP authorization spec forbids tokens in query strings (threat B3).

import type { HttpRequestInfo } from '../transports/http/index.js';

/** Query parameter names that carry credentials somewhere in the field; any case, any of them is refused. */
const CREDENTIAL_QUERY_NAMES: ReadonlySet<string> = new Set([
  'access_token',
  'accesstoken',
  'token',
  'id_token',
  'api_key',
  'apikey',
  'api-key',
  'key',
  'auth',
  'authorization',
  'bearer',
  'jwt',
  'client_secret',
]);

/** The longest credential read from a header; a longer one is refused before anything parses it. */
export const MAX_CREDENTIAL_LENGTH = 16 * 1024;

/** What a request presents, read without ever copying the credential into a message or a log line. */
export type Presented =
  | { readonly kind: 'none' }
  | { readonly kind: 'token'; readonly token: string; readonly header: 'authorization' | 'x-api-key' }
  /** Present but unusable: a credential in the URL, a scheme other than Bearer, two credentials, an oversize one. */
  | { readonly kind: 'malformed'; readonly problem: string };

const NONE: Presented = Object.freeze({ kind: 'none' });

/** The name of a query parameter that looks like a credential, or undefined. */
export function credentialInQuery(request: HttpRequestInfo): string | undefined {
  for (const name of request.queryNames()) {
    if (CREDENTIAL_QUERY_NAMES.has(name.trim().toLowerCase())) return name;
  }
  return undefined;
}

// RFC 6750 §2.1: "Bearer" (any case), one or more spaces, then b64token characters.
const BEARER = /^bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const API_KEY = /^[\x21-\x7e]+$/;

/**
 * The credential a request presents: `Authorization: Bearer <token>`, or `X-API-Key: <key>` when `apiKeyHeader`
 * is set. A credential anywhere in the query string makes the whole request malformed, even beside a good header:
 * such a URL has already been written to someone's access log.
 */
export function presentedCredential(request: HttpRequestInfo, apiKeyHeader = false): Presented {
  const inQuery = credentialInQuery(request);
  if (inQuery !== undefined) {
    return {
      kind: 'malformed',
      problem: `credentials in the URL are refused (query parameter ${JSON.stringify(inQuery.slice(0, 40))}); send them in the Authorization header`,
    };
  }
  const authorization = request.header('authorization');
  const apiKey = apiKeyHeader ? request.header('x-api-key') : undefined;
  if (authorization !== undefined && apiKey !== undefined) {
    return {
      kind: 'malformed',
      problem: 'send one credential: both Authorization and X-API-Key are present',
    };
  }
  if (authorization !== undefined) {
    if (authorization.length > MAX_CREDENTIAL_LENGTH) {
      return {
        kind: 'malformed',
        problem: `the Authorization header is over ${MAX_CREDENTIAL_LENGTH} characters`,
      };
    }
    const match = BEARER.exec(authorization);
    if (match === null) {
      return {
        kind: 'malformed',
        // Never quote the header: it may hold a secret in another scheme.
        problem: 'the Authorization header must be "Bearer <token>" (one token, RFC 6750)',
      };
    }
    return { kind: 'token', token: match[1]!, header: 'authorization' }; // group 1 always matches
  }
  if (apiKey !== undefined) {
    if (apiKey.length > MAX_CREDENTIAL_LENGTH || !API_KEY.test(apiKey)) {
      return {
        kind: 'malformed',
        problem: 'the X-API-Key header must be one key of visible ASCII characters',
      };
    }
    return { kind: 'token', token: apiKey, header: 'x-api-key' };
  }
  return NONE;
}

/** A quoted-string for a WWW-Authenticate parameter (RFC 9110 §5.6.4): backslash and quote escaped, controls gone. */
export function quoteParameter(value: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  return `"${value.replace(/[\x00-\x1f\x7f]/g, '').replace(/["\\]/g, (c) => `\\${c}`)}"`;
}
