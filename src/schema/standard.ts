// Standard Schema tools (Zod 4, Valibot, ArkType…): the library validates, its JSON Schema export goes on the wire.

import type { StandardSchemaV1 } from '@standard-schema/spec';
import { isJsonObject } from '../jsonrpc/index.js';
import { limitIssues } from './format.js';
import { pointerFrom } from './pointer.js';
import {
  SchemaError,
  type CompiledSchema,
  type SchemaRole,
  type StandardSchemaWithJson,
  type ValidationIssue,
  type ValidationResult,
} from './types.js';
import { toWireSchema } from './wire-schema.js';

/** True for anything carrying `~standard` (ArkType's schemas are functions, so functions count too). */
export function isStandardSchema(input: unknown): input is StandardSchemaV1 {
  return (typeof input === 'object' || typeof input === 'function') && input !== null && '~standard' in input;
}

const keyOf = (segment: PropertyKey | StandardSchemaV1.PathSegment): string | number => {
  const key = typeof segment === 'object' ? segment.key : segment;
  return typeof key === 'symbol' ? (key.description ?? '') : key;
};

const toIssue = (issue: StandardSchemaV1.Issue): ValidationIssue => ({
  path: pointerFrom((issue.path ?? []).map(keyOf)),
  message: issue.message,
});

function toResult(result: StandardSchemaV1.Result<unknown>): ValidationResult<unknown> {
  // The spec: a falsy `issues` means success.
  if (!result.issues) return { ok: true, value: result.value };
  return { ok: false, issues: limitIssues(result.issues.map(toIssue)) };
}

// Exporting JSON Schema can be costly and one schema object is often shared by many tools.
const cache = new WeakMap<object, Partial<Record<SchemaRole, CompiledSchema>>>();

function exportJsonSchema(
  schema: StandardSchemaV1,
  role: SchemaRole,
  subject: string,
): Record<string, unknown> {
  const props = schema['~standard'];
  const vendor = String(props.vendor);
  // Read as possibly absent: the static type promises jsonSchema, but plain Standard Schemas do not have it.
  const converter = (props as Partial<StandardSchemaWithJson['~standard']>).jsonSchema;
  if (typeof converter?.input !== 'function' || typeof converter.output !== 'function') {
    throw new SchemaError(
      `${subject} is a ${vendor} schema, but ${vendor} cannot export JSON Schema (~standard.jsonSchema is missing); ` +
        'pass a JSON Schema object instead',
    );
  }
  let exported: unknown;
  try {
    exported = converter[role]({ target: 'draft-2020-12' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new SchemaError(`${subject}: ${vendor} could not export it as JSON Schema: ${reason}`);
  }
  if (!isJsonObject(exported)) {
    throw new SchemaError(`${subject}: ${vendor} exported a JSON Schema that is not an object`);
  }
  return exported;
}

/** Compiles a Standard Schema for one role: `.input()` JSON Schema for arguments, `.output()` for results. */
export function compileStandardSchema(
  schema: StandardSchemaV1,
  role: SchemaRole,
  subject: string,
): CompiledSchema {
  const roles = cache.get(schema) ?? {};
  const known = roles[role];
  if (known !== undefined) return known;
  const wire = toWireSchema(exportJsonSchema(schema, role, subject), subject).schema;
  const type = wire['type'];
  const props = schema['~standard'];
  const compiled: CompiledSchema = Object.freeze({
    jsonSchema: wire,
    rootType: typeof type === 'string' ? type : undefined,
    validate(value: unknown) {
      const result = props.validate(value);
      // Any thenable counts, not only this realm's Promise.
      return 'then' in result ? Promise.resolve(result).then(toResult) : toResult(result);
    },
  });
  roles[role] = compiled;
  cache.set(schema, roles);
  return compiled;
}
