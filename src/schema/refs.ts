// Refuses references to other documents: MCP forbids dereferencing network refs, and toolwire never fetches.

import type { JsonObject } from '../jsonrpc/index.js';
import { SchemaError } from './types.js';
import { forEachSubschema } from './walk.js';

const REF_KEYWORDS = ['$ref', '$dynamicRef', '$recursiveRef'] as const;

/** Throws SchemaError naming the first `$ref` / `$dynamicRef` / `$recursiveRef` that does not start with `#`. */
export function assertLocalRefs(schema: JsonObject, subject: string): void {
  forEachSubschema(schema, ({ schema: node, pointer }) => {
    for (const keyword of REF_KEYWORDS) {
      const ref = node[keyword];
      if (typeof ref === 'string' && !ref.startsWith('#')) {
        throw new SchemaError(
          `${subject} has an external ${keyword} ${JSON.stringify(ref)} at ${pointer || '(root)'}: ` +
            `toolwire never fetches schemas; inline the referenced schema under $defs and point to it with "#/$defs/<name>"`,
        );
      }
    }
  });
}
