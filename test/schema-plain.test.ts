// Plain JSON Schemas checked without Ajv (src/schema/plain.ts): Ajv is the outside truth. On generated schemas of
// the plain keywords and generated values, the verdict must be Ajv's (configured as the server configures it); the
// issues of a refused value are Ajv's; and a server that only ever sees valid values never loads Ajv.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { compileSchema } from '../src/schema/index.js';
import { compilerFor, type Dialect } from '../src/schema/dialect.js';
import { plainSchemaCheck } from '../src/schema/plain.js';
import type { JsonObject } from '../src/jsonrpc/index.js';

const NAMES = ['a', 'b', 'c', 'toString', 'x y'];
const TYPES = ['object', 'array', 'string', 'number', 'integer', 'boolean', 'null'];
const DIALECTS: Record<Dialect, string> = {
  '2020-12': 'https://json-schema.org/draft/2020-12/schema',
  '2019-09': 'https://json-schema.org/draft/2019-09/schema',
  'draft-07': 'http://json-schema.org/draft-07/schema#',
};

const primitive = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0.5, -0, 1e21, 2 ** 53),
  fc.constantFrom('', 'a', 'é', '😀', '😀😀', 'ab'),
);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a recursive arbitrary of JSON Schemas
const { schema } = fc.letrec<{ schema: any; node: any }>((tie) => ({
  schema: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.boolean(), tie('node'), tie('node')),
  node: fc.record(
    {
      type: fc.oneof(
        fc.constantFrom(...TYPES),
        fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 }),
      ),
      properties: fc.dictionary(fc.constantFrom(...NAMES), tie('schema'), { maxKeys: 3 }),
      required: fc.uniqueArray(fc.constantFrom(...NAMES), { maxLength: 3 }),
      additionalProperties: tie('schema'),
      items: tie('schema'),
      enum: fc.array(primitive, { minLength: 1, maxLength: 4 }),
      const: primitive,
      minimum: fc.integer({ min: -2, max: 2 }),
      maximum: fc.integer({ min: -2, max: 2 }),
      exclusiveMinimum: fc.constantFrom(-1, 0, 0.5),
      exclusiveMaximum: fc.constantFrom(0, 1, 2.5),
      minLength: fc.nat(3),
      maxLength: fc.nat(3),
      minItems: fc.nat(2),
      maxItems: fc.nat(2),
      description: fc.constant('an annotation'),
      'x-mcp-header': fc.constant('X-Thing'),
    },
    { requiredKeys: [] },
  ),
}));

// Values shaped like the schemas (objects with the same names), and the odd ones only JavaScript has.
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    primitive,
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, undefined),
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...NAMES), tie('value'), { maxKeys: 4 }),
  ),
}));

describe('plain JSON Schemas (no Ajv on the way to a valid answer)', () => {
  it('agrees with Ajv on every generated plain schema and value, in all three dialects (property)', () => {
    let plainSchemas = 0;
    fc.assert(
      fc.property(
        schema,
        fc.constantFrom(...(Object.keys(DIALECTS) as Dialect[])),
        fc.array(value, { minLength: 1, maxLength: 8 }),
        (generated, dialect, values) => {
          if (typeof generated === 'boolean') return;
          const check = plainSchemaCheck({ $schema: DIALECTS[dialect], ...generated } as JsonObject);
          if (check === undefined) return;
          plainSchemas++;
          // Ajv must accept every schema taken as plain (otherwise registration would let through what it refuses).
          const ajv = compilerFor(dialect).compile(generated as JsonObject);
          for (const item of values) {
            assert.equal(
              check(item),
              ajv(item),
              `${JSON.stringify(generated)} on ${String(JSON.stringify(item))}`,
            );
          }
        },
      ),
      { numRuns: 3000 },
    );
    assert.ok(plainSchemas > 600, `only ${plainSchemas} of the generated schemas were plain`);
  });

  it('leaves to Ajv what it does not do: references, combinators, patterns, formats, tuples, unknown keywords', () => {
    const outside: unknown[] = [
      { $ref: '#/$defs/a', $defs: { a: { type: 'string' } } },
      { anyOf: [{ type: 'string' }] },
      { type: 'string', pattern: '^a' },
      { type: 'string', format: 'email' },
      { type: 'array', items: [{ type: 'string' }] },
      { type: 'object', patternProperties: { '^a': {} } },
      { type: 'number', multipleOf: 2 },
      { type: 'object', dependencies: { a: ['b'] } },
      { type: 'object', properties: { a: { $schema: DIALECTS['2020-12'] } } },
      // values the meta-schema refuses: Ajv refuses the schema at registration, with its message
      { type: 'strin' },
      { type: [] },
      { required: ['a', 'a'] },
      { minLength: -1 },
      { minLength: 1.5 },
      { enum: [] },
      { enum: [{ a: 1 }] },
    ];
    for (const item of outside)
      assert.equal(plainSchemaCheck(item as JsonObject), undefined, JSON.stringify(item));
  });

  it('reports a refused value with the issues Ajv gives, the same as for a schema Ajv checks itself', async () => {
    const plain = compileSchema(
      { type: 'object', properties: { n: { type: 'integer', minimum: 1 } }, required: ['n'] },
      { role: 'input', owner: 'tool "plain"' },
    );
    // The same schema with a keyword plain.ts leaves to Ajv, which changes nothing for these values.
    const viaAjv = compileSchema(
      {
        type: 'object',
        properties: { n: { type: 'integer', minimum: 1 } },
        required: ['n'],
        not: { type: 'null' },
      },
      { role: 'input', owner: 'tool "ajv"' },
    );
    for (const bad of [{}, { n: 0 }, { n: 1.5 }, { n: 'one' }, []]) {
      const [a, b] = [await plain.validate(bad), await viaAjv.validate(bad)];
      assert.equal(a.ok, false);
      assert.deepEqual(a, b);
    }
    assert.deepEqual(await plain.validate({ n: 2 }), { ok: true, value: { n: 2 } });
  });

  it('never loads Ajv while every value is valid, and loads it for the first refused one', () => {
    const script = `
import { createRequire } from 'node:module';
import { compileSchema } from './src/schema/index.ts';
const loaded = () => Object.keys(createRequire(import.meta.url).cache).some((path) => path.includes('/node_modules/ajv/'));
const schema = compileSchema({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false }, { role: 'input', owner: 'tool "sum"' });
const seen = [loaded()];
seen.push(schema.validate({ a: 1, b: 2 }).ok, loaded());
seen.push(schema.validate({ a: 1 }).ok, loaded());
console.log(JSON.stringify(seen));
`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(JSON.parse(run.stdout), [false, true, false, false, true]);
  });
});
