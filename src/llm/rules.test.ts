// The provider-rule validator against the providers' own examples and documented limits, each rule seen to pass
// and to fail, with the exact message.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../jsonrpc/index.js';
import { checkTool, checkToolSet, strictBudgetOf } from './rules.js';

/** OpenAI's function-calling guide, strict example (get_weather with a nullable unit). */
const WEATHER: JsonObject = {
  type: 'object',
  properties: {
    location: { type: 'string', description: 'The location to get the weather for' },
    unit: {
      type: ['string', 'null'],
      description: 'The unit to return the temperature in',
      enum: ['F', 'C'],
    },
  },
  additionalProperties: false,
  required: ['location', 'unit'],
};

const rules = (
  schema: JsonObject,
  provider: 'openai' | 'anthropic',
  strict = true,
  name = 'tool',
): string[] => checkTool({ name, schema, strict }, provider).map((v) => `${v.rule} ${v.at}: ${v.message}`);

const nested = (levels: number): JsonObject =>
  levels === 0
    ? { type: 'string' }
    : { type: 'object', properties: { n: nested(levels - 1) }, required: ['n'], additionalProperties: false };

describe('OpenAI rules', () => {
  it("the guide's strict example passes", () => assert.deepEqual(rules(WEATHER, 'openai'), []));

  it('names: 1 to 64 of [a-zA-Z0-9_-]', () => {
    assert.deepEqual(rules(WEATHER, 'openai', true, 'a'.repeat(64)), []);
    assert.deepEqual(rules(WEATHER, 'openai', true, 'a'.repeat(65)), [
      `openai/name ${'a'.repeat(65)}: the name must match ^[a-zA-Z0-9_-]{1,64}$`,
    ]);
    assert.deepEqual(rules(WEATHER, 'openai', true, 'a.b'), [
      'openai/name a.b: the name must match ^[a-zA-Z0-9_-]{1,64}$',
    ]);
  });

  it('strict: every property required, every object closed, properties listed', () => {
    const { required: _required, additionalProperties: _closed, ...open } = WEATHER;
    assert.deepEqual(rules(open, 'openai'), [
      'openai-strict/additional-properties : every object must set additionalProperties: false',
      'openai-strict/required /properties/location: every property must be required',
      'openai-strict/required /properties/unit: every property must be required',
    ]);
    assert.deepEqual(rules({ type: 'object', additionalProperties: false }, 'openai'), [
      'openai-strict/properties : an object schema must list properties',
    ]);
    assert.deepEqual(rules(open, 'openai', false), [], 'none of this applies without strict mode');
  });

  it('strict: unsupported keywords and formats (uri is not in the list)', () => {
    const schema = {
      ...WEATHER,
      properties: {
        location: { type: 'string', format: 'uri', minLength: 1 },
        unit: { allOf: [{ type: 'string' }] },
      },
    };
    assert.deepEqual(rules(schema, 'openai'), [
      'openai-strict/keyword /properties/location: minLength is not supported in strict mode',
      'openai-strict/format /properties/location: format "uri" is not supported in strict mode',
      'openai-strict/keyword /properties/unit: allOf is not supported in strict mode',
      'openai-strict/type /properties/unit: every schema must have a type (or anyOf, enum or const)',
    ]);
  });

  it('root: an object, without anyOf', () => {
    assert.deepEqual(rules({ anyOf: [WEATHER] }, 'openai', false), [
      'root/object : the root schema must have type "object"',
      'root/combinator : anyOf is not allowed at the root',
    ]);
  });

  it('every array needs items, strict or not ("array schema missing items")', () => {
    const schema = { type: 'object', properties: { tags: { type: 'array' } } };
    assert.deepEqual(rules(schema, 'openai', false), [
      'openai/array-items /properties/tags: an array schema must have items',
    ]);
  });

  it('strict limits: 10 levels of nesting, 5000 properties, 1000 enum values, 120,000 characters, large enums', () => {
    assert.deepEqual(rules(nested(9), 'openai'), []);
    assert.deepEqual(rules(nested(10), 'openai'), [
      'openai-strict/depth : at most 10 levels of nesting (this schema has 11)',
    ]);
    const many = (n: number, prefix = 'p'): JsonObject => {
      const properties = Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`${prefix}${i}`, { type: 'string' }]),
      );
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    };
    assert.deepEqual(rules(many(5000), 'openai'), []);
    assert.deepEqual(rules(many(5001), 'openai'), [
      'openai-strict/properties-total : at most 5000 object properties in total (5001)',
    ]);
    const enumOf = (values: string[]): JsonObject => ({
      type: 'object',
      properties: { e: { type: 'string', enum: values } },
      required: ['e'],
      additionalProperties: false,
    });
    assert.deepEqual(rules(enumOf(Array.from({ length: 1000 }, (_, i) => `v${i}`)), 'openai'), []);
    assert.deepEqual(rules(enumOf(Array.from({ length: 1001 }, (_, i) => `v${i}`)), 'openai'), [
      'openai-strict/enum-total : at most 1000 enum values in total (1001)',
    ]);
    // 251 values of 60 characters: 15,060 characters in one enum of more than 250 values.
    assert.deepEqual(
      rules(enumOf(Array.from({ length: 251 }, (_, i) => `${i}`.padStart(60, 'x'))), 'openai'),
      [
        'openai-strict/large-enum /properties/e: an enum of more than 250 values may hold at most 15000 characters',
      ],
    );
    const longNames = many(100, 'k'.repeat(1200));
    assert.deepEqual(rules(longNames, 'openai'), [
      'openai-strict/string-total : at most 120000 characters of names and enum/const values (120190)',
    ]);
  });

  it('an external $ref is refused; a recursive one is refused in strict mode', () => {
    const schema = {
      type: 'object',
      properties: { a: { $ref: 'https://x/s.json' } },
      required: ['a'],
      additionalProperties: false,
    };
    assert.deepEqual(rules(schema, 'openai', false), [
      'ref/external /properties/a: external $ref "https://x/s.json" is not supported',
    ]);
    const recursive = {
      type: 'object',
      properties: { a: { $ref: '#' } },
      required: ['a'],
      additionalProperties: false,
    };
    assert.deepEqual(rules(recursive, 'openai'), [
      'strict/recursion /properties/a: recursive schemas are not supported in strict mode',
    ]);
  });
});

