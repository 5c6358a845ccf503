// Turns Ajv's errors into short, specific issues that a language model can act on to fix its arguments.

import type { ErrorObject } from 'ajv';
import { appendPointer } from './pointer.js';
import type { ValidationIssue } from './types.js';

/** The JSON type of a value as a message names it; whole numbers are "integer". */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

const PREVIEW_CHARS = 60;
const MAX_LISTED_VALUES = 10;

/** A value as JSON, cut short: messages echo what was sent, not a whole document. */
export function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > PREVIEW_CHARS ? `${text.slice(0, PREVIEW_CHARS)}…` : text;
}

function listValues(values: unknown): string {
  if (!Array.isArray(values)) return preview(values);
  const shown = values.slice(0, MAX_LISTED_VALUES).map(preview).join(', ');
  return values.length > MAX_LISTED_VALUES ? `${shown}, … (${values.length} values)` : shown;
}

/** "string", "string or null", "string, integer or boolean". */
function orList(names: unknown): string {
  const list = Array.isArray(names) ? names.map(String) : String(names).split(',');
  return list.length <= 1 ? list.join('') : `${list.slice(0, -1).join(', ')} or ${list.at(-1) ?? ''}`;
}

const plural = (count: unknown, noun: string): string => `${String(count)} ${noun}${count === 1 ? '' : 's'}`;

const sizeOf = (data: unknown): number => {
  if (typeof data === 'string') return [...data].length; // code points, as JSON Schema counts them
  if (Array.isArray(data)) return data.length;
  return typeof data === 'object' && data !== null ? Object.keys(data).length : 0;
};

/** The message for one Ajv error, and the pointer it is about (a missing or extra property is named itself). */
function describe(error: ErrorObject): ValidationIssue {
  // Ajv types params loosely; reading them as unknown keeps every use narrowed.
  const params: Record<string, unknown> = error.params;
  const at = error.instancePath;
  const data: unknown = error.data;
  const got = ` (got ${preview(data)})`;
  const name = (key: string): string => String(params[key]);
  switch (error.keyword) {
    case 'required':
      return { path: appendPointer(at, name('missingProperty')), message: 'is required but missing' };
    case 'dependentRequired':
    case 'dependencies':
      return {
        path: appendPointer(at, name('missingProperty')),
        message: `is required when ${JSON.stringify(params['property'])} is present`,
      };
    case 'additionalProperties':
      return {
        path: appendPointer(at, name('additionalProperty')),
        message: 'is not allowed (unknown property)',
      };
    case 'unevaluatedProperties':
      return {
        path: appendPointer(at, name('unevaluatedProperty')),
        message: 'is not allowed (unknown property)',
      };
    case 'propertyNames':
      return {
        path: at,
        message: `has a property name that is not allowed: ${JSON.stringify(params['propertyName'])}`,
      };
    case 'type':
      return { path: at, message: `must be ${orList(params['type'])}, got ${jsonTypeOf(data)}` };
    case 'enum':
      return { path: at, message: `must be one of ${listValues(params['allowedValues'])}${got}` };
    case 'const':
      return { path: at, message: `must be ${preview(params['allowedValue'])}${got}` };
    case 'pattern':
      return { path: at, message: `must match the pattern /${name('pattern')}/` };
    case 'format':
      return { path: at, message: `must be a valid ${name('format')}${got}` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { path: at, message: `must be ${name('comparison')} ${name('limit')}${got}` };
    case 'multipleOf':
      return { path: at, message: `must be a multiple of ${name('multipleOf')}${got}` };
    case 'minLength':
      return {
        path: at,
        message: `must have at least ${plural(params['limit'], 'character')} (got ${sizeOf(data)})`,
      };
    case 'maxLength':
      return {
        path: at,
        message: `must have at most ${plural(params['limit'], 'character')} (got ${sizeOf(data)})`,
      };
    case 'minItems':
      return {
        path: at,
        message: `must have at least ${plural(params['limit'], 'item')} (got ${sizeOf(data)})`,
      };
    case 'maxItems':
    case 'additionalItems':
    case 'unevaluatedItems':
      return {
        path: at,
        message: `must have at most ${plural(params['limit'], 'item')} (got ${sizeOf(data)})`,
      };
    case 'minProperties':
      return {
        path: at,
        message: `must have at least ${plural(params['limit'], 'property')} (got ${sizeOf(data)})`,
      };
    case 'maxProperties':
      return {
        path: at,
        message: `must have at most ${plural(params['limit'], 'property')} (got ${sizeOf(data)})`,
      };
    case 'uniqueItems':
      return {
        path: at,
        message: `must not contain duplicates (items ${name('j')} and ${name('i')} are equal)`,
      };
    case 'contains':
      return {
        path: at,
        message:
          params['maxContains'] === undefined
            ? `must contain at least ${plural(params['minContains'], 'item')} matching the "contains" schema`
            : `must contain ${name('minContains')} to ${name('maxContains')} items matching the "contains" schema`,
      };
    case 'oneOf':
      return {
        path: at,
        message:
          params['passingSchemas'] === null
            ? 'must match exactly one of the allowed shapes (oneOf), but matches none; see the other messages here'
            : 'must match exactly one of the allowed shapes (oneOf), but matches more than one',
      };
    case 'anyOf':
      return {
        path: at,
        message: 'must match at least one of the allowed shapes (anyOf); see the other messages here',
      };
    case 'not':
      return { path: at, message: 'must not match the schema under "not"' };
    case 'if':
      return {
        path: at,
        message: `must also match the "${name('failingKeyword')}" schema of an if/then/else rule`,
      };
    case 'false schema':
      return { path: at, message: 'is not allowed here' };
    default:
      return { path: at, message: error.message ?? `fails the "${error.keyword}" rule` };
  }
}

/** Every Ajv error as an issue, in Ajv's order; deduplicating and capping happen in limitIssues. */
export const issuesFromAjv = (errors: readonly ErrorObject[]): ValidationIssue[] => errors.map(describe);
