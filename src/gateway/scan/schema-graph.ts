// The subschemas of a JSON Schema as a graph: each one's children (which keyword leads there, whether it is a
// combinator) and its $ref target. refuse-definition.ts walks it for cycles and for sizes with $refs expanded.

import { isJsonObject, type JsonObject } from '../../jsonrpc/index.js';
import { appendPointer } from '../../schema/pointer.js';

export interface SchemaEdge {
  child: JsonObject;
  pointer: string;
  /** allOf, anyOf, oneOf, not, if, then, else: every branch applies to the same value, so nesting multiplies work. */
  combinator: boolean;
}

const NAME_MAPS = new Set(['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas']);
const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
const COMBINATORS = new Set(['allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else']);

/** The subschemas directly under `schema` (boolean schemas have none and are left out), as walk.ts reads them. */
export function subschemas(schema: JsonObject, pointer: string): SchemaEdge[] {
  const edges: SchemaEdge[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (DATA_KEYWORDS.has(keyword)) continue;
    const at = appendPointer(pointer, keyword);
    const combinator = COMBINATORS.has(keyword);
    if (NAME_MAPS.has(keyword) && isJsonObject(value)) {
      for (const [name, child] of Object.entries(value))
        if (isJsonObject(child)) edges.push({ child, pointer: appendPointer(at, name), combinator });
    } else if (Array.isArray(value)) {
      value.forEach((child: unknown, index) => {
        if (isJsonObject(child)) edges.push({ child, pointer: appendPointer(at, index), combinator });
      });
    } else if (isJsonObject(value)) edges.push({ child: value, pointer: at, combinator });
  }
  return edges;
}

/**
 * What a local reference points to: `#`, a JSON Pointer `#/…` (percent-decoded), or an anchor `#name`.
 * Undefined when it resolves to nothing; `true` / `false` for a boolean schema.
 */
export function resolveLocalRef(
  root: JsonObject,
  ref: string,
  anchors: ReadonlyMap<string, JsonObject>,
): JsonObject | boolean | undefined {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return anchors.get(ref.slice(1));
  let text: string;
  try {
    text = decodeURIComponent(ref.slice(2));
  } catch {
    return undefined;
  }
  let node: unknown = root;
  for (const raw of text.split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node) && /^(?:0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
    else if (isJsonObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return isJsonObject(node) || typeof node === 'boolean' ? node : undefined;
}
