// The way back from a model's arguments to the MCP tool's: renamed keys restored, the nulls strict mode added
// dropped, a wrapped root unwrapped. Recorded by the schema compiler, only where something changed.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { defineKey } from './refs.js';

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
  /** An object's provider keys, recorded beside the rest so an anyOf branch can be picked by the keys a value has. */
  declared?: Set<string>;
}

export const isEmptyShape = (shape: Shape): boolean =>
  shape.keys === undefined &&
  shape.nulled === undefined &&
  shape.properties === undefined &&
  shape.items === undefined &&
  shape.additional === undefined &&
  shape.anyOf === undefined &&
  shape.unwrap === undefined;

/**
 * The anyOf branch an object value was made for: the one that declares all its keys, the most of them first. The
 * model's choice is not recorded anywhere else, and a wrong pick is caught by the original schema's validation.
 */
function branchFor(value: JsonObject, branches: readonly Shape[]): Shape | undefined {
  const keys = Object.keys(value);
  let best: Shape | undefined;
  let bestScore = -1;
  for (const branch of branches) {
    if (branch.declared === undefined) continue;
    const known = keys.filter((key) => branch.declared?.has(key) === true).length;
    const score = known === keys.length ? known + keys.length : known; // declaring every key beats any partial match
    if (score > bestScore) [best, bestScore] = [branch, score];
  }
  return best;
}

/** Restores a value produced under a compiled schema to the original schema's terms. Never mutates `value`. */
export function restoreValue(value: unknown, shape: Shape | undefined): unknown {
  if (shape === undefined) return value;
  if (Array.isArray(value)) {
    if (shape.items !== undefined) return value.map((item) => restoreValue(item, shape.items));
    return value;
  }
  if (!isJsonObject(value)) return value;
  if (shape.anyOf !== undefined && shape.properties === undefined && shape.keys === undefined) {
    return restoreValue(value, branchFor(value, shape.anyOf));
  }
  const out: JsonObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (child === null && shape.nulled?.has(key) === true) continue;
    const original = shape.keys?.get(key) ?? key;
    const childShape =
      shape.properties?.get(key) ?? (shape.keys?.has(key) === true ? undefined : shape.additional);
    defineKey(out, original, restoreValue(child, childShape)); // "__proto__" stays data
  }
  return out;
}

/** The arguments a model gave, in the tool's own terms (unwrapped when the root was wrapped). */
export function restoreArguments(args: JsonObject, shape: Shape | undefined): unknown {
  const restored = restoreValue(args, shape);
  if (shape?.unwrap !== undefined && isJsonObject(restored)) return restored[shape.unwrap];
  return restored;
}
