// The way back from a model's arguments to the MCP tool's: renamed keys restored, the nulls strict mode added
// dropped, a wrapped root unwrapped. Recorded by the schema compiler, only where something changed.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';

export interface Shape {
  /** Provider key → original key, for the keys that were renamed. */
  keys?: Map<string, string>;
  /** Provider keys that strict mode made required-but-nullable: null there means "not given". */
  nulled?: Set<string>;
  /** Per provider key, the shape of that property's value. */
  properties?: Map<string, Shape>;
  items?: Shape;
  additional?: Shape;
  /** The shapes of anyOf branches (the first one that fits the value's kind is used). */
  anyOf?: Shape[];
  /** The root was wrapped: the tool's arguments are the value of this key. */
  unwrap?: string;
}

export const isEmptyShape = (shape: Shape): boolean =>
  shape.keys === undefined &&
  shape.nulled === undefined &&
  shape.properties === undefined &&
  shape.items === undefined &&
  shape.additional === undefined &&
  shape.anyOf === undefined &&
  shape.unwrap === undefined;

/** Restores a value produced under a compiled schema to the original schema's terms. Never mutates `value`. */
export function restoreValue(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined) return value;
  if (Array.isArray(value)) {
    if (shape.items !== undefined) return value.map((item) => restoreValue(item, shape.items));
    return value;
  }
  if (!isJsonObject(value)) return value;
  if (shape.anyOf !== undefined && shape.properties === undefined && shape.keys === undefined) {
    // Which branch the model meant is not recorded; every object-shaped branch restores the same way in practice.
    const branch = shape.anyOf.find(
      (candidate) => candidate.properties !== undefined || candidate.keys !== undefined,
    );
    return restoreValue(value, branch);
  }
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null && shape.nulled?.has(key) === true) continue;
    const original = shape.keys?.get(key) ?? key;
    const childShape =
      shape.properties?.get(key) ?? (shape.keys?.has(key) === true ? undefined : shape.additional);
    out[original] = restoreValue(child, childShape);
  }
  return out;
}

/** The arguments a model gave, in the tool's own terms (unwrapped when the root was wrapped). */
export function restoreArguments(args: JsonObject, shape: Shape | undefined): unknown {
  const restored = restoreValue(args, shape);
  if (shape?.unwrap !== undefined && isJsonObject(restored)) return restored[shape.unwrap];
  return restored;
}
