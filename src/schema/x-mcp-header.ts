// x-mcp-header (MCP 2026-07-28): which annotations are valid, and which arguments a client mirrors into headers.

import type { JsonObject } from '../jsonrpc/index.js';
import { preview } from './issues.js';
import { SchemaError } from './types.js';
import { forEachSubschema } from './walk.js';

export const X_MCP_HEADER = 'x-mcp-header';

/** One argument mirrored into an `Mcp-Param-<header>` HTTP header. */
export interface XMcpHeader {
  /** The annotation's value: the header is `Mcp-Param-` followed by it. */
  header: string;
  /** Property names from the root of the arguments object to the argument. */
  path: string[];
  type: 'string' | 'integer' | 'boolean';
}

// RFC 9110 token: 1*tchar. This also excludes control characters, space, colon and non-ASCII.
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const HEADER_TYPES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);

const where = (pointer: string): string => (pointer === '' ? 'the root' : pointer);

interface Scan {
  headers: XMcpHeader[];
  problem: string | undefined;
}

function scan(jsonSchema: JsonObject): Scan {
  const headers: XMcpHeader[] = [];
  const firstSeen = new Map<string, { header: string; pointer: string }>();
  let problem: string | undefined;
  forEachSubschema(jsonSchema, ({ schema, pointer, propertyPath }) => {
    if (problem !== undefined || !Object.hasOwn(schema, X_MCP_HEADER)) return;
    const value = schema[X_MCP_HEADER];
    const type = schema['type'];
    if (typeof value !== 'string' || value === '') {
      problem = `the annotation at ${where(pointer)} must be a non-empty string (got ${preview(value)})`;
    } else if (!TOKEN.test(value)) {
      problem =
        `${preview(value)} at ${where(pointer)} is not a valid header name: it must be an RFC 9110 token ` +
        "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, control or non-ASCII characters)";
    } else if (propertyPath === undefined || propertyPath.length === 0) {
      problem =
        `${preview(value)} at ${where(pointer)} is not statically reachable: it must be on a property ` +
        'reached from the root through "properties" only (not items, oneOf, $defs, $ref targets…)';
    } else if (!HEADER_TYPES.has(type)) {
      problem =
        `${preview(value)} at ${where(pointer)} is on a property of type ${type === undefined ? '(none)' : preview(type)}; ` +
        'only "string", "integer" and "boolean" properties can be mirrored into headers';
    } else {
      const earlier = firstSeen.get(value.toLowerCase());
      if (earlier !== undefined) {
        problem =
          `${preview(value)} at ${where(pointer)} duplicates ${preview(earlier.header)} at ${where(earlier.pointer)} ` +
          '(header names are case-insensitive)';
      } else {
        firstSeen.set(value.toLowerCase(), { header: value, pointer });
        // HEADER_TYPES has just admitted `type`, so it is one of the three names.
        headers.push({ header: value, path: [...propertyPath], type: type as XMcpHeader['type'] });
      }
    }
  });
  return { headers, problem };
}

/**
 * Scans of frozen schemas (compiled ones are: see wire-schema.ts), which cannot change: registering a tool asks twice
 * (validate, then collect), and tools sharing a compiled schema ask once between them.
 */
const scans = new WeakMap<JsonObject, Scan>();

function scanOnce(jsonSchema: JsonObject): Scan {
  let result = scans.get(jsonSchema);
  if (result === undefined) {
    result = scan(jsonSchema);
    if (Object.isFrozen(jsonSchema)) {
      Object.freeze(result.headers); // shared by every tool of this schema
      scans.set(jsonSchema, result);
    }
  }
  return result;
}

/** Undefined when every x-mcp-header annotation in the schema is valid; otherwise the first problem found. */
export const validateXMcpHeaders = (jsonSchema: JsonObject): string | undefined =>
  scanOnce(jsonSchema).problem;

/**
 * The mirrored arguments of a valid schema, in document order. Throws on an invalid one (check with
 * validateXMcpHeaders first): a partial list would send some headers and silently drop others.
 */
export function collectXMcpHeaders(jsonSchema: JsonObject): XMcpHeader[] {
  const { headers, problem } = scanOnce(jsonSchema);
  if (problem !== undefined) throw new SchemaError(`invalid x-mcp-header: ${problem}`);
  return headers;
}
