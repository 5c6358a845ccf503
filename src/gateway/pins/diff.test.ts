// The unified diff shown for a quarantined tool: the exact `diff -u` shape, and bounded on hostile sizes.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { unifiedDiff } from './diff.js';

const lines = (count: number, name = 'line'): string =>
  Array.from({ length: count }, (_, i) => `${name} ${i + 1}`).join('\n');

describe('unifiedDiff', () => {
  test('equal texts give no diff', () => {
    assert.equal(unifiedDiff('a\nb', 'a\nb'), '');
  });

  test('one changed line, with three lines of context each side', () => {
    const before = lines(10);
    const after = before.replace('line 5', 'line five');
    assert.equal(
      unifiedDiff(before, after, { oldLabel: 'pinned', newLabel: 'served' }),
      [
        '--- pinned',
        '+++ served',
        '@@ -2,7 +2,7 @@',
        ' line 2',
        ' line 3',
        ' line 4',
        '-line 5',
        '+line five',
        ' line 6',
        ' line 7',
        ' line 8',
      ].join('\n'),
    );
  });

  test('changes far apart make two hunks; an added line counts on the new side only', () => {
    const before = lines(20);
    const after = before.replace('line 2\n', 'line 2\nline 2b\n').replace('line 18', 'line 18!');
    assert.equal(
      unifiedDiff(before, after),
      [
        '--- old',
        '+++ new',
        '@@ -1,5 +1,6 @@',
        ' line 1',
        ' line 2',
        '+line 2b',
        ' line 3',
        ' line 4',
        ' line 5',
        '@@ -15,6 +16,6 @@',
        ' line 15',
        ' line 16',
        ' line 17',
        '-line 18',
        '+line 18!',
        ' line 19',
        ' line 20',
      ].join('\n'),
    );
  });

  test('from nothing: every line is added', () => {
    assert.equal(unifiedDiff('', 'a\nb'), '--- old\n+++ new\n@@ -0,0 +1,2 @@\n+a\n+b');
  });

  test('the output is cut at maxLines with a note saying how much is left out', () => {
    const diff = unifiedDiff(lines(1000, 'a'), lines(1000, 'b'), { maxLines: 10 });
    const out = diff.split('\n');
    assert.equal(out.length, 11);
    assert.equal(out[10], '… (diff cut: 1993 more lines)');
  });

  test('a 10 MB line is cut, and a diff too large for a table still finishes (all old, then all new)', () => {
    const huge = 'x'.repeat(10_000_000);
    const diff = unifiedDiff(`a\n${huge}`, `a\n${huge}y`);
    assert.ok(diff.length < 40_000, `diff is ${diff.length} characters`);
    assert.ok(diff.includes('… (10000001 characters)'), diff.slice(0, 200)); // the marker and the line
    const wide = unifiedDiff(lines(5000, 'a'), lines(5000, 'b'), { maxLines: 5 });
    assert.equal(wide.split('\n')[3], '-a 1');
  });
});
