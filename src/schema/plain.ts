// Plain JSON Schemas — the typed properties most tools declare — checked without Ajv. Loading Ajv costs ~40 ms
// (its hundred-odd CommonJS files), which a stdio server or a one-shot `toolwire call` pays on the way to its first
// answer. A schema made only of the keywords below gets a validator built here, once, at registration; anything
// else (a $ref, a combinator, a pattern, a format, a keyword of another vocabulary) goes to Ajv as before.
//
// Only the verdict comes from here. A value it rejects is run through Ajv (compiled then, once per schema) for the
// issues, so error messages are Ajv's, word for word. The verdict is Ajv's too, with the options of dialect.ts
// (strict: false, ownProperties): test/schema-plain.test.ts compares the two on generated schemas and values.

import type { JsonObject } from '../jsonrpc/index.js';

/** Says whether a value satisfies the schema it was built from. */
export type PlainCheck = (value: unknown) => boolean;

const TYPES = new Set(['object', 'array', 'string', 'number', 'integer', 'boolean', 'null']);
/** Keywords that only describe (Ajv ignores them, and so do we); `x-…` extensions too, as strict: false does. */
const ANNOTATIONS = new Set([
  'title',
  'description',
  'default',
  'examples',
  '$comment',
  'deprecated',
  'readOnly',
  'writeOnly',
]);
const COUNTS = new Set(['minLength', 'maxLength', 'minItems', 'maxItems']);
const BOUNDS = new Set(['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']);

const hasOwn = Object.prototype.hasOwnProperty;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isPrimitive = (value: unknown): boolean =>
  value === null || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number';
const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** Ajv's type test (strictNumbers is off with strict: false: NaN is a number, and Infinity an integer). */
function typeTest(type: string): PlainCheck {
  switch (type) {
    case 'null':
      return (value) => value === null;
    case 'array':
      return Array.isArray;
    case 'object':
      return isObject;
    case 'integer':
      return (value) => typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    default:
      return (value) => typeof value === type;
  }
}

/** Length in code points, as Ajv counts it (a surrogate pair is one). */
function codePoints(text: string): number {
  let length = 0;
  for (let index = 0; index < text.length; index++, length++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
  }
  return length;
}

/**
 * The check for `schema`, or undefined when it is not plain (Ajv's work). `root` allows `$schema` (the dialect,
 * checked by the caller). Keyword values must be what the meta-schema allows, so that a schema Ajv would refuse
 * is never taken here.
 */
function plainCheck(schema: unknown, root: boolean): PlainCheck | undefined {
  if (schema === true) return () => true;
  if (schema === false) return () => false;
  if (!isObject(schema)) return undefined;
  const checks: PlainCheck[] = [];
  const properties: Array<[string, PlainCheck]> = [];
  let required: string[] = [];
  let additional: PlainCheck | undefined;
  let items: PlainCheck | undefined;
  for (const key of Object.keys(schema)) {
    const value = schema[key];
    if (ANNOTATIONS.has(key) || key.startsWith('x-') || (root && key === '$schema')) continue;
    if (key === 'type') {
      const types = typeof value === 'string' ? [value] : value;
      if (!Array.isArray(types) || types.length === 0 || new Set(types).size !== types.length)
        return undefined;
      if (!types.every((type) => typeof type === 'string' && TYPES.has(type))) return undefined;
      const tests = (types as string[]).map(typeTest);
      checks.push(tests.length === 1 ? tests[0]! : (v) => tests.some((test) => test(v)));
    } else if (key === 'properties') {
      if (!isObject(value)) return undefined;
      for (const name of Object.keys(value)) {
        const check = plainCheck(value[name], false);
        if (check === undefined) return undefined;
        properties.push([name, check]);
      }
    } else if (key === 'required') {
      if (!Array.isArray(value) || !value.every((name) => typeof name === 'string')) return undefined;
      if (new Set(value).size !== value.length) return undefined;
      required = value as string[];
    } else if (key === 'additionalProperties' || key === 'items') {
      if (Array.isArray(value)) return undefined; // draft-07's tuple form of items
      const check = plainCheck(value, false);
      if (check === undefined) return undefined;
      if (key === 'items') items = check;
      else additional = check;
    } else if (key === 'enum' || key === 'const') {
      const allowed = key === 'const' ? [value] : value;
      if (!Array.isArray(allowed) || allowed.length === 0 || !allowed.every(isPrimitive)) return undefined;
      if (new Set(allowed).size !== allowed.length) return undefined; // draft-07 wants unique items
      checks.push((v) => allowed.includes(v) && !Number.isNaN(v)); // includes() finds NaN; === (Ajv) does not
    } else if (BOUNDS.has(key)) {
      if (typeof value !== 'number' || !Number.isFinite(value)) return undefined;
      checks.push(boundCheck(key, value));
    } else if (COUNTS.has(key)) {
      if (!isCount(value)) return undefined;
      checks.push(countCheck(key, value));
    } else return undefined;
  }
  if (properties.length > 0 || required.length > 0 || additional !== undefined) {
    const named = new Set(properties.map(([name]) => name));
    const props = properties;
    const need = required;
    const rest = additional;
    checks.push((v) => {
      if (!isObject(v)) return true;
      for (const name of need) if (v[name] === undefined || !hasOwn.call(v, name)) return false;
      for (const [name, check] of props) {
        const field = v[name];
        if (field !== undefined && hasOwn.call(v, name) && !check(field)) return false;
      }
      if (rest !== undefined) {
        for (const name of Object.keys(v)) if (!named.has(name) && !rest(v[name])) return false;
      }
      return true;
    });
  }
  if (items !== undefined) {
    const each = items;
    checks.push((v) => {
      if (!Array.isArray(v)) return true;
      for (let index = 0; index < v.length; index++) if (!each(v[index])) return false;
      return true;
    });
  }
  if (checks.length === 0) return () => true;
  if (checks.length === 1) return checks[0];
  return (v) => {
    for (const check of checks) if (!check(v)) return false;
    return true;
  };
}

function boundCheck(key: string, limit: number): PlainCheck {
  // Ajv fails a NaN against any bound.
  switch (key) {
    case 'minimum':
      return (v) => typeof v !== 'number' || (v >= limit && !Number.isNaN(v));
    case 'maximum':
      return (v) => typeof v !== 'number' || (v <= limit && !Number.isNaN(v));
    case 'exclusiveMinimum':
      return (v) => typeof v !== 'number' || (v > limit && !Number.isNaN(v));
    default:
      return (v) => typeof v !== 'number' || (v < limit && !Number.isNaN(v));
  }
}

function countCheck(key: string, limit: number): PlainCheck {
  switch (key) {
    case 'minLength':
      return (v) => typeof v !== 'string' || codePoints(v) >= limit;
    case 'maxLength':
      return (v) => typeof v !== 'string' || codePoints(v) <= limit;
    case 'minItems':
      return (v) => !Array.isArray(v) || v.length >= limit;
    default:
      return (v) => !Array.isArray(v) || v.length <= limit;
  }
}

/** The check for a whole tool schema (its root must be an object schema to be plain). */
export function plainSchemaCheck(schema: JsonObject): PlainCheck | undefined {
  return plainCheck(schema, true);
}
