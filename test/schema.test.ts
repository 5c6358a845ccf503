// Tool schemas: compiling raw JSON Schema and Standard Schemas, the issues a model sees, limits, and x-mcp-header.

import assert from 'node:assert/strict';
import { describe, it, mock } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  SchemaError,
  collectXMcpHeaders,
  compileSchema,
  compiledValidatorCount,
  formatIssues,
  validateXMcpHeaders,
  type CompiledSchema,
  type SchemaInput,
  type StandardSchemaWithJson,
  type ValidationIssue,
  type ValidationResult,
} from '../src/schema/index.js';
import { pointerFrom, pointerSegments } from '../src/schema/pointer.js';
import type { JsonObject } from '../src/jsonrpc/index.js';

const input = { role: 'input', owner: 'tool "t"' } as const;
const output = { role: 'output', owner: 'tool "t"' } as const;

/** The issues of a failed validation (sync or async); fails the test when validation passed. */
async function issuesOf(schema: CompiledSchema, value: unknown): Promise<ValidationIssue[]> {
  const result: ValidationResult<unknown> = await schema.validate(value);
  if (result.ok) assert.fail(`expected ${JSON.stringify(value)} to be invalid`);
  return result.issues;
}

/** The messages of a failed validation as `path: message` lines, the shape most assertions want. */
async function problems(schema: CompiledSchema, value: unknown): Promise<string[]> {
  return (await issuesOf(schema, value)).map((issue) => `${issue.path}: ${issue.message}`);
}

function rejects(schema: unknown, message: string, options: typeof input | typeof output = input): void {
  // Hostile inputs deliberately break the static type.
  assert.throws(() => compileSchema(schema as SchemaInput, options), { name: 'SchemaError', message });
}

/** An object schema nested through `properties.a` `levels` times: its JSON depth is 1 + 2 × levels. */
function nested(levels: number): JsonObject {
  let schema: JsonObject = { type: 'object' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { a: schema } };
  return schema;
}

describe('compileSchema with zod', () => {
  const Sum = z.object({ a: z.number(), b: z.number().int().min(0), note: z.string().optional() });

  it('exports the input JSON Schema and validates through zod', async () => {
    const compiled = compileSchema(Sum, { role: 'input', owner: 'tool "calculate_sum"' });
    assert.equal(compiled.rootType, 'object');
    assert.equal(compiled.jsonSchema['$schema'], 'https://json-schema.org/draft/2020-12/schema');
    assert.deepEqual(compiled.jsonSchema['required'], ['a', 'b']);
    assert.deepEqual(await compiled.validate({ a: 1.5, b: 2 }), { ok: true, value: { a: 1.5, b: 2 } });
  });

  it('reports zod issues with JSON Pointer paths', async () => {
    const compiled = compileSchema(
      z.object({ a: z.number(), nested: z.object({ list: z.array(z.string()) }) }),
      input,
    );
    assert.deepEqual(await problems(compiled, { a: 'x', nested: { list: ['ok', 1] } }), [
      '/a: Invalid input: expected number, received string',
      '/nested/list/1: Invalid input: expected string, received number',
    ]);
  });

  it('passes an async refinement through as a promise', async () => {
    const schema = z
      .object({ code: z.string() })
      .refine(async (v) => v.code === 'ok', { message: 'code is not ok' });
    const compiled = compileSchema(schema, input);
    const pending = compiled.validate({ code: 'no' });
    assert.ok(pending instanceof Promise);
    assert.deepEqual(await pending, { ok: false, issues: [{ path: '', message: 'code is not ok' }] });
    assert.deepEqual(await compiled.validate({ code: 'ok' }), { ok: true, value: { code: 'ok' } });
  });

  it('uses .output() for output schemas, which differs from .input() (zod closes objects only on output)', () => {
    const compiledInput = compileSchema(Sum, input);
    const compiledOutput = compileSchema(Sum, output);
    assert.equal(compiledInput.jsonSchema['additionalProperties'], undefined);
    assert.equal(compiledOutput.jsonSchema['additionalProperties'], false);
  });

  it('compiles one zod schema once per role', () => {
    assert.equal(compileSchema(Sum, input), compileSchema(Sum, { role: 'input', owner: 'tool "other"' }));
  });

  it('rejects a non-object input root (z.string())', () => {
    rejects(z.string(), 'inputSchema of tool "t" must have type "object" at the root (MCP requires it)');
  });

  it('allows an array or string output root', () => {
    assert.equal(compileSchema(z.array(z.string()), output).rootType, 'array');
    assert.equal(compileSchema(z.string(), output).rootType, 'string');
  });

  it('turns a zod export failure into a SchemaError', () => {
    rejects(
      z.object({ when: z.date() }),
      'inputSchema of tool "t": zod could not export it as JSON Schema: Date cannot be represented in JSON Schema',
    );
    // Transforms are fine on the input side (the input type is known) but not on the output side.
    const Length = z.object({ text: z.string().transform((s) => s.length) });
    assert.equal(compileSchema(Length, input).rootType, 'object');
    rejects(
      Length,
      'outputSchema of tool "t": zod could not export it as JSON Schema: Transforms cannot be represented in JSON Schema',
      output,
    );
  });

  it('keeps an x-mcp-header set through .meta()', () => {
    const compiled = compileSchema(
      z.object({ region: z.string().meta({ 'x-mcp-header': 'Region' }) }),
      input,
    );
    assert.deepEqual(collectXMcpHeaders(compiled.jsonSchema), [
      { header: 'Region', path: ['region'], type: 'string' },
    ]);
  });
});

