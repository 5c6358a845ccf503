// JSON Schema dialects: which one a schema's `$schema` names, and one lazily built Ajv instance per dialect.
// Ajv itself is loaded on first use: a server whose tools all use Zod (or another Standard Schema) never pays the
// ~40 ms its hundred-odd CommonJS files cost at startup. require() keeps compileSchema synchronous.

import { createRequire } from 'node:module';
import type * as AjvPackage from 'ajv';
import type { AnySchemaObject, ValidateFunction } from 'ajv';
import type * as Ajv2019Package from 'ajv/dist/2019.js';
import type * as Ajv2020Package from 'ajv/dist/2020.js';
import type * as FormatsPackage from 'ajv-formats';
import { SchemaError } from './types.js';

type AjvModule = typeof AjvPackage;
type Ajv2019Module = typeof Ajv2019Package;
type Ajv2020Module = typeof Ajv2020Package;
type FormatsModule = typeof FormatsPackage.default; // module.exports, as require() returns it

const require = createRequire(import.meta.url);
let ajvModule: AjvModule | undefined;

/** The ajv package, loaded the first time a raw JSON Schema is compiled. */
export const loadAjv = (): AjvModule => (ajvModule ??= require('ajv') as AjvModule);

export type Dialect = '2020-12' | '2019-09' | 'draft-07';

// Keyed by the URI without its scheme and trailing '#': http and https, with or without '#', are all accepted.
const DIALECTS: Readonly<Record<string, Dialect>> = {
  'json-schema.org/draft/2020-12/schema': '2020-12',
  'json-schema.org/draft/2019-09/schema': '2019-09',
  'json-schema.org/draft-07/schema': 'draft-07',
};

/** The dialect a schema's `$schema` names (2020-12 when absent); throws SchemaError for any other dialect. */
export function dialectOf(schemaUri: unknown, subject: string): Dialect {
  if (schemaUri === undefined) return '2020-12';
  const key = typeof schemaUri === 'string' ? schemaUri.replace(/^https?:\/\//, '').replace(/#$/, '') : '';
  const dialect = Object.hasOwn(DIALECTS, key) ? DIALECTS[key] : undefined;
  if (dialect === undefined) {
    throw new SchemaError(
      `${subject} uses an unsupported JSON Schema dialect ${typeof schemaUri === 'string' ? schemaUri : JSON.stringify(schemaUri)}; ` +
        'toolwire supports 2020-12 (default), 2019-09 and draft-07',
    );
  }
  return dialect;
}

/** The one method toolwire uses; all three Ajv classes have it. */
export interface SchemaCompiler {
  compile(schema: AnySchemaObject): ValidateFunction;
}

const OPTIONS = {
  allErrors: true,
  strict: false, // tool schemas carry annotations such as x-mcp-header, which strict mode refuses
  allowUnionTypes: true,
  validateSchema: true,
  verbose: true, // puts the offending value on each error, for "got …" in messages
  ownProperties: true, // so that a required "toString" is not satisfied by Object.prototype
  addUsedSchema: false, // two tools may share an $id; nothing is registered by id, so they cannot clash
  logger: false as const, // an unknown format is ignored, as 2020-12 allows, without a console line per schema
  // No loadSchema: compile never fetches, and an unknown reference is a compile error.
} as const;

const compilers = new Map<Dialect, SchemaCompiler>();

const create = (dialect: Dialect) => {
  switch (dialect) {
    case '2020-12':
      return new (require('ajv/dist/2020.js') as Ajv2020Module).Ajv2020(OPTIONS);
    case '2019-09':
      return new (require('ajv/dist/2019.js') as Ajv2019Module).Ajv2019(OPTIONS);
    case 'draft-07':
      return new (loadAjv().Ajv)(OPTIONS);
  }
};

export function compilerFor(dialect: Dialect): SchemaCompiler {
  let compiler = compilers.get(dialect);
  if (compiler === undefined) {
    const ajv = create(dialect);
    // ajv-formats is CommonJS: module.exports is the plugin, and so is its `default`.
    (require('ajv-formats') as FormatsModule).default(ajv);
    compiler = ajv;
    compilers.set(dialect, compiler);
  }
  return compiler;
}
