// RFC 9728 protected-resource metadata: the document that tells an MCP client which authorization servers issue
// tokens for this resource, served at the root well-known path and at the path-inserted one for the MCP endpoint.

import type { HttpRoute } from '../../transports/http/index.js';
import type { BearerConfig } from './options.js';

const WELL_KNOWN = '/.well-known/oauth-protected-resource';

/** The path-inserted well-known path for a resource (RFC 9728 §3.1): `/mcp` → `/.well-known/…/mcp`. */
export function metadataPath(resource: URL): string {
  const path = resource.pathname.replace(/\/+$/, '');
  return `${WELL_KNOWN}${path}`;
}

/** The absolute URL of the path-inserted document: what goes into `resource_metadata`. */
export const metadataUrl = (resource: URL): string => `${resource.origin}${metadataPath(resource)}`;

/** The document itself, serialised once (it never changes). */
export function metadataDocument(config: BearerConfig, resource: string): string {
  return JSON.stringify({
    resource,
    authorization_servers: config.authorizationServers,
    ...(config.scopesSupported !== undefined && { scopes_supported: config.scopesSupported }),
    bearer_methods_supported: ['header'],
    ...(config.resourceName !== undefined && { resource_name: config.resourceName }),
  });
}

/** The routes serving the document: the root well-known path and the path-inserted one (the same when at "/"). */
export function metadataRoutes(config: BearerConfig, resource: string): Record<string, HttpRoute> {
  const body = metadataDocument(config, resource);
  const response = Object.freeze({
    headers: Object.freeze({ 'content-type': 'application/json', 'cache-control': 'public, max-age=3600' }),
    body,
  });
  const route: HttpRoute = () => response;
  return { [WELL_KNOWN]: route, [metadataPath(config.resource)]: route };
}