describe('Anthropic rules', () => {
  it('names: 1 to 128 of [a-zA-Z0-9_-]; property keys ^[a-zA-Z0-9_.-]{1,64}$ (brackets fail)', () => {
    const schema = {
      type: 'object',
      properties: { 'filter[id]': { type: 'string' }, 'a.b': { type: 'string' } },
    };
    assert.deepEqual(rules(schema, 'anthropic', false, 'n'.repeat(128)), [
      'anthropic/property-key /properties/filter[id]: property keys must match ^[a-zA-Z0-9_.-]{1,64}$',
    ]);
    assert.deepEqual(rules({ type: 'object' }, 'anthropic', false, 'n'.repeat(129)), [
      `anthropic/name ${'n'.repeat(129)}: the name must match ^[a-zA-Z0-9_-]{1,128}$`,
    ]);
  });

  it('top-level oneOf / allOf / anyOf are refused', () => {
    assert.deepEqual(rules({ type: 'object', oneOf: [{ required: ['a'] }] }, 'anthropic', false), [
      'root/combinator : oneOf is not allowed at the root',
    ]);
  });

  it('strict: no numeric or length bounds, no maxItems, minItems only 0 or 1, primitive enums, closed objects', () => {
    const schema = {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0 },
        s: { type: 'string', maxLength: 3 },
        a: { type: 'array', items: { type: 'string' }, minItems: 2, maxItems: 4 },
        e: { enum: [{ x: 1 }] },
        ok: { type: 'array', items: { type: 'string', format: 'uri' }, minItems: 1 },
      },
      additionalProperties: false,
    };
    assert.deepEqual(rules(schema, 'anthropic'), [
      'anthropic-strict/keyword /properties/n: minimum is not supported in strict mode',
      'anthropic-strict/keyword /properties/s: maxLength is not supported in strict mode',
      'anthropic-strict/keyword /properties/a: maxItems is not supported in strict mode',
      'anthropic-strict/min-items /properties/a: minItems may only be 0 or 1',
      'anthropic-strict/enum /properties/e: enum values must be primitives',
    ]);
    assert.deepEqual(rules({ type: 'object', properties: {} }, 'anthropic'), [
      'anthropic-strict/additional-properties : every object must set additionalProperties: false',
    ]);
  });

  it('per request: unique names; at most 20 strict tools, 24 optional and 16 union-typed parameters', () => {
    const optional = (n: number): JsonObject => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`o${i}`, { type: ['string', 'null'] }]),
      ),
      additionalProperties: false,
    });
    assert.deepEqual(strictBudgetOf(optional(3)), { optional: 3, unions: 3 });
    const tools = Array.from({ length: 21 }, (_, i) => ({
      name: `t${i}`,
      schema: optional(i < 2 ? 8 : 1),
      strict: true,
    }));
    assert.deepEqual(
      checkToolSet([...tools, { name: 't0', schema: { type: 'object' }, strict: false }], 'anthropic').map(
        (v) => v.message,
      ),
      [
        'tool names must be unique',
        'at most 20 strict tools per request (21)',
        'at most 24 optional parameters across strict tools (35)',
        'at most 16 union-typed parameters across strict tools (35)',
      ],
    );
    assert.deepEqual(
      checkToolSet(tools.slice(0, 2), 'anthropic'),
      [],
      '16 optional and 16 union-typed: at the limit',
    );
  });
});
