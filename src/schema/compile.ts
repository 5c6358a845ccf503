// compileSchema: the one entry point that turns whatever a tool author gave into a CompiledSchema, at registration.

import { isJsonObject } from '../jsonrpc/index.js';
import { jsonTypeOf } from './issues.js';
import { compileJsonSchema } from './json-schema.js';
import { unsafePattern } from './pattern/index.js';
import { compileStandardSchema, isStandardSchema } from './standard.js';
import {
  SchemaError,
  type CompileSchemaOptions,
  type CompiledSchema,
  type InferSchema,
  type SchemaInput,
} from './types.js';

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (!isJsonObject(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * Compiles a tool's inputSchema or outputSchema once. Throws SchemaError, naming `owner`, when the schema cannot
 * be used: unsupported dialect, external $ref, unresolvable $ref, over the size limits, invalid JSON Schema,
 * a Standard Schema without JSON Schema export, or (for inputs) a root that is not `type: "object"`.
 * Does not check x-mcp-header annotations: see validateXMcpHeaders.
 */
export function compileSchema<S extends SchemaInput>(
  input: S,
  options: CompileSchemaOptions,
): CompiledSchema<InferSchema<S>> {
  const subject = `${options.role}Schema of ${options.owner}`;
  if (options.untrusted === true) {
    const unsafe = unsafePattern(input);
    if (unsafe !== undefined) throw new SchemaError(`${subject} has a ${unsafe}`);
  }
  let compiled: CompiledSchema;
  if (isStandardSchema(input)) compiled = compileStandardSchema(input, options.role, subject);
  else if (isPlainObject(input)) compiled = compileJsonSchema(input, subject);
  else {
    const got = isJsonObject(input) ? 'an instance of a class' : jsonTypeOf(input);
    throw new SchemaError(`${subject} must be a JSON Schema object or a Standard Schema (got ${got})`);
  }
  if (options.role === 'input' && compiled.rootType !== 'object') {
    throw new SchemaError(`${subject} must have type "object" at the root (MCP requires it)`);
  }
  // The validator enforces the schema S describes, which is the type InferSchema<S> names.
  return compiled as CompiledSchema<InferSchema<S>>;
}
