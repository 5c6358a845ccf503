// Property tests over arbitrary JSON (threats C1, C5): refuseDefinition, scanTool and stripTool never throw on any
// definition, refuseDefinition stays within its step budget, and stripping leaves no invisible character in prose.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Tool } from '../../protocol/index.js';
import { checkDefinition, DEFAULT_DEFINITION_LIMITS, scanTool, stripTool } from './index.js';
import { Meter } from '../../schema/pattern/index.js';
import { characterHits } from './text-rules.js';
import { forEachText } from './text-walk.js';

/** JSON with the keys and values that matter here mixed in: references, patterns, combinators, hidden characters. */
const hostileJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(
      '#',
      '#/$defs/a',
      '#/properties',
      '#a',
      'http://x/y',
      '(a+)+$',
      '^[a-z]+$',
      '<!-- x -->',
      'a\u200bb',
    ),
    fc.string({ unit: 'binary', maxLength: 12 }),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 4 }),
    tie('object'),
  ),
  object: fc.dictionary(
    fc.oneof(
      fc.constantFrom(
        '$ref',
        '$defs',
        'a',
        'anyOf',
        'allOf',
        'not',
        'properties',
        'pattern',
        'patternProperties',
      ),
      fc.constantFrom('items', 'description', 'title', 'enum', '$anchor', '$id', 'type', 'default'),
      fc.string({ maxLength: 6 }),
    ),
    tie('value'),
    { maxKeys: 5 },
  ),
})).object;

const asTool = (inputSchema: Record<string, unknown>, description: string): Tool =>
  ({ name: 'probe', description, inputSchema: { ...inputSchema, type: 'object' } }) as unknown as Tool;

describe('scan: any input (C1, C5)', () => {
  it('C5 property: refuseDefinition answers every definition within its step budget, never throwing', () => {
    fc.assert(
      fc.property(hostileJson, fc.string(), (schema, description) => {
        const { reason, steps } = checkDefinition(asTool(schema, description));
        assert.ok(reason === undefined || typeof reason === 'string');
        assert.ok(steps <= DEFAULT_DEFINITION_LIMITS.maxSteps + 1000, `${steps} steps`);
      }),
      { numRuns: 500 },
    );
  });

  it('C1 property: scanTool and stripTool never throw, and stripped prose has no invisible character left', () => {
    fc.assert(
      fc.property(hostileJson, fc.string({ unit: 'binary', maxLength: 40 }), (schema, description) => {
        const tool = asTool(schema, description);
        scanTool(tool);
        const left: string[] = [];
        forEachText(stripTool(tool) as unknown as Record<string, unknown>, new Meter(Infinity), (visit) => {
          if (visit.part === 'prose' && characterHits(visit.text).length > 0) left.push(visit.where);
        });
        assert.deepEqual(left, []);
      }),
      { numRuns: 500 },
    );
  });
});
