// Per-tool overrides: rename (a valid tool name, prefix kept, no collision), description, hide; bad shapes refused.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  checkOverrides,
  createNameTable,
  unusedOverrides,
  nameEntries,
  NamingError,
  type NamingErrorCode,
  type ToolOverride,
} from './index.js';

const overrides = (server: string, tools: Record<string, unknown>) =>
  new Map([[server, new Map(Object.entries(tools) as [string, ToolOverride][])]]);
const refused = (run: () => unknown, code: NamingErrorCode, message: string): void =>
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof NamingError);
    assert.equal(error.message, message);
    assert.equal(error.code, code);
    return true;
  });
const fs = (...names: string[]) => names.map((name) => ({ server: 'fs', name }));

describe('overrides', () => {
  it('renames the tool part only, and replaces the description', () => {
    const { entries, reports } = nameEntries(
      fs('read_text_file', 'list'),
      overrides('fs', { read_text_file: { rename: 'read', description: 'Reads a file.' } }),
    );
    assert.deepEqual(entries, [
      { exposed: 'fs___list', server: 'fs', name: 'list', alias: false },
      {
        exposed: 'fs___read',
        server: 'fs',
        name: 'read_text_file',
        alias: false,
        description: 'Reads a file.',
      },
    ]);
    assert.deepEqual(reports, []);
  });

  it('C3 a rename cannot leave its server: other___x stays under fs', () => {
    const { entries } = nameEntries(fs('x'), overrides('fs', { x: { rename: 'other___x' } }));
    assert.equal(entries[0]?.exposed, 'fs___other___x');
  });

  it('C7 a rename is the configurable short name of a long tool', () => {
    const long = 'search_issues_by_jql_query_v2_with_changelog';
    const { entries, reports } = nameEntries(
      [{ server: 'customer_internal_jira_onprem', name: long }],
      overrides('customer_internal_jira_onprem', { [long]: { rename: 'jql' } }),
    );
    assert.deepEqual(entries[0], {
      exposed: 'customer_internal_jira_onprem___jql',
      server: 'customer_internal_jira_onprem',
      name: long,
      alias: false,
    });
    assert.deepEqual(reports, []);
  });

  it('hides an entry, and reports it', () => {
    const { entries, reports } = nameEntries(fs('a', 'delete'), overrides('fs', { delete: { hide: true } }));
    assert.deepEqual(
      entries.map((entry) => entry.exposed),
      ['fs___a'],
    );
    assert.deepEqual(reports, [
      {
        kind: 'hidden',
        server: 'fs',
        name: 'delete',
        exposed: 'fs___delete',
        reason: 'hidden by the gateway configuration',
      },
    ]);
  });

  it('B5 hidden tool is not callable: its exposed name resolves to nothing', () => {
    const { entries } = nameEntries(fs('a', 'delete'), overrides('fs', { delete: { hide: true } }));
    const table = createNameTable(entries);
    assert.equal(table.resolve('fs___delete'), undefined);
    assert.equal(table.exposedName('fs', 'delete'), undefined);
    assert.equal(table.resolve('fs___a')?.name, 'a');
  });

  it('a hidden entry frees its name: another tool may be renamed onto it', () => {
    const { entries } = nameEntries(
      fs('read', 'read_v2'),
      overrides('fs', { read: { hide: true }, read_v2: { rename: 'read' } }),
    );
    assert.deepEqual(
      entries.map((entry) => [entry.exposed, entry.name]),
      [['fs___read', 'read_v2']],
    );
  });

  it('C3 a rename landing on another tool is a collision naming both sides: fatal at startup, neither served later', () => {
    refused(
      () =>
        nameEntries(fs('x', 'y'), overrides('fs', { x: { rename: 'y' } }), undefined, {
          strictRenames: true,
        }),
      'collision',
      'fs/x (renamed y) and fs/y both become fs___y',
    );
    // After startup the upstream may be the one that listed y: nothing of either is served, and it is said.
    assert.deepEqual(nameEntries(fs('x', 'y', 'z'), overrides('fs', { x: { rename: 'y' } })), {
      entries: [{ exposed: 'fs___z', server: 'fs', name: 'z', alias: false }],
      reports: [
        {
          kind: 'collision',
          server: 'fs',
          name: 'x',
          exposed: 'fs___y',
          reason: 'fs/x (renamed y) and fs/y both become fs___y, so none of them is served',
        },
      ],
    });
  });

  it('C3 a rename onto a reserved name is refused', () => {
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { rename: 'status' } }), new Set(['fs___status'])),
      'reserved',
      'fs/x (renamed status) becomes fs___status, a name the gateway reserves',
    );
  });

  it('a rename must be a valid tool name (spec: 1–128 of A-Z a-z 0-9 _ - .)', () => {
    const message = (shown: string) =>
      `the rename of fs/x to ${shown} is not a valid tool name: use 1–128 characters from A-Z, a-z, 0-9, "_", "-" and "."`;
    for (const [rename, shown] of [
      ['', 'an empty name'],
      ['two words', '"two words"'],
      ['a,b', '"a,b"'],
      ['r\u0435ad', '"r\\u0435ad"'],
      ['read\u200d', '"read\\u200d"'],
      ['x'.repeat(129), `"${'x'.repeat(80)}… (129 characters)"`],
    ] as const) {
      refused(() => nameEntries(fs('x'), overrides('fs', { x: { rename } })), 'bad-override', message(shown));
    }
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { rename: 7 } })),
      'bad-override',
      message('a number'),
    );
  });

  it('a valid rename that makes the exposed name over the budget is refused, not aliased', () => {
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { rename: 'r'.repeat(62) } })),
      'bad-override',
      `the rename of fs/x to "${'r'.repeat(62)}" makes fs___${'r'.repeat(62)} 67 characters, over the 64 allowed`,
    );
  });

  it('refuses an unknown key (a misspelt hide must not leave a tool exposed) and wrong types', () => {
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { hidden: true } })),
      'bad-override',
      'the override for fs/x has an unknown key "hidden" (allowed: rename, description, hide)',
    );
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { hide: 'yes' } })),
      'bad-override',
      '"hide" for fs/x must be true or false',
    );
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: { description: ['a'] } })),
      'bad-override',
      'the description override for fs/x must be a string',
    );
    refused(
      () => nameEntries(fs('x'), overrides('fs', { x: 'hide' })),
      'bad-override',
      'the override for fs/x must be an object',
    );
  });

  it('an override for a tool no upstream lists does nothing', () => {
    const { entries } = nameEntries(fs('x'), overrides('fs', { gone: { rename: 'y' } }));
    assert.deepEqual(
      entries.map((entry) => entry.exposed),
      ['fs___x'],
    );
  });
});

