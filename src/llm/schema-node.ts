// Converts one schema node (and its subschemas) to a profile's grammar, recording how to read the model's values
// back: strict objects closed and (OpenAI) fully required with null unions, unsupported keywords moved into the
// description, property keys renamed to the provider's charset.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { stableHash } from './names.js';
import type { Profile } from './profiles.js';
import { NAME_MAPS, defineKey } from './refs.js';
import { SchemaRefusal, where } from './refusal.js';
import {
  DROPPED,
  acceptsNull,
  describeKeyword,
  isArraySchema,
  isObjectSchema,
  nullable,
  strictKeywords,
} from './schema-keywords.js';
import { isEmptyShape, type Shape } from './shape.js';

export interface ConvertContext {
  readonly profile: Profile;
  readonly changes: string[];
  /** Objects closed with additionalProperties: false, and optional properties made nullable (reported as totals). */
  closed: number;
  nulled: number;
}

export interface Converted {
  schema: unknown;
  shape: Shape | undefined;
}

const escape = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');
const notStrict = (message: string): SchemaRefusal => new SchemaRefusal(message, true);

/** Provider keys for one object's properties (Anthropic: `^[a-zA-Z0-9_.-]{1,64}$`), unique among siblings. */
function providerKeys(keys: readonly string[], p: Profile): Map<string, string> {
  const mapped = new Map<string, string>();
  if (p.keyPattern === undefined) return mapped;
  const max = p.maxKeyLength ?? 64;
  // "__proto__" is never sent: providers and SDKs parse arguments into plain objects, where it is no property.
  const usable = (key: string): boolean => p.keyPattern?.test(key) === true && key !== '__proto__';
  const taken = new Set(keys.filter(usable));
  for (const key of keys) {
    if (taken.has(key)) continue;
    let candidate = key.replace(/[^a-zA-Z0-9_.-]/g, '_');
    if (candidate === '' || candidate === '__proto__' || candidate.length > max || taken.has(candidate)) {
      candidate = `${candidate.slice(0, max - 9)}_${stableHash(key)}`;
    }
    if (taken.has(candidate))
      throw new SchemaRefusal(`its property keys ${JSON.stringify(key)} cannot be renamed uniquely`);
    taken.add(candidate);
    mapped.set(key, candidate);
  }
  return mapped;
}

/** Merges `allOf` branches that are plain objects into the node (what Pydantic and Zod `.and()` produce). */
export function mergeAllOf(schema: JsonObject): boolean {
  const branches = schema.allOf;
  if (!Array.isArray(branches)) return false;
  const simple = new Set(['type', 'properties', 'required', 'additionalProperties', 'description', 'title']);
  const properties: JsonObject = isJsonObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  let closed = schema.additionalProperties === false;
  for (const branch of branches) {
    if (!isJsonObject(branch) || !Object.keys(branch).every((key) => simple.has(key))) return false;
    if (branch.type !== undefined && branch.type !== 'object') return false;
    for (const [key, value] of Object.entries(isJsonObject(branch.properties) ? branch.properties : {})) {
      if (Object.hasOwn(properties, key) && JSON.stringify(properties[key]) !== JSON.stringify(value))
        return false;
      defineKey(properties, key, value);
    }
    for (const name of Array.isArray(branch.required) ? branch.required : []) required.add(name);
    if (branch.additionalProperties === false) closed = true;
  }
  delete schema.allOf;
  if (branches.length > 0 || Object.keys(properties).length > 0) schema.type ??= 'object';
  schema.properties = properties;
  if (required.size > 0) schema.required = [...required];
  if (closed) schema.additionalProperties = false;
  return true;
}

