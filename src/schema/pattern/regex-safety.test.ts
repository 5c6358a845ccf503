// The static ReDoS check (threat C5): the exact reason for each kind of slow pattern, realistic patterns accepted, and
// every accepted pattern fast on hostile input (a table, then fast-check over generated patterns).

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { Meter } from './meter.js';
import { MAX_PATTERN_LENGTH, patternProblem } from './index.js';

const NOT_ACCEPTED = ', which the linear-time check does not accept';
const OVERLAP =
  'can read the same character in two ways at one step, on a repetition (an overlap between a repetition, an ' +
  'alternative and what follows), which makes backtracking slow';
const WAYS =
  'can read the same text in more than 256 ways (overlapping choices one after another), which makes backtracking slow';
const NESTED = `has a repetition inside a repetition that can read the same text in more than one way${NOT_ACCEPTED}`;
const UNANCHORED =
  'is not anchored with ^ and repeats something that can read far and then fail, so every start position pays for ' +
  'it again: anchor it with ^';

/** The slowest of the three runs would measure the machine; the quickest measures the pattern. */
function quickestMs(run: () => void): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    run();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

describe('patternProblem: refused patterns (C5)', () => {
  const refused: [string, string][] = [
    ['(a+)+$', NESTED],
    ['^(a*)*$', `has a repetition of something that can match the empty string${NOT_ACCEPTED}`],
    ['^(a|b+)*$', NESTED],
    ['^(\\w+\\s?)*$', NESTED],
    ['^(a|a)*$', OVERLAP],
    ['^(a|ab)*$', OVERLAP],
    ['(a+){2}$', OVERLAP],
    ['^[^@]+@[^@]+\\.[^@]+$', OVERLAP],
    ['^a?a?a?a?a?aaaaa$', WAYS],
    ['^(?:a|a){9}b', WAYS],
    ['^(?:a|a){100}b', WAYS],
    [
      '^(?:(?:y?|z?)x)*$',
      `has two alternatives that can both match the empty string, in a repetition${NOT_ACCEPTED}`,
    ],
    ['[a-z]+$', UNANCHORED],
    ['\\d+x', UNANCHORED],
    // Found by fuzzing: a lookahead that always fails after a loop (each start position read to the end).
    ['a*(?!)', UNANCHORED],
    ['\\w+\\B', UNANCHORED],
    ['(a)\\1', `has a backreference${NOT_ACCEPTED}`],
    ['(?<n>a)\\k<n>', `has a backreference${NOT_ACCEPTED}`],
    ['(?<=a)b', `has a lookbehind${NOT_ACCEPTED}`],
    ['^(?!.*\\.\\.)[a-z.]+$', `has a lookahead that ${OVERLAP}${NOT_ACCEPTED}`],
    ['(?=[a-z]+)a', 'has a lookahead that reads without bound in a pattern not anchored with ^'],
    ['^(?:(?=a+)a)*$', `has a lookahead that reads without bound inside a repetition${NOT_ACCEPTED}`],
    ['(', 'is not a valid regular expression (with the u flag, as JSON Schema validators use it)'],
    ['\\q', 'is not a valid regular expression (with the u flag, as JSON Schema validators use it)'],
    ['a'.repeat(MAX_PATTERN_LENGTH + 1), `is longer than ${MAX_PATTERN_LENGTH} characters`],
    [`${'('.repeat(40)}a${')'.repeat(40)}`, `has groups nested deeper than 32${NOT_ACCEPTED}`],
    ['(?:(?:a{32}){32}){32}', `has more than 1024 steps once counts are unrolled${NOT_ACCEPTED}`],
  ];
  for (const [pattern, reason] of refused) {
    it(`C5 ${JSON.stringify(pattern.slice(0, 60))} is refused: ${reason.slice(0, 50)}`, () => {
      assert.equal(patternProblem(pattern), reason);
    });
  }

  it('C5 a small step budget refuses instead of working on', () => {
    assert.equal(
      patternProblem('^[a-z]+(?:-[a-z]+)*$', new Meter(10)),
      'is too complex to show that it runs in linear time',
    );
  });

  it('C5 the check itself takes bounded steps on the longest patterns it reads', () => {
    const meter = new Meter(Infinity);
    const alternatives = Array.from({ length: 100 }, (_, i) => `k${i}`).join('|');
    assert.equal(patternProblem(`^(?:${alternatives})$`, meter), undefined);
    assert.ok(meter.steps < 50_000, `${meter.steps} steps`);
  });
});

