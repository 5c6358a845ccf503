// Tool schemas: compiling JSON Schema and Standard Schemas once, validating with model-friendly issues, x-mcp-header.

export { compileSchema } from './compile.js';
export { compiledValidatorCount } from './json-schema.js';
export { isStandardSchema } from './standard.js';
export { formatIssues, MAX_ISSUES } from './format.js';
export { displayPath } from './pointer.js';
export { SCHEMA_LIMITS } from './bounds.js';
export { collectXMcpHeaders, validateXMcpHeaders, X_MCP_HEADER, type XMcpHeader } from './x-mcp-header.js';
export {
  SchemaError,
  type CompileSchemaOptions,
  type CompiledSchema,
  type InferSchema,
  type SchemaInput,
  type SchemaRole,
  type StandardSchemaWithJson,
  type ValidationIssue,
  type ValidationResult,
} from './types.js';
