// Every list method (tools, prompts, resources, templates): a precomputed page for the client's era, by cursor.

import { revisionHasStructuredContent, type Caller } from '../protocol/index.js';
import type { Catalog, CatalogEntry, ListVariant } from './catalog.js';
import type { RequestScope } from './request-scope.js';

const variantFor = (scope: RequestScope): ListVariant =>
  scope.era === 'modern'
    ? 'modern'
    : revisionHasStructuredContent(scope.envelope.protocolVersion)
      ? 'legacy'
      : 'legacy-old';

/**
 * The page's result JSON (already serialised, with cache hints and _meta on the modern wire): the shared page when no
 * visibility rule is installed, else a page of what this caller may see (filtered before pagination).
 */
function listPage<E extends CatalogEntry>(
  scope: RequestScope,
  catalog: Catalog<E>,
  rule: ((caller: Caller, entry: E) => boolean) | undefined,
): string {
  return catalog.pageFor(scope.params?.cursor, variantFor(scope), scope.caller, rule);
}

export const listTools = (scope: RequestScope): string =>
  listPage(scope, scope.services.tools, scope.services.visibility.tools);
export const listPrompts = (scope: RequestScope): string =>
  listPage(scope, scope.services.prompts, scope.services.visibility.prompts);
export const listResources = (scope: RequestScope): string =>
  listPage(scope, scope.services.resources.statics, scope.services.visibility.resources);
export const listResourceTemplates = (scope: RequestScope): string =>
  listPage(scope, scope.services.resources.templates, scope.services.visibility.templates);
