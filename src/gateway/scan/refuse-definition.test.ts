// refuseDefinition against hostile definitions (threats C5, C6): the exact reason for each, nothing fetched, and
// every refusal bounded — proven by the step count, with the row's time limit as a generous second check.

import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import type { JsonObject } from '../../jsonrpc/index.js';
import type { Tool } from '../../protocol/index.js';
import { checkDefinition, DEFAULT_DEFINITION_LIMITS, refuseDefinition } from './index.js';

const tool = (inputSchema: JsonObject, fields: Partial<Tool> = {}): Tool => ({
  name: 'probe',
  inputSchema,
  ...fields,
});
const object = (properties: JsonObject, extra: JsonObject = {}): JsonObject => ({
  type: 'object',
  properties,
  ...extra,
});

/** 30 anyOf nested in one another, the bomb of threat C5. */
function nestedAnyOf(levels: number): JsonObject {
  let schema: JsonObject = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { anyOf: [schema] };
  return schema;
}

/** Each definition refers to the one below it twice: tiny as text, 2^levels subschemas once expanded. */
function refBomb(levels: number, combinator: 'anyOf' | 'properties'): JsonObject {
  const $defs: JsonObject = { d0: { type: 'string' } };
  for (let i = 1; i <= levels; i++) {
    const below = { $ref: `#/$defs/d${i - 1}` };
    $defs[`d${i}`] =
      combinator === 'anyOf'
        ? { anyOf: [below, below] }
        : { type: 'object', properties: { l: below, r: below } };
  }
  return object({ x: { $ref: `#/$defs/d${levels}` } }, { $defs });
}

