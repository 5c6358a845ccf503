// Redaction stays linear on hostile input (threat E3): 1 MB strings built to make a backtracking pattern go quadratic
// (a near-match repeated, a long run that almost completes a shape) finish within a budget a loaded machine meets.
// A quadratic pattern would need minutes on 1 MB; a linear one takes milliseconds.

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import { redactSecrets, redactText } from './index.js';

const MB = 1024 * 1024;
/** Generous: 1 MB through every pattern takes well under a second even on a busy 2-core machine. */
const BUDGET_MS = 8000;

const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

const HOSTILE: readonly [name: string, input: string][] = [
  ['one letter', fill('a')],
  ['JWT-like runs joined by hyphens', fill('eyJaaaaaaaaa-')],
  ['JWT header and payload, no dot after', fill('eyJaaaaaaaa.eyJaaaaa')],
  ['private key openings without an end', fill('-----BEGIN PRIVATE KEY-----x')],
  ['almost a private key opening', fill('-----BEGIN A B C D PRIVATE')],
  ['AWS prefixes', fill('AKIA')],
  ['AWS secret names, 39 characters each', fill(`aws_secret_access_key=${'A'.repeat(39)} `)],
  ['GitHub prefixes with short bodies', fill('ghp_aaaa')],
  ['Bearer without a token', fill('Bearer ')],
  ['Bearer with letters only', fill('Bearer aaaaaaaaaaaaaaaaaaa ')],
  ['URL schemes without credentials', fill('a://b:c')],
  ['schemes and colons', fill('ab+c.d-e://x:')],
  ['password keys', fill('password=')],
  ['password keys with spaces', fill('password:        ')],
  ['digits with spaces', fill('1 ')],
  ['digits with hyphens', fill('4-')],
  ['digits', fill('4')],
  ['Slack webhook prefix', fill('https://hooks.slack.com/services/')],
  ['base64', fill('wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY')],
];

describe('redaction: linear time (E3)', () => {
  for (const [name, input] of HOSTILE) {
    it(`E3 1 MB of ${name} is redacted within the budget`, () => {
      const start = performance.now();
      const { text } = redactText(input);
      const elapsed = performance.now() - start;
      assert.ok(typeof text === 'string');
      assert.ok(elapsed < BUDGET_MS, `took ${elapsed.toFixed(0)} ms`);
    });
  }

  it('E3 a JSON value of 100,000 members is redacted within the budget', () => {
    const value = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, `value ${i} AKIA`]));
    const start = performance.now();
    redactSecrets(value);
    assert.ok(performance.now() - start < BUDGET_MS);
  });
});