export function convertNode(node: unknown, pointer: string, ctx: ConvertContext): Converted {
  const p = ctx.profile;
  if (typeof node === 'boolean') {
    if (p.strict && node)
      throw notStrict(`${where(pointer)} accepts any value, which a strict grammar cannot express`);
    return { schema: node, shape: undefined };
  }
  if (!isJsonObject(node)) return { schema: node, shape: undefined };
  const s: JsonObject = { ...node };
  const shape: Shape = {};
  const notes: string[] = [];
  for (const key of DROPPED) delete s[key];

  if (p.strict) strictKeywordsFor(s, pointer, ctx, notes);
  if (isArraySchema(s) && s.items === undefined) {
    s.items = {}; // OpenAI refuses an array without items ("array schema missing items")
    ctx.changes.push(`gave the array at ${where(pointer)} an "items" schema (it had none)`);
  }

  const objectNode = isObjectSchema(s);
  if (isJsonObject(s.properties)) convertProperties(s, shape, pointer, ctx);
  if (objectNode && p.strict) closeObject(s, pointer, ctx);
  else if (isJsonObject(s.additionalProperties) || typeof s.additionalProperties === 'boolean') {
    const converted = convertNode(s.additionalProperties, `${pointer}/additionalProperties`, ctx);
    s.additionalProperties = converted.schema;
    if (converted.shape !== undefined && s.properties === undefined) shape.additional = converted.shape;
  }

  if (s.items !== undefined) {
    if (Array.isArray(s.items)) {
      if (p.strict)
        throw notStrict(`${where(pointer)} lists items as a tuple, which a strict grammar cannot express`);
      s.items = s.items.map((item, index) => convertNode(item, `${pointer}/items/${index}`, ctx).schema);
    } else {
      const converted = convertNode(s.items, `${pointer}/items`, ctx);
      s.items = converted.schema;
      if (converted.shape !== undefined) shape.items = converted.shape;
    }
  }

  for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
    const branches = s[keyword];
    if (!Array.isArray(branches)) continue;
    const converted = branches.map((branch, index) =>
      convertNode(branch, `${pointer}/${keyword}/${index}`, ctx),
    );
    s[keyword] = converted.map((c) => c.schema);
    if (keyword !== 'allOf' && converted.some((c) => c.shape !== undefined)) {
      shape.anyOf = converted.map((c) => c.shape ?? {});
    }
  }

  if (!p.strict) convertOtherSubschemas(s, pointer, ctx);
  if (
    p.strict &&
    s.type === undefined &&
    s.anyOf === undefined &&
    s.enum === undefined &&
    s.const === undefined
  ) {
    if (s.allOf === undefined) {
      throw notStrict(
        `${where(pointer)} accepts any value (it has no type), which a strict grammar cannot express`,
      );
    }
  }
  if (notes.length > 0) {
    const own = typeof s.description === 'string' && s.description !== '' ? `${s.description} ` : '';
    s.description = `${own}(${notes.join('; ')})`;
  }
  if (isEmptyShape(shape)) return { schema: s, shape: undefined };
  if (isJsonObject(s.properties)) shape.declared = new Set(Object.keys(s.properties));
  return { schema: s, shape };
}

/** Strict grammars: oneOf read as anyOf, allOf merged (OpenAI), the rest of what they refuse moved to the description. */
function strictKeywordsFor(s: JsonObject, pointer: string, ctx: ConvertContext, notes: string[]): void {
  const p = ctx.profile;
  if (Array.isArray(s.oneOf)) {
    if (s.anyOf !== undefined) throw notStrict(`${where(pointer)} has both anyOf and oneOf`);
    s.anyOf = s.oneOf;
    delete s.oneOf;
    ctx.changes.push(
      `read oneOf at ${where(pointer)} as anyOf (the server still checks that exactly one matches)`,
    );
  }
  if (Array.isArray(s.allOf) && p.provider === 'openai') {
    if (!mergeAllOf(s)) throw notStrict(`${where(pointer)} uses allOf over schemas that cannot be merged`);
    ctx.changes.push(`merged allOf at ${where(pointer)} into one object`);
  }
  const supported = strictKeywords(p);
  const moved: string[] = [];
  for (const [keyword, value] of Object.entries(s)) {
    if (supported?.has(keyword) === true) continue;
    if (keyword.startsWith('x-')) {
      delete s[keyword]; // an extension annotation (x-mcp-header...): constrains nothing, means nothing to a model
      continue;
    }
    notes.push(describeKeyword(keyword, value));
    moved.push(keyword);
    delete s[keyword];
  }
  if (typeof s.format === 'string' && p.formats?.has(s.format) !== true) {
    notes.push(describeKeyword('format', s.format));
    moved.push('format');
    delete s.format;
  }
  if (p.provider === 'anthropic') {
    if (typeof s.minItems === 'number' && s.minItems > 1) {
      notes.push(describeKeyword('minItems', s.minItems));
      moved.push('minItems');
      s.minItems = 1;
    }
    if (Array.isArray(s.enum) && s.enum.some((value) => typeof value === 'object' && value !== null)) {
      throw notStrict(
        `${where(pointer)} has an enum of objects or arrays, which Anthropic's strict grammar refuses`,
      );
    }
  }
  if (moved.length > 0)
    ctx.changes.push(`moved ${moved.join(', ')} at ${where(pointer)} into the description`);
}

