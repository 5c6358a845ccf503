// The JSON Schema a tool sends in tools/list: checked once, copied once, frozen, never rewritten.

import type { JsonObject } from '../jsonrpc/index.js';
import { boundedJsonText } from './bounds.js';
import { assertLocalRefs } from './refs.js';

export interface WireSchema {
  /** The JSON text: the compile cache key. */
  readonly text: string;
  /** A deep-frozen copy, key for key the same as what the author wrote. */
  readonly schema: JsonObject;
}

const deepFreeze = <T>(value: T): T => {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
};

/** Applies the size limits and the no-external-refs rule, and returns the frozen copy. */
export function toWireSchema(schema: JsonObject, subject: string): WireSchema {
  const text = boundedJsonText(schema, subject);
  // The copy goes through the text so that it is plain JSON (no prototypes, getters or undefined values).
  const copy = deepFreeze(JSON.parse(text) as JsonObject); // a stringified object parses back to an object
  assertLocalRefs(copy, subject);
  return { text, schema: copy };
}