describe('compileSchema with other Standard Schemas', () => {
  const handmade: StandardSchemaWithJson<{ n: number }> = {
    '~standard': {
      version: 1,
      vendor: 'handmade',
      validate: (value) =>
        typeof value === 'object' && value !== null && 'n' in value && typeof value.n === 'number'
          ? { value: { n: value.n } }
          : { issues: [{ message: 'n must be a number', path: [{ key: 'n' }, 0, { key: 'odd/key~' }] }] },
      jsonSchema: {
        input: () => ({ type: 'object', properties: { n: { type: 'number' } } }),
        output: () => ({ type: 'object' }),
      },
    },
  };

  it('maps path segments, keys or {key} objects, to an escaped JSON Pointer', async () => {
    const compiled = compileSchema(handmade, input);
    assert.deepEqual(await compiled.validate({ n: 2 }), { ok: true, value: { n: 2 } });
    assert.deepEqual(await issuesOf(compiled, {}), [
      { path: '/n/0/odd~1key~0', message: 'n must be a number' },
    ]);
  });

  it('asks for a JSON Schema object when the library cannot export one', () => {
    const plain = { '~standard': { version: 1, vendor: 'valibot', validate: () => ({ value: {} }) } };
    rejects(
      plain,
      'inputSchema of tool "t" is a valibot schema, but valibot cannot export JSON Schema ' +
        '(~standard.jsonSchema is missing); pass a JSON Schema object instead',
    );
  });
});