function convertProperties(s: JsonObject, shape: Shape, pointer: string, ctx: ConvertContext): void {
  const p = ctx.profile;
  const properties = s.properties as JsonObject; // checked by the caller
  const keys = Object.keys(properties);
  const renamed = providerKeys(keys, p);
  const required = new Set(
    Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : [],
  );
  const allRequired = p.strict && p.provider === 'openai';
  const out: JsonObject = {};
  let nulled = 0;
  for (const key of keys) {
    const providerKey = renamed.get(key) ?? key;
    if (providerKey !== key) {
      (shape.keys ??= new Map()).set(providerKey, key);
      ctx.changes.push(
        `renamed property ${JSON.stringify(key)} at ${where(pointer)} to ${JSON.stringify(providerKey)}`,
      );
    }
    const converted = convertNode(properties[key], `${pointer}/properties/${escape(key)}`, ctx);
    let schema = converted.schema;
    if (!required.has(key)) {
      if (allRequired && !acceptsNull(schema)) {
        schema = nullable(isJsonObject(schema) ? schema : {});
        (shape.nulled ??= new Set()).add(providerKey);
        nulled++;
      }
    }
    if (converted.shape !== undefined) (shape.properties ??= new Map()).set(providerKey, converted.shape);
    Object.defineProperty(out, providerKey, {
      value: schema,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  s.properties = out;
  if (allRequired) s.required = Object.keys(out);
  else if (required.size > 0) s.required = [...required].map((key) => renamed.get(key) ?? key);
  ctx.nulled += nulled;
}

/** Strict: every object closed (additionalProperties: false) and with its properties listed. */
function closeObject(s: JsonObject, pointer: string, ctx: ConvertContext): void {
  const hasProperties = isJsonObject(s.properties) && Object.keys(s.properties).length > 0;
  const extra = s.additionalProperties;
  if (!hasProperties && extra !== false) {
    if (pointer !== '' || extra !== undefined) {
      throw notStrict(
        `${where(pointer)} is a free-form object (any keys), which a strict grammar cannot express`,
      );
    }
    ctx.changes.push('the tool takes no arguments in strict mode (its root object lists no properties)');
  } else if (extra !== false) {
    ctx.closed++;
  }
  s.type = 'object';
  s.properties ??= {};
  if (ctx.profile.provider === 'openai') s.required ??= [];
  s.additionalProperties = false;
}

/** Non-strict: subschemas under other keywords still get the provider's key rules (the server checks semantics). */
function convertOtherSubschemas(s: JsonObject, pointer: string, ctx: ConvertContext): void {
  for (const keyword of [
    'not',
    'if',
    'then',
    'else',
    'contains',
    'propertyNames',
    'unevaluatedItems',
    'unevaluatedProperties',
  ]) {
    if (isJsonObject(s[keyword])) s[keyword] = convertNode(s[keyword], `${pointer}/${keyword}`, ctx).schema;
  }
  if (Array.isArray(s.prefixItems)) {
    s.prefixItems = s.prefixItems.map(
      (item, index) => convertNode(item, `${pointer}/prefixItems/${index}`, ctx).schema,
    );
  }
  for (const keyword of NAME_MAPS) {
    if (keyword === 'properties' || !isJsonObject(s[keyword])) continue;
    const map: JsonObject = {};
    for (const [name, child] of Object.entries(s[keyword] as JsonObject)) {
      map[name] = convertNode(child, `${pointer}/${keyword}/${escape(name)}`, ctx).schema;
    }
    s[keyword] = map;
  }
}