/** The quickest of three runs: the pattern's cost, not the machine's load. */
function quickestMs(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('refuseDefinition: schema-borne attacks (C5)', () => {
  it('C5 a remote $ref is refused and nothing is fetched', async () => {
    let requests = 0;
    const server = createServer((_request, response) => {
      requests++;
      response.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/schema.json`;
      assert.equal(
        refuseDefinition(tool(object({ a: { $ref: url } }))),
        `inputSchema has an external $ref "${url}" at /properties/a: toolwire never fetches schemas; ` +
          'inline the referenced schema under $defs and point to it with "#/$defs/<name>"',
      );
      assert.equal(
        refuseDefinition(
          tool(object({}), { outputSchema: { $ref: 'http://169.254.169.254/latest/meta-data' } }),
        ),
        'outputSchema has an external $ref "http://169.254.169.254/latest/meta-data" at (root): toolwire never ' +
          'fetches schemas; inline the referenced schema under $defs and point to it with "#/$defs/<name>"',
      );
      // A round trip to the server: had anything been sent, it would have arrived first.
      await fetch(url);
      assert.equal(requests, 1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('C5 a cyclic $ref ends in a refusal, in a few steps', () => {
    const cyclic = tool(
      object({ x: { $ref: '#/$defs/a' } }, { $defs: { a: { $ref: '#/$defs/b' }, b: { $ref: '#/$defs/a' } } }),
    );
    const { reason, steps } = checkDefinition(cyclic);
    assert.equal(
      reason,
      'inputSchema has a recursive $ref "#/$defs/a" at /$defs/b: it leads back to a schema that contains it, which ' +
        'the gateway refuses (it cannot be expanded, and validating along it has no bound)',
    );
    assert.ok(steps < 100, `${steps} steps`);
    assert.equal(
      refuseDefinition(tool({ type: 'object', $ref: '#' })),
      'inputSchema has a recursive $ref "#" at (root): it leads back to a schema that contains it, which the ' +
        'gateway refuses (it cannot be expanded, and validating along it has no bound)',
    );
  });

  it('C5 recursion through properties (a tree) is refused too, and said where', () => {
    assert.equal(
      refuseDefinition(tool(object({ child: { $ref: '#' } }))),
      'inputSchema has a recursive $ref "#" at /properties/child: it leads back to a schema that contains it, ' +
        'which the gateway refuses (it cannot be expanded, and validating along it has no bound)',
    );
  });

  it('C5 a bomb of 30 nested anyOf is refused in bounded steps (and within 100 ms)', () => {
    const bomb = tool(object({ x: nestedAnyOf(30) }));
    const { reason, steps } = checkDefinition(bomb);
    assert.equal(
      reason,
      'inputSchema nests combinators (allOf, anyOf, oneOf, not, if, then, else) more than 10 deep (counting ' +
        'through $refs)',
    );
    assert.ok(steps < 500, `${steps} steps`);
    assert.ok(quickestMs(() => refuseDefinition(bomb)) < 100);
    assert.equal(refuseDefinition(tool(object({ x: nestedAnyOf(10) }))), undefined);
  });

  it('C5 a $ref bomb is refused before any expansion: 2^40 subschemas in 40 definitions', () => {
    const anyOfBomb = checkDefinition(tool(refBomb(40, 'anyOf')));
    assert.equal(
      anyOfBomb.reason,
      'inputSchema nests combinators (allOf, anyOf, oneOf, not, if, then, else) more than 10 deep (counting ' +
        'through $refs)',
    );
    const propertiesBomb = checkDefinition(tool(refBomb(40, 'properties')));
    assert.equal(
      propertiesBomb.reason,
      'inputSchema has more than 20000 subschemas once its $refs are expanded',
    );
    for (const { steps } of [anyOfBomb, propertiesBomb]) assert.ok(steps < 2000, `${steps} steps`);
  });

  it('C5 nesting through $refs is bounded like nesting in place', () => {
    const $defs: JsonObject = { d0: { type: 'string' } };
    for (let i = 1; i <= 40; i++) $defs[`d${i}`] = { type: 'array', items: { $ref: `#/$defs/d${i - 1}` } };
    assert.equal(
      refuseDefinition(tool(object({ x: { $ref: '#/$defs/d40' } }, { $defs }))),
      'inputSchema nests subschemas more than 32 deep (counting through $refs)',
    );
  });

  it('C5 the ReDoS pattern (a+)+$ is refused without being run', () => {
    assert.equal(
      refuseDefinition(tool(object({ x: { type: 'string', pattern: '(a+)+$' } }))),
      'inputSchema pattern "(a+)+$" at /properties/x/pattern has a repetition inside a repetition that can read ' +
        'the same text in more than one way, which the linear-time check does not accept',
    );
    assert.equal(
      refuseDefinition(tool(object({}, { patternProperties: { '^(a|a)*$': {} } }))),
      'inputSchema pattern "^(a|a)*$" at /patternProperties can read the same character in two ways at one step, ' +
        'on a repetition (an overlap between a repetition, an alternative and what follows), which makes ' +
        'backtracking slow',
    );
    assert.equal(
      refuseDefinition(tool(object({ x: { type: 'string', pattern: 7 } }))),
      'inputSchema has a pattern that is not a string at /properties/x/pattern',
    );
  });

  it('C5 every pattern of an accepted definition runs on 50×"a"+"!" in under 50 ms', () => {
    const patterns = [
      '^[a-z]+$',
      '^\\w+(?:-\\w+)*$',
      '^(\\d{1,3}\\.){3}\\d{1,3}$',
      '[a-z]+',
      '^https?://.+$',
    ];
    const properties = Object.fromEntries(
      patterns.map((pattern, i) => [`p${i}`, { type: 'string', pattern }]),
    );
    assert.equal(refuseDefinition(tool(object(properties))), undefined);
    for (const pattern of patterns) {
      const regex = new RegExp(pattern, 'u');
      assert.ok(quickestMs(() => regex.test(`${'a'.repeat(50)}!`)) < 50, pattern);
    }
  });

  const refused: [string, Tool, string][] = [
    [
      'a $ref that resolves to nothing',
      tool(object({ x: { $ref: '#/$defs/none' } })),
      'inputSchema has a $ref "#/$defs/none" at /properties/x that resolves to nothing',
    ],
    [
      'a $dynamicRef',
      tool(object({ x: { $dynamicRef: '#meta' } })),
      'inputSchema uses $dynamicRef or $recursiveRef at /properties/x, which the gateway does not follow',
    ],
    [
      'an embedded $id',
      tool(object({ x: { $id: 'https://example.com/x', type: 'string' } })),
      'inputSchema embeds a schema with its own $id at /properties/x; the gateway only follows references inside one schema',
    ],
    [
      'a $ref that is not a string',
      tool(object({ x: { $ref: 1 } })),
      'inputSchema has a $ref that is not a string at /properties/x',
    ],
    [
      'an inputSchema that is not an object',
      tool([] as unknown as JsonObject),
      'inputSchema is not a JSON object',
    ],
    [
      'an inputSchema whose root is not an object type',
      tool({ type: 'string' }),
      'inputSchema must have "type": "object" at the root (MCP requires it)',
    ],
    [
      'an outputSchema that is not an object',
      tool(object({}), { outputSchema: 'x' as unknown as JsonObject }),
      'outputSchema is not a JSON object',
    ],
  ];
  for (const [name, definition, reason] of refused) {
    it(`C5 ${name} is refused`, () => assert.equal(refuseDefinition(definition), reason));
  }

  it('C5 local references, anchors, $defs shared by many properties and boolean schemas are fine', () => {
    const shared = { $ref: '#/$defs/name' };
    const fine = tool(
      object(
        {
          a: shared,
          b: shared,
          c: { $ref: '#named' },
          d: { $ref: '#/$defs/yes' },
          e: { items: { $ref: '#/$defs/name' } },
        },
        { $defs: { name: { type: 'string', pattern: '^[a-z]+$' }, other: { $anchor: 'named' }, yes: true } },
      ),
      { outputSchema: object({ r: { anyOf: [{ type: 'string' }, { type: 'null' }] } }) },
    );
    assert.equal(refuseDefinition(fine), undefined);
  });
});

describe('refuseDefinition: sizes and names (C5, C6)', () => {
  it('C6 a 10 MB description is refused by its size, without scanning it', () => {
    const { reason, steps } = checkDefinition(
      tool(object({}), { description: 'x'.repeat(10 * 1024 * 1024) }),
    );
    assert.equal(reason, 'the definition is 10485841 bytes of JSON, over the limit of 131072');
    assert.ok(steps < 10, `${steps} steps`);
  });

  it('C6 the byte limit can be raised per gateway', () => {
    const big = tool(object({}), { description: 'x'.repeat(200_000) });
    assert.equal(refuseDefinition(big, { maxDefinitionBytes: 300_000 }), undefined);
  });

  it('C5 depth and node counts are bounded before anything else is walked', () => {
    let deep: JsonObject = {};
    for (let i = 0; i < 100; i++) deep = { not: deep };
    assert.equal(refuseDefinition(tool(deep)), 'the definition is nested deeper than 64 levels');
    const wide = Object.fromEntries(Array.from({ length: 21_000 }, (_, i) => [`p${i}`, {}]));
    const { reason, steps } = checkDefinition(tool(object(wide)), { maxDefinitionBytes: 10_000_000 });
    assert.equal(
      reason,
      `the definition has more than ${DEFAULT_DEFINITION_LIMITS.maxNodes} objects and arrays`,
    );
    assert.ok(steps <= DEFAULT_DEFINITION_LIMITS.maxNodes + 1, `${steps} steps`);
  });

  it('C5 a definition that contains itself (not JSON) is refused, not walked forever', () => {
    const schema: JsonObject = { type: 'object' };
    schema.properties = { self: schema };
    assert.equal(refuseDefinition(tool(schema)), 'the definition contains itself (it is not JSON)');
  });

  it('C5 the step budget caps the total work and says so', () => {
    assert.equal(
      refuseDefinition(tool(object({ a: { type: 'string' } })), { maxSteps: 3 }),
      'the definition takes more than 3 steps to check',
    );
  });

  const names: [string, unknown][] = [
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['with a space', 'read file'],
    ['with a zero-width space', 'read\u200bfile'],
    ['missing', undefined],
  ];
  for (const [label, name] of names) {
    it(`C5 a tool name ${label} is refused, quoted visibly`, () => {
      const shown = typeof name === 'string' ? JSON.stringify(name).replace('\u200b', '\\u200B') : 'missing';
      assert.equal(
        refuseDefinition({ name, inputSchema: { type: 'object' } } as unknown as Tool),
        `the tool name ${name === 'a'.repeat(129) ? `"${'a'.repeat(80)}..."` : shown} is not 1 to 128 characters of [A-Za-z0-9_.-] (MCP's rule for tool names)`,
      );
    });
  }

  it('C5 a realistic tool is accepted', () => {
    const realistic = tool(
      object(
        {
          path: { type: 'string', description: 'A path under the root', minLength: 1 },
          mode: { enum: ['read', 'write'], default: 'read' },
          ids: { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: 100 },
          since: { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' },
          filter: {
            oneOf: [{ type: 'string' }, { type: 'object', properties: { tag: { type: 'string' } } }],
          },
        },
        { required: ['path'], additionalProperties: false },
      ),
      { name: 'fs.read_file-v2', title: 'Read a file', annotations: { readOnlyHint: true } },
    );
    assert.equal(refuseDefinition(realistic), undefined);
  });
});
