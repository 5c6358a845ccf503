// The contract between tool definitions and schema libraries: one compiled form, whatever the source.

import type { StandardSchemaV1, StandardJSONSchemaV1 } from '@standard-schema/spec';
import type { JsonObject } from '../jsonrpc/index.js';

/** One failed check, with the JSON Pointer of the offending value ("" for the root). */
export interface ValidationIssue {
  path: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** A schema compiled once, at registration: its wire JSON Schema and a validator. */
export interface CompiledSchema<T = unknown> {
  /** The JSON Schema sent in tools/list (inputSchema / outputSchema). */
  readonly jsonSchema: JsonObject;
  /** The JSON type of the root ("object" for every input schema), when the schema says so. */
  readonly rootType: string | undefined;
  /** Validates a value; returns the (possibly transformed) value or the issues. May be async for Standard Schemas. */
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
}

/** A Standard Schema (Zod 4, Valibot, ArkType…) that can also export JSON Schema. */
export type StandardSchemaWithJson<Input = unknown, Output = Input> = StandardSchemaV1<Input, Output> &
  StandardJSONSchemaV1<Input, Output>;

/** What a tool author may give as a schema: a Standard Schema with JSON Schema export, or raw JSON Schema. */
export type SchemaInput = StandardSchemaWithJson | JsonObject;

/** The TypeScript type a schema validates to: the Standard Schema's output type, or a plain object for raw JSON Schema. */
export type InferSchema<S> =
  S extends StandardSchemaV1<unknown, infer Output> ? Output : Record<string, unknown>;

/** Which side of a tool a schema describes: its arguments (inputSchema) or its structured result (outputSchema). */
export type SchemaRole = 'input' | 'output';

export interface CompileSchemaOptions {
  role: SchemaRole;
  /** Who the schema belongs to, for error messages, e.g. `tool "calculate_sum"`. */
  owner: string;
  /**
   * A peer's schema (a server's, seen by a client): refused unless every `pattern` in it is shown to run in linear
   * time (C5), since it would run on this process's event loop. A tool author's own schemas are not checked.
   */
  untrusted?: boolean;
}

/** Thrown at registration (never at call time) when a schema cannot be used. */
export class SchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SchemaError';
  }
}
