// What each profile's schema grammar takes, keyword by keyword, and small helpers on schema nodes.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { Profile } from './profiles.js';

/** OpenAI strict ("Supported schemas"): types, anyOf, and the listed string, number and array properties. */
const OPENAI_STRICT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'description',
  'title',
  'pattern',
  'format',
  'multipleOf',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'minItems',
  'maxItems',
]);

/**
 * Anthropic strict (structured outputs, "JSON Schema limitations"): basic types, enum, const, anyOf, allOf,
 * required, additionalProperties: false, default, formats, pattern and minItems 0 or 1. No numeric bounds, no
 * string-length bounds, no maxItems.
 */
const ANTHROPIC_STRICT = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'enum',
  'const',
  'anyOf',
  'allOf',
  'description',
  'title',
  'default',
  'pattern',
  'format',
  'minItems',
]);

/** Keywords a strict grammar takes at all; undefined when the profile is not strict (anything goes). */
export const strictKeywords = (p: Profile): ReadonlySet<string> | undefined =>
  !p.strict ? undefined : p.provider === 'openai' ? OPENAI_STRICT : ANTHROPIC_STRICT;

/** Identifiers and notes that mean nothing once $refs are inlined, and that some providers refuse. */
export const DROPPED = ['$schema', '$id', '$anchor', '$dynamicAnchor', '$comment', '$vocabulary'] as const;

export const COMBINATORS = ['anyOf', 'oneOf', 'allOf', 'not', 'if', 'then', 'else'] as const;

export const typesOf = (schema: JsonObject): string[] =>
  typeof schema.type === 'string'
    ? [schema.type]
    : Array.isArray(schema.type)
      ? schema.type.filter((t): t is string => typeof t === 'string')
      : [];

export const isObjectSchema = (schema: JsonObject): boolean =>
  typesOf(schema).includes('object') ||
  (schema.type === undefined &&
    (isJsonObject(schema.properties) ||
      schema.additionalProperties !== undefined ||
      Array.isArray(schema.required)));

export const isArraySchema = (schema: JsonObject): boolean => typesOf(schema).includes('array');

/** Whether a (converted) schema already lets null through. */
export function acceptsNull(schema: unknown): boolean {
  if (schema === true) return true;
  if (!isJsonObject(schema)) return false;
  if (typesOf(schema).includes('null')) return true;
  if (schema.const === null) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  return Array.isArray(schema.anyOf) && schema.anyOf.some(acceptsNull);
}

/** The schema, widened to take null too: the way strict OpenAI spells an optional property. */
export function nullable(schema: JsonObject): JsonObject {
  const types = typesOf(schema);
  if (types.length > 0 && schema.const === undefined) {
    const widened: JsonObject = { ...schema, type: [...types, 'null'] };
    if (Array.isArray(schema.enum)) widened.enum = [...schema.enum, null];
    return widened;
  }
  if (Array.isArray(schema.anyOf) && Object.keys(schema).every((k) => k === 'anyOf' || k === 'description')) {
    return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  }
  return { anyOf: [schema, { type: 'null' }] };
}

/** A keyword and its value as a short note for a description (what the grammar cannot enforce, the model reads). */
export function describeKeyword(keyword: string, value: unknown): string {
  let text = JSON.stringify(value) ?? String(value);
  if (text.length > 160) text = `${text.slice(0, 157)}...`;
  switch (keyword) {
    case 'default':
      return `default: ${text}`;
    case 'examples':
      return `examples: ${text}`;
    default:
      return `${keyword}: ${text}`;
  }
}