describe('compileSchema with raw JSON Schema (2020-12)', () => {
  const Order = {
    type: 'object',
    properties: {
      id: { type: 'string', pattern: '^[a-z]+$' },
      size: { enum: ['small', 'large'] },
      kind: { const: 'order' },
      quantity: { type: 'integer', minimum: 0, exclusiveMaximum: 10 },
      step: { type: 'number', multipleOf: 5 },
      name: { type: 'string', minLength: 2, maxLength: 4 },
      email: { type: 'string', format: 'email' },
      tags: { type: 'array', maxItems: 1, uniqueItems: true },
      note: { type: ['string', 'null'] },
      items: {
        type: 'array',
        minItems: 1,
        items: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
    },
    required: ['id', 'items'],
    additionalProperties: false,
  };
  const compiled = compileSchema(Order, input);

  it('returns the very value it was given when it is valid', () => {
    const value = { id: 'abc', items: [{ name: 'x' }] };
    const result = compiled.validate(value);
    assert.ok(!(result instanceof Promise) && result.ok);
    assert.equal(result.value, value);
  });

  it('names the missing property, and the type it got', async () => {
    assert.deepEqual(await problems(compiled, { id: 5 }), [
      '/id: must be string, got integer',
      '/items: is required but missing',
    ]);
  });

  it('explains enum, const, pattern, format and numeric limits with the value it got', async () => {
    assert.deepEqual(
      await problems(compiled, {
        id: 'ABC',
        items: [{ name: 'x' }],
        size: 'medium',
        kind: 'refund',
        quantity: -1,
        step: 7,
        email: 'nope',
      }),
      [
        '/email: must be a valid email (got "nope")',
        '/id: must match the pattern /^[a-z]+$/',
        '/kind: must be "order" (got "refund")',
        '/quantity: must be >= 0 (got -1)',
        '/size: must be one of "small", "large" (got "medium")',
        '/step: must be a multiple of 5 (got 7)',
      ],
    );
    assert.deepEqual(await problems(compiled, { id: 'a', items: [{ name: 'x' }], quantity: 10 }), [
      '/quantity: must be < 10 (got 10)',
    ]);
  });

  it('explains lengths, item counts, duplicates and union types', async () => {
    assert.deepEqual(await problems(compiled, { id: 'a', items: [], name: 'x', tags: [1, 1], note: 3 }), [
      '/items: must have at least 1 item (got 0)',
      '/name: must have at least 2 characters (got 1)',
      '/note: must be string or null, got integer',
      '/tags: must have at most 1 item (got 2)',
      '/tags: must not contain duplicates (items 0 and 1 are equal)',
    ]);
    assert.deepEqual(await problems(compiled, { id: 'a', items: [{ name: 'x' }], name: 'naïve' }), [
      '/name: must have at most 4 characters (got 5)',
    ]);
  });

  it('points at an unknown property and into nested array items', async () => {
    assert.deepEqual(
      await problems(compiled, { id: 'a', items: [{ name: 'ok' }, {}, { name: 2 }], extra: true }),
      [
        '/extra: is not allowed (unknown property)',
        '/items/1/name: is required but missing',
        '/items/2/name: must be string, got integer',
      ],
    );
  });

  it('does not let Object.prototype satisfy required', async () => {
    const schema = compileSchema({ type: 'object', required: ['toString', 'constructor'] }, input);
    assert.deepEqual(await problems(schema, {}), [
      '/constructor: is required but missing',
      '/toString: is required but missing',
    ]);
  });

  it('says honestly when a oneOf / anyOf / not / if rule fails', async () => {
    const schema = compileSchema(
      {
        type: 'object',
        properties: {
          id: { oneOf: [{ type: 'string' }, { type: 'integer' }] },
          any: { anyOf: [{ type: 'string' }, { type: 'boolean' }] },
          not: { not: { type: 'null' } },
          when: { if: { type: 'string' }, then: { minLength: 3 } },
        },
      },
      input,
    );
    assert.deepEqual(await problems(schema, { id: 1.5, any: 1, not: null, when: 'ab' }), [
      '/any: must be string, got integer',
      '/any: must be boolean, got integer',
      '/any: must match at least one of the allowed shapes (anyOf); see the other messages here',
      '/id: must be string, got number',
      '/id: must be integer, got number',
      '/id: must match exactly one of the allowed shapes (oneOf), but matches none; see the other messages here',
      '/not: must not match the schema under "not"',
      '/when: must have at least 3 characters (got 2)',
      '/when: must also match the "then" schema of an if/then/else rule',
    ]);
    assert.deepEqual(await schema.validate({ id: 1, any: true, not: 0, when: 'abc' }), {
      ok: true,
      value: { id: 1, any: true, not: 0, when: 'abc' },
    });
  });

  it('deduplicates, orders by path, and caps at 20 issues plus a marker', async () => {
    const names = Array.from({ length: 25 }, (_, i) => `p${i}`);
    const schema = compileSchema({ type: 'object', required: names, allOf: [{ required: names }] }, input);
    const issues = await issuesOf(schema, {});
    assert.equal(issues.length, 21);
    assert.deepEqual(issues.slice(0, 3), [
      { path: '/p0', message: 'is required but missing' },
      { path: '/p1', message: 'is required but missing' },
      { path: '/p10', message: 'is required but missing' },
    ]);
    assert.deepEqual(issues[20], { path: '', message: '(and 5 more)' });
  });
});

describe('dialects', () => {
  const tuple = {
    type: 'object',
    properties: {
      pair: { type: 'array', items: [{ type: 'string' }, { type: 'number' }], additionalItems: false },
    },
  };

  it('compiles draft-07 when $schema says so (http or https, with or without #)', async () => {
    for (const uri of [
      'http://json-schema.org/draft-07/schema#',
      'http://json-schema.org/draft-07/schema',
      'https://json-schema.org/draft-07/schema#',
    ]) {
      const compiled = compileSchema({ $schema: uri, ...tuple }, input);
      assert.equal(compiled.jsonSchema['$schema'], uri);
      assert.deepEqual(await problems(compiled, { pair: ['a', 'b', 'c'] }), [
        '/pair: must have at most 2 items (got 3)',
        '/pair/1: must be number, got string',
      ]);
    }
  });

  it('compiles 2019-09, where array-form items and unevaluatedProperties both exist', async () => {
    const compiled = compileSchema(
      {
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        ...tuple,
        allOf: [{ properties: { extra: { type: 'string' } } }],
        unevaluatedProperties: false,
      },
      input,
    );
    assert.deepEqual(await problems(compiled, { pair: ['a', 1], extra: 'x', other: 1 }), [
      '/other: is not allowed (unknown property)',
    ]);
  });

  it('treats a schema without $schema as 2020-12, where array-form items is invalid', () => {
    assert.throws(() => compileSchema(tuple, input), {
      name: 'SchemaError',
      message:
        /^inputSchema of tool "t" is not a valid JSON Schema: schema is invalid: data\/properties\/pair\/items /,
    });
  });

  it('names an unsupported dialect', () => {
    rejects(
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
      'inputSchema of tool "t" uses an unsupported JSON Schema dialect http://json-schema.org/draft-04/schema#; ' +
        'toolwire supports 2020-12 (default), 2019-09 and draft-07',
    );
  });
});

describe('$ref rules', () => {
  const external = (ref: string, keyword = '$ref') =>
    `inputSchema of tool "t" has an external ${keyword} ${JSON.stringify(ref)} at /properties/a: ` +
    'toolwire never fetches schemas; inline the referenced schema under $defs and point to it with "#/$defs/<name>"';

  it('rejects every ref that leaves the document', () => {
    for (const ref of [
      'http://example.com/s.json',
      'https://example.com/s.json#/x',
      'file:///etc/passwd',
      'other.json#/x',
    ]) {
      rejects({ type: 'object', properties: { a: { $ref: ref } } }, external(ref));
    }
    rejects(
      { type: 'object', properties: { a: { $dynamicRef: 'https://x.test/m#meta' } } },
      external('https://x.test/m#meta', '$dynamicRef'),
    );
  });

  it('accepts local refs, and ignores "$ref" used as a property name or inside data', async () => {
    const compiled = compileSchema(
      {
        type: 'object',
        $defs: { positive: { type: 'number', minimum: 1 }, named: { $anchor: 'name', type: 'string' } },
        properties: {
          count: { $ref: '#/$defs/positive' },
          name: { $ref: '#name' },
          $ref: { type: 'string', default: { $ref: 'http://example.com' } },
        },
      },
      input,
    );
    assert.deepEqual(await problems(compiled, { count: 0, name: 1, $ref: 'fine' }), [
      '/count: must be >= 1 (got 0)',
      '/name: must be string, got integer',
    ]);
  });

  it('reports a local ref that does not resolve', () => {
    rejects(
      { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
      'inputSchema of tool "t" has a $ref that cannot be resolved: can\'t resolve reference #/$defs/missing from id #',
    );
  });

  it('lets two tools share an $id', () => {
    compileSchema({ $id: 'https://example.com/shared', type: 'object' }, input);
    compileSchema({ $id: 'https://example.com/shared', type: 'object', properties: {} }, input);
  });
});

describe('limits', () => {
  it('accepts 64 levels of nesting and refuses 65', () => {
    const deepest = nested(31); // 63 levels
    let inner = deepest;
    while (inner['properties'] !== undefined) inner = (inner['properties'] as { a: JsonObject }).a; // built that way above
    inner['required'] = []; // the 64th level
    assert.equal(compileSchema(deepest, input).rootType, 'object');
    rejects(nested(32), 'inputSchema of tool "t" is nested deeper than 64 levels');
  });

  it('refuses more than 20,000 objects and arrays', () => {
    const properties = Object.fromEntries(Array.from({ length: 20_000 }, (_, i) => [`p${i}`, {}]));
    rejects({ type: 'object', properties }, 'inputSchema of tool "t" has more than 20000 objects and arrays');
  });

  it('refuses more than 1 MiB of JSON', () => {
    const schema = { type: 'object', description: 'x'.repeat(1024 * 1024) };
    rejects(
      schema,
      `inputSchema of tool "t" is larger than 1 MiB as JSON (${JSON.stringify(schema).length} bytes)`,
    );
  });

  it('does not print ajv warnings for unknown formats', () => {
    const warn = mock.method(console, 'warn', () => undefined);
    const error = mock.method(console, 'error', () => undefined);
    try {
      compileSchema({ type: 'object', properties: { a: { type: 'string', format: 'made-up' } } }, input);
      assert.equal(warn.mock.callCount() + error.mock.callCount(), 0);
    } finally {
      warn.mock.restore();
      error.mock.restore();
    }
  });

  it('refuses a cycle, and anything that is not a plain object', () => {
    const cyclic: JsonObject = { type: 'object' };
    cyclic['properties'] = { self: cyclic };
    rejects(cyclic, 'inputSchema of tool "t" contains a cycle; a JSON Schema must be plain JSON');
    rejects([], 'inputSchema of tool "t" must be a JSON Schema object or a Standard Schema (got array)');
    rejects(null, 'inputSchema of tool "t" must be a JSON Schema object or a Standard Schema (got null)');
    rejects(
      new Date(),
      'inputSchema of tool "t" must be a JSON Schema object or a Standard Schema (got an instance of a class)',
    );
  });

  it('throws only SchemaError, whatever JSON object it is given', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 4 })), (schema) => {
        try {
          compileSchema(schema, output);
        } catch (error) {
          assert.ok(error instanceof SchemaError, String(error));
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('root type', () => {
  it('requires type "object" at the root of an input schema', () => {
    const message = 'inputSchema of tool "t" must have type "object" at the root (MCP requires it)';
    rejects({ type: 'array' }, message);
    rejects({}, message);
    rejects({ type: ['object', 'null'] }, message);
  });

  it('allows any root for an output schema, and exposes it', () => {
    assert.equal(compileSchema({ type: 'array', items: { type: 'string' } }, output).rootType, 'array');
    assert.equal(compileSchema({ type: 'string' }, output).rootType, 'string');
    assert.equal(compileSchema({}, output).rootType, undefined);
  });
});

describe('compile cache', () => {
  it('reuses the validator for the same object and for equal JSON text', () => {
    const before = compiledValidatorCount();
    const schema = { type: 'object', properties: { cacheProbe: { type: 'string' } } };
    const first = compileSchema(schema, input);
    assert.equal(compileSchema(schema, input), first);
    assert.equal(compileSchema(structuredClone(schema), output), first);
    assert.equal(compiledValidatorCount(), before + 1);
  });

  it('compiles one validator for 1,000 tools sharing a schema', () => {
    const before = compiledValidatorCount();
    const text = JSON.stringify({ type: 'object', properties: { thousand: { type: 'integer' } } });
    for (let i = 0; i < 1000; i++)
      compileSchema(JSON.parse(text) as JsonObject, { role: 'input', owner: `tool "t${i}"` });
    assert.equal(compiledValidatorCount(), before + 1);
  });
});

describe('wire schema', () => {
  it('keeps every key as written, and freezes its copy', () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'https://example.com/wire',
      $comment: 'kept',
      type: 'object',
      $defs: { region: { $anchor: 'region', type: 'string', 'x-mcp-header': 'Region' } },
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, other: { $ref: '#region' } },
      'x-vendor': { anything: [1, 2] },
    };
    const compiled = compileSchema(schema, input);
    assert.equal(JSON.stringify(compiled.jsonSchema), JSON.stringify(schema));
    assert.notEqual(compiled.jsonSchema, schema);
    assert.ok(Object.isFrozen(compiled.jsonSchema) && Object.isFrozen(compiled.jsonSchema['properties']));
    assert.ok(!Object.isFrozen(schema));
  });
});

describe('formatIssues', () => {
  it('renders pointers as paths, one issue per line', () => {
    const issues = [
      { path: '/a', message: 'must be number, got string' },
      { path: '/b', message: 'is required but missing' },
      { path: '/items/0/name', message: 'must be string, got integer' },
      { path: '/odd key/2', message: 'is\nwrong' },
      { path: '', message: 'must be object, got array' },
      { path: '', message: '(and 3 more)' },
    ];
    assert.equal(
      formatIssues(issues, 'Invalid arguments for tool "calculate_sum"'),
      [
        'Invalid arguments for tool "calculate_sum":',
        '- a: must be number, got string',
        '- b: is required but missing',
        '- items[0].name: must be string, got integer',
        '- ["odd key"][2]: is wrong',
        '- (root): must be object, got array',
        '- (and 3 more)',
      ].join('\n'),
    );
  });

  it('formats what a failed validation returns', async () => {
    const compiled = compileSchema(
      { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
      { role: 'input', owner: 'tool "calculate_sum"' },
    );
    assert.equal(
      formatIssues(await issuesOf(compiled, { a: '1' }), 'Invalid arguments for tool "calculate_sum"'),
      'Invalid arguments for tool "calculate_sum":\n- a: must be number, got string\n- b: is required but missing',
    );
  });

  it('round-trips any keys through a JSON Pointer', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), (keys) =>
        assert.deepEqual(pointerSegments(pointerFrom(keys)), keys),
      ),
    );
  });
});

