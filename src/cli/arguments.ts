// Tool arguments from the command line: one JSON object, or key=value pairs coerced by the tool's input schema.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { UsageError } from './errors.js';
import { closest } from './suggest.js';
import { terminalLine } from './terminal-text.js';

const typeOf = (schema: unknown): string | undefined => {
  if (!isJsonObject(schema)) return undefined;
  const type = schema.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type)) return type.find((t) => t !== 'null') as string | undefined;
  return undefined;
};

function coerce(key: string, raw: string, schema: unknown): unknown {
  const type = typeOf(schema);
  switch (type) {
    case 'number':
    case 'integer': {
      const value = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(value) || (type === 'integer' && !Number.isInteger(value))) {
        throw new UsageError(
          `argument ${key} must be ${type === 'integer' ? 'an integer' : 'a number'}, got ${JSON.stringify(raw)}`,
        );
      }
      return value;
    }
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new UsageError(`argument ${key} must be true or false, got ${JSON.stringify(raw)}`);
    case 'array':
    case 'object':
      try {
        return JSON.parse(raw) as unknown;
      } catch {
        throw new UsageError(
          `argument ${key} must be JSON (${type}), for example ${key}=${type === 'array' ? '["a","b"]' : '{"k":1}'}`,
        );
      }
    case 'null':
      return null;
    default:
      return raw; // strings, and arguments the schema does not describe
  }
}

/**
 * A key=value key the schema does not declare: refused when it is a near miss of a declared one (a typo the server
 * would otherwise answer with "missing expression" or, worse, ignore) or when the schema allows no other keys.
 */
function checkKey(
  key: string,
  inputSchema: JsonObject | undefined,
  properties: JsonObject,
  tool: string,
): void {
  const declared = Object.keys(properties);
  if (Object.hasOwn(properties, key) || declared.length === 0 || inputSchema?.patternProperties !== undefined)
    return;
  const near = closest(key, declared);
  if (near === undefined && inputSchema?.additionalProperties !== false) return;
  const names = declared.map(terminalLine);
  throw new UsageError(
    `tool "${tool}" has no argument ${JSON.stringify(key)}${near === undefined ? '' : ` (did you mean "${terminalLine(near)}"?)`}; ` +
      `its arguments: ${names.join(', ')}`,
  );
}

/** `[JSON]` or `k=v …` → the arguments object. Anything else is a usage error that shows the right form. */
export function parseToolArguments(
  words: readonly string[],
  inputSchema: JsonObject | undefined,
  tool: string,
): JsonObject {
  if (words.length === 0) return {};
  const first = words[0] as string;
  if (words.length === 1 && first.trimStart().startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(first);
    } catch (error) {
      throw new UsageError(`the arguments are not valid JSON: ${(error as Error).message}`);
    }
    if (!isJsonObject(value)) throw new UsageError('the arguments must be one JSON object, like {"a": 1}');
    return value;
  }
  const properties = isJsonObject(inputSchema?.properties) ? inputSchema.properties : {};
  const args: JsonObject = {};
  for (const word of words) {
    const equals = word.indexOf('=');
    if (equals <= 0)
      throw new UsageError(`expected key=value or one JSON object, got ${JSON.stringify(word)}`);
    const key = word.slice(0, equals);
    if (Object.hasOwn(args, key)) throw new UsageError(`argument ${key} is given twice`);
    checkKey(key, inputSchema, properties, tool);
    args[key] = coerce(key, word.slice(equals + 1), properties[key]);
  }
  return args;
}
