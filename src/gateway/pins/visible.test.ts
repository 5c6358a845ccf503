// C8 consent shows exactly what runs: a command line quoted by shellLine reads back, in a real bash, as the very
// words configured (controls and invisible characters escaped, not dropped), and JSON shown to an admin is inert.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import fc from 'fast-check';
import { inertJson, shellLine, shellWord, visibleLine } from './visible.js';

const bash = spawnSync('bash', ['-c', 'exit 0']).status === 0;

describe('shell quoting', () => {
  test('C8 words are bare, single-quoted, or $-quoted with escapes', () => {
    assert.equal(shellWord('@scope/pkg@1.2.3'), '@scope/pkg@1.2.3');
    assert.equal(shellWord('a b'), "'a b'");
    assert.equal(shellWord("it's"), "'it'\\''s'");
    assert.equal(shellWord(''), "''");
    assert.equal(shellWord('x\u001b[2J\u202e\n'), "$'x\\x1b[2J\\u202e\\n'");
    assert.equal(shellWord("a'\\\t"), "$'a\\'\\\\\\t'");
    assert.equal(shellWord('\u{E0041}'), "$'\\U000e0041'");
    assert.equal(shellLine(['A=1', 'A=1']), "'A=1' A=1");
    assert.equal(visibleLine('a\u0007b\u200bc\u{E0041}'), 'a\\x07b\\u200bc\\U{0e0041}');
    assert.equal(inertJson({ a: 'x\u202ey\u2028' }), '{"a":"x\\u202ey\\u2028"}');
  });

  test(
    'C8 every quoted command line reads back in bash as the words configured',
    { skip: bash ? false : 'no bash here' },
    () => {
      // Any text but NUL (argv cannot hold it) and lone surrogates (not UTF-8), weighted to the hostile characters.
      const char = fc.oneof(
        fc.constantFrom(
          ' ',
          "'",
          '"',
          '\\',
          '$',
          '`',
          '!',
          '*',
          '\n',
          '\t',
          '\r',
          '\u001b',
          '\u007f',
          '\u0085',
        ),
        fc.constantFrom('\u202e', '\u200b', '\u2028', '\ufeff', '\u{E0041}', 'é', '界', '👩‍💻'),
        fc.integer({ min: 1, max: 0x7e }).map((code) => String.fromCharCode(code)),
      );
      const words = fc.sample(
        fc.array(char, { maxLength: 12 }).map((chars) => chars.join('')),
        { numRuns: 300, seed: 8 },
      );
      const line = shellLine(['printf', '%s\\0', ...words]);
      const run = spawnSync('bash', ['-c', line], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH ?? '', LC_ALL: 'C.UTF-8' },
      });
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(run.stdout.split('\0').slice(0, -1), words);
    },
  );
});
