// Every list method (tools, prompts, resources, templates): a precomputed page for the client's era, by cursor.

import { revisionHasStructuredContent } from '../protocol/index.js';
import type { Catalog, CatalogEntry, ListVariant } from './catalog.js';
import { decodeCursor } from './pagination.js';
import type { RequestScope } from './request-scope.js';

const variantFor = (scope: RequestScope): ListVariant =>
  scope.era === 'modern'
    ? 'modern'
    : revisionHasStructuredContent(scope.envelope.protocolVersion)
      ? 'legacy'
      : 'legacy-old';

/** The page's result JSON (already serialised, with cache hints and _meta on the modern wire). */
export function listPage(scope: RequestScope, catalog: Catalog<CatalogEntry>): string {
  const cursor = scope.params?.cursor;
  const offset = cursor === undefined ? 0 : decodeCursor(cursor, catalog.pageSize, catalog.enabled().length);
  return catalog.page(offset, variantFor(scope));
}

export const listTools = (scope: RequestScope): string => listPage(scope, scope.server.tools);
export const listPrompts = (scope: RequestScope): string => listPage(scope, scope.server.prompts);
export const listResources = (scope: RequestScope): string => listPage(scope, scope.server.resources.statics);
export const listResourceTemplates = (scope: RequestScope): string =>
  listPage(scope, scope.server.resources.templates);
