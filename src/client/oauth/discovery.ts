// Finding the authorization server of an MCP server: Protected Resource Metadata (RFC 9728), then the
// authorization server's metadata (RFC 8414, with the OpenID Connect Discovery fallbacks), in the spec's order.

import type { Challenge } from './challenge.js';
import { OAuthError, quoteForeign } from './errors.js';
import { getMetadata, type FetchLike } from './http.js';
import {
  parseResourceMetadata,
  parseServerMetadata,
  type AuthorizationServerMetadata,
  type ProtectedResourceMetadata,
} from './metadata.js';
import { assertResourceCovers, endpointUrl } from './resource.js';

/** The path of a URL without its trailing slash ("" for the root), for well-known path insertion. */
const pathOf = (url: URL): string => url.pathname.replace(/\/+$/, '');

/** Where to look for PRM without a challenge: path-inserted first (when there is a path), then the root. */
export function resourceMetadataUrls(serverUrl: URL): URL[] {
  const path = pathOf(serverUrl);
  const root = new URL('/.well-known/oauth-protected-resource', serverUrl.origin);
  return path === ''
    ? [root]
    : [new URL(`/.well-known/oauth-protected-resource${path}`, serverUrl.origin), root];
}

/** RFC 8414 §3.1 and OpenID Connect Discovery, in the order the MCP spec gives. */
export function serverMetadataUrls(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = pathOf(url);
  const at = (p: string): URL => new URL(p, url.origin);
  if (path === '')
    return [at('/.well-known/oauth-authorization-server'), at('/.well-known/openid-configuration')];
  return [
    at(`/.well-known/oauth-authorization-server${path}`),
    at(`/.well-known/openid-configuration${path}`),
    at(`${path}/.well-known/openid-configuration`),
  ];
}

/**
 * The server's PRM: from the challenge's resource_metadata when there is one, then the well-known locations.
 * Undefined when none exists. A document whose `resource` is not this server aborts (never authorize for it).
 */
export async function discoverResourceMetadata(
  fetchFn: FetchLike,
  serverUrl: URL,
  challenge: Challenge | undefined,
  signal?: AbortSignal,
): Promise<ProtectedResourceMetadata | undefined> {
  // The challenge's URL first; when it names none, or has nothing there, the well-known locations in order.
  const named = challenge?.resourceMetadata;
  const candidates = [
    ...(named === undefined
      ? []
      : [endpointUrl(named, 'the resource_metadata URL of the WWW-Authenticate challenge')]),
    ...resourceMetadataUrls(serverUrl),
  ];
  for (const url of candidates) {
    const doc = await getMetadata(fetchFn, url, 'the protected resource metadata', signal);
    if (doc === undefined) continue;
    const metadata = parseResourceMetadata(doc, url.href);
    assertResourceCovers(metadata.resource, serverUrl);
    return metadata;
  }
  return undefined;
}

/** The validated metadata of `issuer`, from the first well-known location that has a document. */
export async function discoverServerMetadata(
  fetchFn: FetchLike,
  issuer: string,
  signal?: AbortSignal,
): Promise<AuthorizationServerMetadata> {
  const urls = serverMetadataUrls(issuer);
  for (const url of urls) {
    const doc = await getMetadata(fetchFn, url, 'the authorization server metadata', signal);
    if (doc !== undefined) return parseServerMetadata(doc, issuer, url.href);
  }
  throw new OAuthError(
    'no_metadata',
    `the authorization server ${quoteForeign(issuer)} publishes no metadata (tried ${urls.map((u) => u.href).join(', ')})`,
  );
}

/** PKCE with S256 is required; an AS that does not list it is refused (MCP authorization, security considerations). */
export function assertPkceS256(metadata: AuthorizationServerMetadata): void {
  if (!metadata.codeChallengeMethods?.includes('S256')) {
    throw new OAuthError(
      'pkce_unsupported',
      `the authorization server ${quoteForeign(metadata.issuer)} does not list S256 in code_challenge_methods_supported: refusing to authorize without PKCE`,
    );
  }
}
