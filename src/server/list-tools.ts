// tools/list: a precomputed page for the client's era, chosen by cursor.

import { revisionHasStructuredContent } from '../protocol/index.js';
import { decodeCursor } from './pagination.js';
import type { RequestScope } from './request-scope.js';
import type { ListVariant } from './catalog.js';

const variantFor = (scope: RequestScope): ListVariant =>
  scope.era === 'modern'
    ? 'modern'
    : revisionHasStructuredContent(scope.envelope.protocolVersion)
      ? 'legacy'
      : 'legacy-old';

/** Returns the page's result JSON (already serialised, with cache hints and _meta on the modern wire). */
export function listTools(scope: RequestScope): string {
  const registry = scope.server.tools;
  const cursor = scope.params?.cursor;
  const offset =
    cursor === undefined ? 0 : decodeCursor(cursor, registry.pageSize, registry.enabled().length);
  return registry.page(offset, variantFor(scope));
}
