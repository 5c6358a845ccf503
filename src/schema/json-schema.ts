// Raw JSON Schema tools: compiled by Ajv once per distinct schema, however many tools share it.

import type { ValidateFunction } from 'ajv';
import type { JsonObject } from '../jsonrpc/index.js';
import { compilerFor, dialectOf, loadAjv } from './dialect.js';
import { limitIssues } from './format.js';
import { plainSchemaCheck, type PlainCheck } from './plain.js';
import { issuesFromAjv } from './issues.js';
import { SchemaError, type CompiledSchema, type ValidationResult } from './types.js';
import { toWireSchema } from './wire-schema.js';

// Two caches: by object (no work at all for a shared constant) and by JSON text (equal schemas built apart).
// A schema object is taken to be immutable once compiled: a later mutation is not seen through `byObject`.
const byObject = new WeakMap<object, CompiledSchema>();
const byText = new Map<string, CompiledSchema>();
let compiled = 0;

/** How many validators (Ajv's or plain.ts's) have been built in this process: a diagnostic for the caches. */
export const compiledValidatorCount = (): number => compiled;

function ajvCompile(schema: JsonObject, subject: string): ValidateFunction {
  const compiler = compilerFor(dialectOf(schema['$schema'], subject));
  // The instance already is the right dialect. Without $schema, Ajv needs no registered meta-schema under that
  // exact URI (it knows "http://…draft-07/schema#" but not the https spelling). The wire copy keeps $schema.
  const { $schema: _dialect, ...rest } = schema;
  try {
    return compiler.compile(rest);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (error instanceof loadAjv().MissingRefError) {
      throw new SchemaError(`${subject} has a $ref that cannot be resolved: ${reason}`);
    }
    throw new SchemaError(`${subject} is not a valid JSON Schema: ${reason}`);
  }
}

/**
 * The compiled schema. Given a plain check (plain.ts), that decides, and Ajv is compiled on its first refusal, for
 * Ajv's issues (and Ajv's verdict, should the two ever differ); without one, Ajv is compiled now, at registration.
 */
function build(wire: JsonObject, subject: string, check: PlainCheck | undefined): CompiledSchema {
  const type = wire['type'];
  let ajv = check === undefined ? ajvCompile(wire, subject) : undefined;
  return Object.freeze({
    jsonSchema: wire,
    rootType: typeof type === 'string' ? type : undefined,
    validate(value: unknown): ValidationResult<unknown> {
      if (check?.(value) === true) return { ok: true, value };
      ajv ??= ajvCompile(wire, subject);
      if (ajv(value)) return { ok: true, value };
      return { ok: false, issues: limitIssues(issuesFromAjv(ajv.errors ?? [])) };
    },
  });
}

/** Compiles (or finds in the cache) a raw JSON Schema; `subject` names it in errors, e.g. `inputSchema of tool "x"`. */
export function compileJsonSchema(schema: JsonObject, subject: string): CompiledSchema {
  const known = byObject.get(schema);
  if (known !== undefined) return known;
  const wire = toWireSchema(schema, subject);
  let result = byText.get(wire.text);
  if (result === undefined) {
    dialectOf(wire.schema['$schema'], subject); // an unsupported dialect is refused before anything else
    result = build(wire.schema, subject, plainSchemaCheck(wire.schema));
    compiled++;
    byText.set(wire.text, result);
  }
  byObject.set(schema, result);
  return result;
}
