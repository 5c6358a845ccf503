// The schema compiler, case by case: $ref inlining and its refusals, root repairs, strict conversions, key
// renaming, and arguments read back to the original schema's terms.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { JsonObject } from '../jsonrpc/index.js';
import { profile } from './profiles.js';
import { inlineRefs } from './refs.js';
import { compileInputSchema } from './schema-compile.js';
import { restoreArguments } from './shape.js';

const compile = (schema: JsonObject, id: Parameters<typeof profile>[0]) =>
  compileInputSchema(schema, profile(id));

describe('inlineRefs', () => {
  it('inlines $defs and draft-7 definitions, keeps siblings, and drops the definitions', () => {
    assert.deepEqual(
      inlineRefs({
        type: 'object',
        definitions: { id: { type: 'string', pattern: '^[0-9]+$' } },
        $defs: { tag: { type: 'string' } },
        properties: { a: { $ref: '#/definitions/id', description: 'An id' }, b: { $ref: '#/$defs/tag' } },
      }),
      {
        type: 'object',
        properties: {
          a: { type: 'string', pattern: '^[0-9]+$', description: 'An id' },
          b: { type: 'string' },
        },
      },
    );
  });

  it('reads property names as names, even "enum", "default" or "$ref"', () => {
    const schema = {
      type: 'object',
      properties: { enum: { $ref: '#/$defs/s' }, default: { type: 'number' } },
      $defs: { s: { type: 'string' } },
    };
    assert.deepEqual(inlineRefs(schema), {
      type: 'object',
      properties: { enum: { type: 'string' }, default: { type: 'number' } },
    });
  });

  it('C5 refuses anchors, dangling pointers, dynamic refs and a $ref bomb (it would explode once inlined)', () => {
    assert.throws(() => inlineRefs({ properties: { a: { $ref: '#node' } } }), {
      message: 'its $ref "#node" at /properties/a points to no schema',
    });
    assert.throws(() => inlineRefs({ properties: { a: { $ref: '#/$defs/missing' } } }), {
      message: 'its $ref "#/$defs/missing" at /properties/a points to no schema',
    });
    assert.throws(() => inlineRefs({ $dynamicRef: '#meta' }), {
      message: 'it uses $dynamicRef at the root, which no model API takes',
    });
    const $defs: JsonObject = { d0: { type: 'string' } };
    for (let i = 1; i <= 20; i++)
      $defs[`d${i}`] = {
        type: 'object',
        properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } },
      };
    assert.throws(() => inlineRefs({ type: 'object', $defs, properties: { x: { $ref: '#/$defs/d20' } } }), {
      message: 'it grows past 20000 nodes once its $refs are inlined',
    });
  });
});

describe('root repairs', () => {
  it('a root without a type gets "object"; a ["object", "null"] root is narrowed; other roots are refused', () => {
    assert.deepEqual(compile({ properties: { a: { type: 'string' } } }, 'anthropic').schema, {
      properties: { a: { type: 'string' } },
      type: 'object',
    });
    assert.deepEqual(compile({ type: ['object', 'null'] }, 'openai-chat').changes, [
      'narrowed the root type ["object","null"] to "object"',
    ]);
    assert.throws(() => compile({ type: 'string' }, 'openai-chat'), {
      message: 'its root type is "string"; MCP and every model API need an object',
    });
  });

  it('a root that is a $ref (Pydantic) is the schema it points to', () => {
    const compiled = compile(
      { $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { q: { type: 'string' } } } } },
      'openai-chat',
    );
    assert.deepEqual(compiled.schema, { type: 'object', properties: { q: { type: 'string' } } });
    assert.deepEqual(compiled.changes, ['inlined 1 $ref']);
  });

  it('strict: extension annotations (x-mcp-header) are dropped, not described', () => {
    const schema = {
      type: 'object',
      properties: { region: { type: 'string', 'x-mcp-header': 'Region' } },
      required: ['region'],
    };
    assert.deepEqual(compile(schema, 'anthropic-strict').schema.properties, { region: { type: 'string' } });
    assert.deepEqual(compile(schema, 'anthropic').schema.properties, {
      region: { type: 'string', 'x-mcp-header': 'Region' },
    });
  });

  it('a root allOf of plain objects is merged', () => {
    const compiled = compile(
      {
        allOf: [
          { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
          { properties: { b: { type: 'number' } } },
        ],
      },
      'anthropic',
    );
    assert.deepEqual(compiled.schema, {
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'number' } },
      required: ['a'],
    });
  });
});