/** Patterns real tool schemas use; all must be accepted. */
const ACCEPTED = [
  '^[a-zA-Z0-9_-]+$',
  '^\\d{4}-\\d{2}-\\d{2}$',
  '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?(Z|[+-]\\d{2}:\\d{2})$',
  '^[a-z0-9]+(?:-[a-z0-9]+)*$',
  '^https?://.+$',
  '^(\\d{1,3}\\.){3}\\d{1,3}$',
  '(\\d{1,3}\\.){3}\\d{1,3}',
  '^\\+?[1-9]\\d{1,14}$',
  '^[A-Za-z0-9+/]*={0,2}$',
  '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
  '^\\w+@\\w+\\.\\w+$',
  '^(?!\\.)[a-z.]+$',
  '^\\p{L}+$',
  '^[a-z]{2,3}(-[A-Z]{2})?$',
  '^#[0-9a-fA-F]{6}$',
  '^(ab|cd)*$',
  '^.*$',
  '^[\\u{1F600}-\\u{1F64F}]+$',
  '[a-z]+',
  '(ab)+',
  'abc',
  '^v\\d+\\.\\d+\\.\\d+$',
  '^(GET|POST|PUT|DELETE)$',
  '^a?a?a?$',
  '^(?:x|y?|z?)$',
  '^(?:a|a){8}b',
  '',
];

describe('patternProblem: accepted patterns are fast on hostile input (C5)', () => {
  const hostile = ['a'.repeat(50) + '!', '1'.repeat(50) + '!', 'ab'.repeat(25) + '!', 'a.'.repeat(25) + '@'];
  for (const pattern of ACCEPTED) {
    it(`C5 ${JSON.stringify(pattern)} is accepted and each hostile input takes under 50 ms`, () => {
      assert.equal(patternProblem(pattern), undefined);
      const regex = new RegExp(pattern, 'u');
      for (const input of hostile) {
        const ms = quickestMs(() => regex.test(input));
        assert.ok(ms < 50, `${pattern} on ${input}: ${ms} ms`);
      }
    });
  }

  it('C5 property: any generated pattern the check accepts runs in linear time on long hostile input', () => {
    const atom = fc.constantFrom('a', 'b', '[ab]', '.', '\\d', '[^b]', '1', 'x', '\\w', '\\s');
    const pattern = fc.letrec((tie) => ({
      term: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        atom,
        fc
          .tuple(tie('node'), fc.constantFrom('*', '+', '?', '{2}', '{1,3}', '{2,}'))
          .map(([body, q]) => `(?:${body})${q}`),
      ),
      seq: fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((items) => items.join('')),
      node: fc.oneof(
        { depthSize: 'small' },
        tie('seq'),
        fc.tuple(tie('seq'), tie('seq')).map(([left, right]) => `${left}|${right}`),
      ),
    })).node;
    const anchored = fc
      .tuple(fc.boolean(), pattern, fc.boolean())
      .map(([start, body, end]) => `${start ? '^' : ''}(?:${body})${end ? '$' : ''}`);
    const n = 20_000;
    const inputs = [
      'a'.repeat(n) + '!',
      'ab'.repeat(n / 2) + '!',
      '1'.repeat(n) + 'b',
      ' a'.repeat(n / 2) + 'b',
    ];
    fc.assert(
      fc.property(anchored, (source) => {
        if (patternProblem(source) !== undefined) return;
        const regex = new RegExp(source, 'u');
        for (const input of inputs) {
          // Linear: well under a millisecond; a quadratic pattern on 20,000 characters takes seconds.
          const ms = quickestMs(() => regex.test(input));
          assert.ok(ms < 2000, `${source} took ${ms} ms`);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('C5 property: any string of regex tokens that compiles and is accepted runs in linear time', () => {
    const token = fc.constantFrom(
      ...[
        'a',
        'b',
        '1',
        ',',
        '.',
        '-',
        '/',
        '\\',
        '(',
        ')',
        '[',
        ']',
        '{',
        '}',
        '*',
        '+',
        '?',
        '|',
        '^',
        '$',
      ],
      ...['?:', '?=', '?!', 'd', 'w', 's', 'p{L}', 'b', 'B', 'u{1F600}', 'x41', '[^]', '\u00e9'],
    );
    const n = 20_000;
    const inputs = ['a'.repeat(n) + '!', 'ab'.repeat(n / 2), '1,'.repeat(n / 2) + '!'];
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 20 }).map((tokens) => tokens.join('')),
        (source) => {
          try {
            new RegExp(source, 'u');
          } catch {
            return;
          }
          if (patternProblem(source) !== undefined) return;
          const regex = new RegExp(source, 'u');
          for (const input of inputs) {
            const ms = quickestMs(() => regex.test(input));
            assert.ok(ms < 2000, `${source} took ${ms} ms`);
          }
        },
      ),
      { numRuns: 3000 },
    );
  });
});
