// The character rules on their own (threats E1, E5): properties over any Unicode text, masking cases, and linear time
// on 1 MB hostile inputs built against each pattern.

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { UNSAFE_CHARACTER, cleanText, maskInternals } from './index.js';

const UNSAFE = new RegExp(UNSAFE_CHARACTER, 'u');

/** The characters cleanText may leave: newline, tab, CR before LF, a joiner between emoji, tags inside a flag. */
function onlyAllowedLeft(text: string): boolean {
  const chars = [...text];
  return chars.every((char, i) => {
    if (!UNSAFE.test(char) || char === '\n' || char === '\t') return true;
    if (char === '\r') return chars[i + 1] === '\n';
    if (char === '\u200d') return true; // checked by cleanText's own rule (joinsEmoji): covered by the E1 tests
    const code = char.codePointAt(0) ?? 0;
    return code >= 0xe0020 && code <= 0xe007f;
  });
}

describe('sanitise: character rules (E1)', () => {
  it('E1 property: no unsafe character is left, cleaning twice changes nothing, printable text is kept as is', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (input) => {
        const once = cleanText(input);
        assert.ok(onlyAllowedLeft(once), JSON.stringify(once));
        assert.equal(cleanText(once), once);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (input) => {
        if (!UNSAFE.test(input)) assert.equal(cleanText(input), input);
      }),
      { numRuns: 500 },
    );
  });

  it('E1 escape sequences go whole; an unterminated one loses its introducer and leaves inert text', () => {
    assert.equal(cleanText('a\x1b[38;2;255;0;0mb'), 'ab');
    assert.equal(cleanText('a\x1b]0;title'), 'a0;title'); // ESC ] taken as a two-character escape
    assert.equal(cleanText('a\x1b[12'), 'a12');
    assert.equal(cleanText('x\x1b(By'), 'xy');
  });
});

describe('sanitise: masking (E5)', () => {
  const cases: [string, string][] = [
    ['    at Object.<anonymous> (/work/app/index.js:3:9)\nnext', '    [stack trace removed]\nnext'],
    [
      'Traceback:\n  File "/app/x.py", line 3, in f\n    foo()\nValueError: x',
      'Traceback:\n    [stack trace removed]\nValueError: x',
    ],
    ['\tat com.acme.Db.query(Db.java:42)', '    [stack trace removed]'],
    ['open file:///var/lib/app/db.sqlite failed', 'open [internal path] failed'],
    ['\\\\fileserver\\share\\x.txt', '[internal path]'],
    [
      '169.254.169.254 and 100.64.0.1 and 127.0.0.1:8080',
      '[internal host] and [internal host] and [internal host]:8080',
    ],
    [
      'api.payments.svc:443 and nas.lan and host.docker.internal',
      '[internal host]:443 and [internal host] and [internal host]',
    ],
  ];
  for (const [input, expected] of cases) {
    it(`E5 masks ${JSON.stringify(input.slice(0, 40))}`, () => {
      assert.equal(maskInternals(input), expected);
    });
  }

  const kept = [
    'at least one item is needed; meet at noon',
    'see https://example.com/home/docs and /api/v1/users and 8.8.8.8 and version 10.1.2',
    'the value was 172.32.0.1 (public) and example.local.com',
    'use the argument "path" with a relative path like docs/readme.md',
  ];
  for (const input of kept) {
    it(`E5 leaves ${JSON.stringify(input.slice(0, 40))} as it is`, () => {
      assert.equal(maskInternals(input), input);
    });
  }
});

const MB = 1024 * 1024;
const BUDGET_MS = 8000;
const fill = (unit: string): string => unit.repeat(Math.ceil(MB / unit.length)).slice(0, MB);

describe('sanitise: linear time (E1, E5)', () => {
  const hostile: [string, string][] = [
    ['escape introducers', fill('\x1b[')],
    ['OSC openings without an end', fill('\x1b]0;')],
    ['CSI parameters without a final byte', `\x1b[${'1;'.repeat(MB / 2)}`],
    ['8-bit string introducers', fill('\u009dx')],
    ['zero-width characters', fill('\u200b')],
    ['joiners between emoji', fill('👩\u200d')],
    ['host-like labels', fill('a.')],
    ['labels before an almost-internal suffix', fill('a.b.c.internalx')],
    ['private-address-like numbers', fill('10.')],
    ['root directories', fill('/home')],
    ['frame-like lines', fill('    at x (y:1:')],
    ['colons and digits', fill(':1')],
    ['IPv6-like text', fill('fd12:')],
  ];
  for (const [name, input] of hostile) {
    it(`E1 E5 1 MB of ${name} is cleaned and masked within the budget`, () => {
      const start = performance.now();
      maskInternals(cleanText(input));
      const elapsed = performance.now() - start;
      assert.ok(elapsed < BUDGET_MS, `took ${elapsed.toFixed(0)} ms`);
    });
  }
});