describe('OpenAI strict', () => {
  it('optional properties become required and nullable; an already nullable one stays as it is and its null passes', () => {
    const compiled = compile(
      {
        type: 'object',
        properties: {
          q: { type: 'string' },
          limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], default: null },
          kind: { type: 'string', enum: ['a', 'b'] },
          exact: { const: 'x' },
        },
        required: ['q'],
      },
      'openai-chat-strict',
    );
    assert.deepEqual(compiled.schema, {
      type: 'object',
      properties: {
        q: { type: 'string' },
        limit: { anyOf: [{ type: 'integer' }, { type: 'null' }], description: '(default: null)' },
        kind: { type: ['string', 'null'], enum: ['a', 'b', null] },
        exact: { anyOf: [{ const: 'x' }, { type: 'null' }] },
      },
      required: ['q', 'limit', 'kind', 'exact'],
      additionalProperties: false,
    });
    assert.deepEqual(restoreArguments({ q: 'x', limit: null, kind: null, exact: null }, compiled.shape), {
      q: 'x',
      limit: null,
    });
  });

  it('nulls are dropped in the anyOf branch the value was made for', () => {
    const compiled = compile(
      {
        anyOf: [
          {
            type: 'object',
            properties: { path: { type: 'string' }, lines: { type: 'integer' } },
            required: ['path'],
          },
          {
            type: 'object',
            properties: { url: { type: 'string' }, depth: { type: 'integer' } },
            required: ['url'],
          },
        ],
      },
      'openai-chat-strict',
    );
    assert.deepEqual(restoreArguments({ input: { url: 'u', depth: null } }, compiled.shape), { url: 'u' });
    assert.deepEqual(restoreArguments({ input: { path: 'p', lines: null } }, compiled.shape), { path: 'p' });
  });

  it('allOf is merged, oneOf read as anyOf, unsupported keywords described', () => {
    const compiled = compile(
      {
        type: 'object',
        properties: {
          both: {
            allOf: [
              { type: 'object', properties: { a: { type: 'string' } } },
              { properties: { b: { type: 'string' } } },
            ],
          },
          one: { oneOf: [{ type: 'string', maxLength: 3 }, { type: 'integer' }] },
        },
        required: ['both', 'one'],
      },
      'openai-responses-strict',
    );
    assert.deepEqual(compiled.schema.properties, {
      both: {
        type: 'object',
        properties: { a: { type: ['string', 'null'] }, b: { type: ['string', 'null'] } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
      one: { anyOf: [{ type: 'string', description: '(maxLength: 3)' }, { type: 'integer' }] },
    });
  });

  it('what strict cannot express is refused as strict-only (the tool then goes without strict mode)', () => {
    const cases: Array<[JsonObject, string]> = [
      [
        { type: 'object', properties: { m: { type: 'object', additionalProperties: { type: 'string' } } } },
        '/properties/m is a free-form object (any keys), which a strict grammar cannot express',
      ],
      [
        { type: 'object', properties: { any: {} } },
        '/properties/any accepts any value (it has no type), which a strict grammar cannot express',
      ],
      [
        { type: 'object', properties: { t: { type: 'array', items: [{ type: 'string' }] } } },
        '/properties/t lists items as a tuple, which a strict grammar cannot express',
      ],
    ];
    for (const [schema, message] of cases) {
      assert.throws(() => compile(schema, 'openai-chat-strict'), {
        name: 'SchemaRefusal',
        message,
        strictOnly: true,
      });
    }
  });
});

