// Finding an issuer's key set from its metadata: RFC 8414's /.well-known/oauth-authorization-server (path-inserted
// for an issuer with a path), then OpenID Connect's openid-configuration (path-inserted, then appended), the order
// the MCP authorization spec gives clients. The document's `issuer` must equal the configured one (RFC 8414 §3.3),
// else someone else's metadata could name someone else's keys.

import { unavailable } from './failure.js';
import { fetchJson, urlProblem, type FetchLimits } from './safe-fetch.js';

/** The metadata URLs to try for an issuer, in order. */
export function metadataUrls(issuer: string): URL[] {
  const parsed = new URL(issuer);
  const path = parsed.pathname.replace(/\/+$/, '');
  const at = (wellKnown: string): URL => new URL(`${parsed.origin}${wellKnown}`);
  if (path === '') {
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  }
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/** The `jwks_uri` of an issuer, from the first metadata document that exists. */
export async function discoverJwksUri(
  issuer: string,
  limits: FetchLimits,
  allowInsecure: boolean,
): Promise<URL> {
  for (const url of metadataUrls(issuer)) {
    const { status, json } = await fetchJson(url, {}, limits, `the metadata of issuer ${issuer}`);
    if (status === 404 || status === 410) continue;
    if (status < 200 || status > 299) {
      throw unavailable(`the metadata of issuer ${issuer} answered HTTP ${status}`);
    }
    if (typeof json !== 'object' || json === null || Array.isArray(json)) {
      throw unavailable(`the metadata of issuer ${issuer} is not a JSON object`);
    }
    const document = json as Record<string, unknown>; // an object, checked above
    if (document.issuer !== issuer) {
      throw unavailable(`the metadata at ${url.href} names another issuer than ${issuer} (RFC 8414 §3.3)`);
    }
    if (typeof document.jwks_uri !== 'string') {
      throw unavailable(`the metadata of issuer ${issuer} has no jwks_uri`);
    }
    let jwksUri: URL;
    try {
      jwksUri = new URL(document.jwks_uri);
    } catch {
      throw unavailable(`the jwks_uri of issuer ${issuer} is not a URL`);
    }
    const problem = urlProblem(jwksUri, allowInsecure);
    if (problem !== undefined) throw unavailable(`the jwks_uri of issuer ${issuer} ${problem}`);
    return jwksUri;
  }
  throw unavailable(`issuer ${issuer} publishes no authorization server or OpenID metadata`);
}