describe('x-mcp-header', () => {
  const withProperty = (property: JsonObject): JsonObject => ({
    type: 'object',
    properties: { a: property },
  });
  const TOKEN_RULE =
    "is not a valid header name: it must be an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~; " +
    'no spaces, colons, control or non-ASCII characters)';
  const UNREACHABLE =
    'is not statically reachable: it must be on a property reached from the root through "properties" only ' +
    '(not items, oneOf, $defs, $ref targets…)';

  it('scans a compiled (frozen) schema once for all its tools, and a schema that may still change every time', () => {
    const compiled = compileSchema(
      { type: 'object', properties: { scanOnce: { type: 'string', 'x-mcp-header': 'Scan-Once' } } },
      input,
    ).jsonSchema;
    const first = collectXMcpHeaders(compiled);
    assert.deepEqual(first, [{ header: 'Scan-Once', path: ['scanOnce'], type: 'string' }]);
    assert.equal(collectXMcpHeaders(compiled), first, 'the same frozen list for every tool of the schema');
    assert.ok(Object.isFrozen(first));
    const open: JsonObject = { type: 'object', properties: { a: { type: 'string', 'x-mcp-header': 'A' } } };
    assert.equal(collectXMcpHeaders(open).length, 1);
    (open.properties as JsonObject).b = { type: 'string', 'x-mcp-header': 'B' };
    assert.equal(collectXMcpHeaders(open).length, 2, 'an unfrozen schema is scanned again');
    (open.properties as JsonObject).c = { type: 'string', 'x-mcp-header': 'a' };
    assert.match(String(validateXMcpHeaders(open)), /duplicates/);
  });

  it('accepts annotations on string, integer and boolean properties, nested through properties', () => {
    const schema = {
      type: 'object',
      properties: {
        region: { type: 'string', 'x-mcp-header': 'Region' },
        options: {
          type: 'object',
          properties: {
            limit: { type: 'integer', 'x-mcp-header': 'Limit' },
            dry: { type: 'boolean', 'x-mcp-header': "Dry-Run_2.x!#$%&'*+^`|~" },
          },
        },
        'x-mcp-header': { type: 'string', default: { 'x-mcp-header': 'not an annotation' } },
      },
    };
    assert.equal(validateXMcpHeaders(schema), undefined);
    assert.deepEqual(collectXMcpHeaders(schema), [
      { header: 'Region', path: ['region'], type: 'string' },
      { header: 'Limit', path: ['options', 'limit'], type: 'integer' },
      { header: "Dry-Run_2.x!#$%&'*+^`|~", path: ['options', 'dry'], type: 'boolean' },
    ]);
    assert.deepEqual(collectXMcpHeaders({ type: 'object' }), []);
  });

  it('refuses number, array, object, null, missing and union types', () => {
    for (const [type, shown] of [
      ['number', '"number"'],
      ['array', '"array"'],
      ['object', '"object"'],
      ['null', '"null"'],
      [undefined, '(none)'],
      [['string', 'null'], '["string","null"]'],
    ] as const) {
      assert.equal(
        validateXMcpHeaders(withProperty({ type, 'x-mcp-header': 'A' })),
        `"A" at /properties/a is on a property of type ${shown}; ` +
          'only "string", "integer" and "boolean" properties can be mirrored into headers',
      );
    }
  });

  it('refuses annotations that are not statically reachable', () => {
    const cases: [JsonObject, string][] = [
      [
        withProperty({ type: 'array', items: { type: 'string', 'x-mcp-header': 'A' } }),
        '/properties/a/items',
      ],
      [
        { type: 'object', oneOf: [{ properties: { a: { type: 'string', 'x-mcp-header': 'A' } } }] },
        '/oneOf/0/properties/a',
      ],
      [{ type: 'object', $defs: { a: { type: 'string', 'x-mcp-header': 'A' } } }, '/$defs/a'],
      [
        { type: 'object', additionalProperties: { type: 'string', 'x-mcp-header': 'A' } },
        '/additionalProperties',
      ],
      [
        { type: 'object', if: { properties: { a: { type: 'string', 'x-mcp-header': 'A' } } } },
        '/if/properties/a',
      ],
      [{ type: 'object', 'x-mcp-header': 'A' }, 'the root'],
    ];
    for (const [schema, where] of cases)
      assert.equal(validateXMcpHeaders(schema), `"A" at ${where} ${UNREACHABLE}`);
  });

  it('refuses duplicates, case-insensitively', () => {
    const schema = {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'REGION' },
      },
    };
    assert.equal(
      validateXMcpHeaders(schema),
      '"REGION" at /properties/b duplicates "Region" at /properties/a (header names are case-insensitive)',
    );
    assert.throws(() => collectXMcpHeaders(schema), {
      name: 'SchemaError',
      message: /^invalid x-mcp-header: "REGION"/,
    });
  });

  it('sees a duplicate through one object shared by two properties, and survives a cycle', () => {
    const region = { type: 'string', 'x-mcp-header': 'Region' };
    assert.equal(
      validateXMcpHeaders({ type: 'object', properties: { a: region, b: region } }),
      '"Region" at /properties/b duplicates "Region" at /properties/a (header names are case-insensitive)',
    );
    const cyclic: JsonObject = { type: 'object' };
    cyclic['properties'] = { self: cyclic, region };
    assert.deepEqual(collectXMcpHeaders(cyclic), [{ header: 'Region', path: ['region'], type: 'string' }]);
  });

  it('refuses empty and non-string values', () => {
    assert.equal(
      validateXMcpHeaders(withProperty({ type: 'string', 'x-mcp-header': '' })),
      'the annotation at /properties/a must be a non-empty string (got "")',
    );
    assert.equal(
      validateXMcpHeaders(withProperty({ type: 'string', 'x-mcp-header': 42 })),
      'the annotation at /properties/a must be a non-empty string (got 42)',
    );
    assert.equal(
      validateXMcpHeaders(withProperty({ type: 'string', 'x-mcp-header': 'H'.repeat(100_000) + ' ' })),
      `"${'H'.repeat(59)}… at /properties/a ${TOKEN_RULE}`,
    );
  });

  it('refuses names that are not RFC 9110 tokens: space, colon, non-ASCII, control characters', () => {
    for (const [name, shown] of [
      ['Re gion', '"Re gion"'],
      ['Region:', '"Region:"'],
      ['Régión', '"Régión"'],
      ['Region\r\nX-Injected: 1', '"Region\\r\\nX-Injected: 1"'],
      ['Tab\there', '"Tab\\there"'],
      ['Null\u0000', '"Null\\u0000"'],
      ['(paren)', '"(paren)"'],
    ] as const) {
      assert.equal(
        validateXMcpHeaders(withProperty({ type: 'string', 'x-mcp-header': name })),
        `${shown} at /properties/a ${TOKEN_RULE}`,
      );
    }
  });
});
