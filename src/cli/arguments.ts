// Tool arguments from the command line: one JSON object, or key=value pairs coerced by the tool's input schema.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { UsageError } from './errors.js';

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

/** `[JSON]` or `k=v …` → the arguments object. Anything else is a usage error that shows the right form. */
export function parseToolArguments(
  words: readonly string[],
  inputSchema: JsonObject | undefined,
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
    args[key] = coerce(key, word.slice(equals + 1), properties[key]);
  }
  return args;
}