describe('Anthropic', () => {
  it('keys outside ^[a-zA-Z0-9_.-]{1,64}$ are renamed uniquely (a taken name gets a hash) and restored, nested too', () => {
    const compiled = compile(
      {
        type: 'object',
        properties: {
          'a[b]': { type: 'string' },
          a_b_: { type: 'string' },
          'list of': { type: 'array', items: { type: 'object', properties: { 'x y': { type: 'number' } } } },
        },
        required: ['a[b]'],
      },
      'anthropic',
    );
    const keys = Object.keys(compiled.schema.properties as JsonObject);
    assert.match(keys[0] ?? '', /^a_b__[0-9a-f]{8}$/);
    assert.deepEqual(keys.slice(1), ['a_b_', 'list_of']);
    assert.deepEqual(compiled.schema.required, [keys[0]]);
    assert.deepEqual(
      restoreArguments(
        { [keys[0] ?? '']: '1', a_b_: '2', list_of: [{ x_y: 1 }, { x_y: 2 }] },
        compiled.shape,
      ),
      { 'a[b]': '1', a_b_: '2', 'list of': [{ 'x y': 1 }, { 'x y': 2 }] },
    );
  });

  it('strict: bounds described, minItems above 1 lowered to 1 and described, objects closed, optionals kept optional', () => {
    const compiled = compile(
      {
        type: 'object',
        properties: {
          n: { type: 'integer', minimum: 1, maximum: 9 },
          tags: { type: 'array', items: { type: 'string' }, minItems: 3 },
        },
      },
      'anthropic-strict',
    );
    assert.deepEqual(compiled.schema, {
      type: 'object',
      properties: {
        n: { type: 'integer', description: '(minimum: 1; maximum: 9)' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, description: '(minItems: 3)' },
      },
      additionalProperties: false,
    });
  });
});

describe('round trip (property)', () => {
  it('any property keys: renamed to the Anthropic charset, unique, and restored exactly', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ maxLength: 90 }), { maxLength: 12 }), (keys) => {
        const properties = Object.fromEntries(keys.map((key) => [key, { type: 'string' }]));
        const compiled = compile({ type: 'object', properties, required: keys }, 'anthropic');
        const sent = Object.keys(compiled.schema.properties as JsonObject);
        if (sent.length !== keys.length || !sent.every((key) => /^[a-zA-Z0-9_.-]{1,64}$/.test(key)))
          return false;
        const args = Object.fromEntries(sent.map((key, index) => [key, `v${index}`]));
        // Object key order, not the array's: integer-like keys come first in both objects.
        const expected = Object.fromEntries(Object.keys(properties).map((key, index) => [key, `v${index}`]));
        return JSON.stringify(restoreArguments(args, compiled.shape)) === JSON.stringify(expected);
      }),
    );
  });
});

describe('regression: keys that spell __proto__', () => {
  it('"__proto__" itself and "  proto  " (which the charset would turn into it) are sent renamed and restored as data', () => {
    const keys = ['  proto  ', '__proto__', 'plain'];
    const properties = Object.fromEntries(keys.map((key) => [key, { type: 'string' }]));
    const compiled = compile({ type: 'object', properties, required: keys }, 'anthropic');
    const sent = Object.keys(compiled.schema.properties as JsonObject);
    assert.equal(sent.length, 3);
    assert.ok(!sent.includes('__proto__'), JSON.stringify(sent));
    const args = Object.fromEntries(sent.map((key, index) => [key, `v${index}`]));
    const restored = restoreArguments(args, compiled.shape) as Record<string, unknown>;
    assert.deepEqual(Object.keys(restored).sort(), [...keys].sort());
    assert.equal(Object.getPrototypeOf(restored), Object.prototype);
    assert.equal(({} as Record<string, unknown>).v0, undefined);
  });
});
