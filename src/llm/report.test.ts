// The compile report as people read it: unchanged tools not mentioned, renames shown, and a server's names and keys
// never able to start a line of their own or send control characters to a terminal.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { compileTools } from './compile-tools.js';
import { formatReport } from './report.js';

it('lists what changed or was left out, and why', () => {
  const report = compileTools(
    [
      { name: 'fine', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
      { name: 'a.b', inputSchema: { type: 'object', properties: { 'x y': { type: 'string' } } } },
      { name: 'list', inputSchema: { type: 'array' } },
    ],
    'anthropic',
  ).report;
  assert.equal(
    formatReport(report),
    [
      'anthropic: 2 tools converted, 1 left out',
      '  a.b (as a_b): changed',
      '    - renamed to "a_b" for anthropic\'s name rules',
      '    - renamed property "x y" at the root to "x_y"',
      '  list: left out: its root type is "array"; MCP and every model API need an object',
    ].join('\n'),
  );
});

it('H2 E1 names and keys from the server stay on one line, control characters escaped', () => {
  const report = compileTools(
    [
      {
        name: 'evil\nFAKE: ok\u001b[2J',
        inputSchema: { type: 'object', properties: { 'k\r\nx': { type: 'string' } } },
      },
    ],
    'anthropic',
  ).report;
  const lines = formatReport(report).split('\n');
  assert.deepEqual(lines, [
    'anthropic: 1 tool converted, 0 left out',
    '  "evil\\nFAKE: ok\\u001b[2J" (as evil_FAKE__ok__2J): changed',
    '    - renamed to "evil_FAKE__ok__2J" for anthropic\'s name rules',
    '    - renamed property "k\\r\\nx" at the root to "k__x"',
  ]);
});
