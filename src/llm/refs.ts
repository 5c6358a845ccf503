// Inlines a schema's local $refs so every provider sees one self-contained tree; recursion and outside
// references are refused, and inlining is bounded (a few shared definitions must not expand without end).

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { SchemaRefusal } from './refusal.js';

/** Nodes an inlined schema may have: far above any real tool, far below what would hurt a request. */
export const MAX_INLINED_NODES = 20_000;
/** Nesting an input schema may have at all (the provider limits are lower and checked later). */
export const MAX_SCHEMA_DEPTH = 64;

const DATA_KEYWORDS = new Set(['const', 'enum', 'default', 'examples']);
const DEFINITIONS = new Set(['$defs', 'definitions']);
// Keywords whose value maps names to subschemas: a key there is a name (even `enum` or `$ref`), never a keyword.
export const NAME_MAPS = new Set(['properties', 'patternProperties', 'dependentSchemas']);

function decodePointer(ref: string): string[] | undefined {
  if (ref === '#') return [];
  if (!ref.startsWith('#/')) return undefined; // an anchor (#name) or something else: not a JSON Pointer
  let text: string;
  try {
    text = decodeURIComponent(ref.slice(2));
  } catch {
    return undefined;
  }
  return text.split('/').map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'));
}

function resolve(root: JsonObject, ref: string): unknown {
  const segments = decodePointer(ref);
  if (segments === undefined) return undefined;
  let node: unknown = root;
  for (const segment of segments) {
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(segment)) node = node[Number(segment)];
    else if (isJsonObject(node) && Object.hasOwn(node, segment)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * A copy of `root` with every `$ref` replaced by what it points to (siblings of a `$ref` are kept beside it, as
 * 2020-12 reads them), and `$defs` / `definitions` removed. Throws SchemaRefusal for an outside, anchor or
 * dynamic reference, a reference that resolves to nothing, a recursive schema, or one too large once inlined.
 * `counted.refs` says how many references were replaced.
 */
/**
 * Sets a key as an own data property: a schema's property named "__proto__" is data, never the copy's prototype
 * (assignment would drop it; found by the round-trip property test).
 */
export function defineKey(target: JsonObject, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

export function inlineRefs(root: JsonObject, counted: { refs: number } = { refs: 0 }): JsonObject {
  let nodes = 0;
  const copyMap = (
    map: JsonObject,
    pointer: string,
    expanding: readonly string[],
    depth: number,
  ): JsonObject => {
    const out: JsonObject = {};
    for (const [name, child] of Object.entries(map))
      defineKey(out, name, copy(child, `${pointer}/${name}`, expanding, depth + 1));
    return out;
  };
  const copy = (value: unknown, pointer: string, expanding: readonly string[], depth: number): unknown => {
    if (Array.isArray(value))
      return value.map((item, index) => copy(item, `${pointer}/${index}`, expanding, depth + 1));
    if (!isJsonObject(value)) return value;
    if (depth > MAX_SCHEMA_DEPTH)
      throw new SchemaRefusal(`it is nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
    if (++nodes > MAX_INLINED_NODES) {
      throw new SchemaRefusal(`it grows past ${MAX_INLINED_NODES} nodes once its $refs are inlined`);
    }
    for (const keyword of ['$dynamicRef', '$recursiveRef']) {
      if (typeof value[keyword] === 'string')
        throw new SchemaRefusal(`it uses ${keyword} at ${pointer || 'the root'}, which no model API takes`);
    }
    const out: JsonObject = {};
    const ref = value.$ref;
    if (typeof ref === 'string') {
      if (!ref.startsWith('#')) {
        throw new SchemaRefusal(
          `it refers to another document (${JSON.stringify(ref)}); toolwire never fetches schemas`,
        );
      }
      if (expanding.includes(ref)) {
        throw new SchemaRefusal(
          `it is recursive: ${JSON.stringify(ref)} refers back to itself, which no model API takes`,
        );
      }
      const target = resolve(root, ref);
      if (target === undefined || (typeof target !== 'boolean' && !isJsonObject(target))) {
        throw new SchemaRefusal(
          `its $ref ${JSON.stringify(ref)} at ${pointer || 'the root'} points to no schema`,
        );
      }
      counted.refs++;
      const inlined = copy(target, pointer, [...expanding, ref], depth);
      if (inlined === false) return { not: {} }; // a false schema accepts nothing; siblings cannot widen it
      if (isJsonObject(inlined)) Object.assign(out, inlined);
    }
    for (const [key, child] of Object.entries(value)) {
      if (key === '$ref' || DEFINITIONS.has(key)) continue;
      const at = `${pointer}/${key}`;
      if (DATA_KEYWORDS.has(key)) defineKey(out, key, structuredClone(child));
      else if (NAME_MAPS.has(key) && isJsonObject(child))
        defineKey(out, key, copyMap(child, at, expanding, depth + 1));
      else defineKey(out, key, copy(child, at, expanding, depth + 1));
    }
    return out;
  };
  const result = copy(root, '', [], 1);
  return isJsonObject(result) ? result : {};
}