describe('unusedOverrides', () => {
  it('names overrides that match no listed tool, only for servers that listed something', () => {
    const config = new Map([
      [
        'fs',
        new Map([
          ['gone', { hide: true }],
          ['x', { rename: 'y' }],
          ['Gone', {}],
        ]),
      ],
      ['down', new Map([['z', { hide: true }]])],
    ]);
    assert.deepEqual(unusedOverrides(fs('x'), config), [
      { server: 'fs', name: 'Gone' },
      { server: 'fs', name: 'gone' },
    ]);
  });
});

describe('checkOverrides (at startup, upstreams not needed)', () => {
  it('accepts good overrides', () => {
    assert.doesNotThrow(() =>
      checkOverrides(overrides('fs', { a: { rename: 'b', description: 'd' }, c: { hide: true } })),
    );
  });

  it('refuses a bad server name, a bad override, two renames onto one name, a rename onto a reserved name', () => {
    refused(
      () => checkOverrides(overrides('a___b', { x: {} })),
      'bad-server-name',
      'overrides: server name "a___b" contains "___", the separator between server and tool names',
    );
    refused(
      () => checkOverrides(overrides('fs', { x: { rename: 'a b' } })),
      'bad-override',
      'the rename of fs/x to "a b" is not a valid tool name: use 1–128 characters from A-Z, a-z, 0-9, "_", "-" and "."',
    );
    refused(
      () => checkOverrides(overrides('fs', { x: { rename: 'z' }, y: { rename: 'z' } })),
      'collision',
      'fs/x and fs/y are both renamed to z',
    );
    refused(
      () => checkOverrides(overrides('fs', { x: { rename: 'z' } }), new Set(['fs___z'])),
      'reserved',
      'fs/x (renamed z) becomes fs___z, a name the gateway reserves',
    );
  });
});
