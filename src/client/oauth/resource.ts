// The MCP server's canonical resource URI (RFC 8707 §2) and whether a PRM `resource` may stand for it.

import { OAuthError, quoteForeign } from './errors.js';

/** Lower-case scheme and host (the URL parser does that), no fragment, no query, no trailing slash on the root. */
export function canonicalResource(serverUrl: string | URL): string {
  const url = new URL(serverUrl);
  url.hash = '';
  url.search = '';
  const text = url.href;
  return url.pathname === '/' ? text.slice(0, -1) : text;
}

/** Path without a trailing slash, so "/mcp/" and "/mcp" compare equal and "/" becomes "". */
const trimmedPath = (url: URL): string => url.pathname.replace(/\/+$/, '');

/**
 * A PRM `resource` stands for the server when it has the same origin and its path is the server's path or a
 * parent of it at a segment boundary (a server at /mcp may publish metadata for its whole origin).
 */
export function resourceCovers(resource: string, serverUrl: string | URL): boolean {
  if (!URL.canParse(resource)) return false;
  const claimed = new URL(resource);
  const server = new URL(serverUrl);
  if (claimed.hash !== '' || claimed.origin !== server.origin) return false;
  const base = trimmedPath(claimed);
  const path = trimmedPath(server);
  return path === base || path.startsWith(`${base}/`);
}

export function assertResourceCovers(resource: string, serverUrl: string | URL): void {
  if (!resourceCovers(resource, serverUrl)) {
    throw new OAuthError(
      'resource_mismatch',
      `the protected resource metadata is for ${quoteForeign(resource)}, not for ${canonicalResource(serverUrl)}: refusing to authorize (a token for it could be misused)`,
    );
  }
}

/** Loopback hosts may use plain http; everything else that carries credentials must be https. */
export function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** An endpoint named by metadata: an absolute http(s) URL, https unless on loopback. */
export function endpointUrl(value: unknown, what: string): URL {
  if (typeof value !== 'string' || !URL.canParse(value)) {
    throw new OAuthError('invalid_metadata', `${what} is not an absolute URL: ${quoteForeign(value)}`);
  }
  const url = new URL(value);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new OAuthError(
      'invalid_metadata',
      `${what} must use https (plain http only on loopback): ${quoteForeign(value)}`,
    );
  }
  if (url.hash !== '') throw new OAuthError('invalid_metadata', `${what} must not have a fragment`);
  return url;
}
