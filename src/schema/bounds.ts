// Limits on schema size and shape, so a hostile or accidental giant schema fails at registration, not later.

import { SchemaError } from './types.js';

export const SCHEMA_LIMITS = {
  /** Nesting of objects and arrays, the root object being level 1 (the same count as incoming messages). */
  maxDepth: 64,
  /** Objects and arrays, all levels together. */
  maxNodes: 20_000,
  /** UTF-8 bytes of the schema's JSON text. */
  maxBytes: 1024 * 1024,
} as const;

/**
 * Checks depth, node count and size, and returns the schema's JSON text (the cache key and the wire copy).
 * The walk runs before JSON.stringify so that a cycle or a huge tree is refused before it is serialised.
 */
export function boundedJsonText(schema: object, subject: string): string {
  let nodes = 0;
  const ancestors = new Set<object>();
  // Recursion is safe: it stops at maxDepth + 1 frames.
  const visit = (value: unknown, depth: number): void => {
    if (typeof value !== 'object' || value === null) return;
    if (depth > SCHEMA_LIMITS.maxDepth) {
      throw new SchemaError(`${subject} is nested deeper than ${SCHEMA_LIMITS.maxDepth} levels`);
    }
    if (++nodes > SCHEMA_LIMITS.maxNodes) {
      throw new SchemaError(`${subject} has more than ${SCHEMA_LIMITS.maxNodes} objects and arrays`);
    }
    if (ancestors.has(value))
      throw new SchemaError(`${subject} contains a cycle; a JSON Schema must be plain JSON`);
    ancestors.add(value);
    for (const child of Object.values(value)) visit(child, depth + 1);
    ancestors.delete(value);
  };
  visit(schema, 1);

  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch (error) {
    throw new SchemaError(
      `${subject} cannot be written as JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > SCHEMA_LIMITS.maxBytes) {
    throw new SchemaError(`${subject} is larger than 1 MiB as JSON (${bytes} bytes)`);
  }
  return text;
}
