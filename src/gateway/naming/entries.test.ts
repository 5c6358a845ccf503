// Exposed names: always server___name, sorted, collisions refused naming both sides (C3), long names aliased and
// reported (C7), lookups exact (B5).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createNameTable, nameEntries, NamingError, type NameInput, type NamingErrorCode } from './index.js';

const none = new Map();
const names = (inputs: NameInput[], reserved?: ReadonlySet<string>) => nameEntries(inputs, none, reserved);
const refused = (run: () => unknown, code: NamingErrorCode, message: string): void =>
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof NamingError);
    assert.equal(error.message, message);
    assert.equal(error.code, code);
    return true;
  });

describe('nameEntries', () => {
  it('prefixes every name with its server, even with one upstream, and sorts by exposed name', () => {
    const { entries, reports } = names([
      { server: 'fs', name: 'write_file' },
      { server: 'fs', name: 'read_file' },
    ]);
    assert.deepEqual(entries, [
      { exposed: 'fs___read_file', server: 'fs', name: 'read_file', alias: false },
      { exposed: 'fs___write_file', server: 'fs', name: 'write_file', alias: false },
    ]);
    assert.deepEqual(reports, []);
  });

  it('sorts by code units, not by locale, whatever order the upstreams list in', () => {
    const inputs = ['b', 'B', 'a', 'a.b', 'a-b', 'a_b', '_', 'Z'].map((name) => ({ server: 'gh', name }));
    const exposed = names(inputs).entries.map((entry) => entry.name);
    assert.deepEqual(exposed, ['B', 'Z', '_', 'a', 'a-b', 'a.b', 'a_b', 'b']);
    assert.deepEqual(names([...inputs].reverse()).entries, names(inputs).entries);
  });

  it('C3 two servers with the same tool name both work under their own prefix', () => {
    const { entries } = names([
      { server: 'github', name: 'search' },
      { server: 'gitlab', name: 'search' },
    ]);
    assert.deepEqual(
      entries.map((entry) => [entry.exposed, entry.server, entry.name]),
      [
        ['github___search', 'github', 'search'],
        ['gitlab___search', 'gitlab', 'search'],
      ],
    );
  });

  it('C3 server a exposing b___c and server a___b exposing c cannot collide: a___b is refused as a server name', () => {
    refused(
      () =>
        names([
          { server: 'a', name: 'b___c' },
          { server: 'a___b', name: 'c' },
        ]),
      'bad-server-name',
      'server name "a___b" contains "___", the separator between server and tool names',
    );
    // Alone, a's tool keeps its own name after the prefix: the first "___" is always the separator.
    assert.equal(names([{ server: 'a', name: 'b___c' }]).entries[0]?.exposed, 'a___b___c');
  });

  it('C3 a trailing "_" in a server name is refused: a_ + _b would read as a + ___b', () => {
    refused(
      () => names([{ server: 'a_', name: '_b' }]),
      'bad-server-name',
      'server name "a_" must not end with "_" (it would run into the "___" separator)',
    );
  });

  it('C3 a reserved gateway tool name is rejected, naming the entry', () => {
    refused(
      () => names([{ server: 'gateway', name: 'status' }], new Set(['gateway___status'])),
      'reserved',
      'gateway/status becomes gateway___status, a name the gateway reserves',
    );
  });

  it('C3 an upstream listing one name twice is a collision, not a silent pick: neither is served, and it is said', () => {
    for (const strictRenames of [false, true]) {
      const named = nameEntries(
        [
          { server: 'fs', name: 'read' },
          { server: 'fs', name: 'write' },
          { server: 'fs', name: 'read' },
        ],
        none,
        undefined,
        { strictRenames },
      );
      assert.deepEqual(named.entries, [{ exposed: 'fs___write', server: 'fs', name: 'write', alias: false }]);
      assert.deepEqual(named.reports, [
        {
          kind: 'collision',
          server: 'fs',
          name: 'read',
          exposed: 'fs___read',
          reason: 'fs lists read twice (both would be fs___read), so none of them is served',
        },
      ]);
    }
  });

  it('C3 F5 an upstream naming a tool as the alias of its long one takes down neither the gateway nor its other tools', () => {
    const long = `q${'x'.repeat(70)}`;
    const alias = names([{ server: 'fs', name: long }]).entries[0]?.exposed ?? '';
    const short = alias.slice('fs___'.length);
    // Even at startup (strictRenames): no rename takes part, so only the upstream can have made it.
    const named = nameEntries(
      [
        { server: 'fs', name: long },
        { server: 'fs', name: short },
        { server: 'fs', name: 'read' },
        { server: 'gh', name: short },
      ],
      none,
      undefined,
      { strictRenames: true },
    );
    assert.deepEqual(
      named.entries.map((entry) => entry.exposed),
      ['fs___read', `gh___${short}`],
    );
    assert.deepEqual(named.reports, [
      {
        kind: 'collision',
        server: 'fs',
        name: short,
        exposed: alias,
        reason: `fs/${short} and fs/${long} (alias) both become ${alias}, so none of them is served`,
      },
    ]);
  });

  it('C7 customer_internal_jira_onprem/search_issues_by_jql_query_v2 fits in 64 characters and stays as it is', () => {
    const { entries, reports } = names([
      { server: 'customer_internal_jira_onprem', name: 'search_issues_by_jql_query_v2' },
    ]);
    assert.equal(entries[0]?.exposed, 'customer_internal_jira_onprem___search_issues_by_jql_query_v2');
    assert.equal(entries[0]?.exposed.length, 61);
    assert.equal(entries[0]?.alias, false);
    assert.deepEqual(reports, []);
  });

  it('C7 a longer name gets a deterministic short alias (readable start + hash) and a visible report', () => {
    const input = {
      server: 'customer_internal_jira_onprem',
      name: 'search_issues_by_jql_query_v2_with_changelog',
    };
    const alias = 'customer_internal_jira_onprem___search_issues_by_jql_qu_ffedb21c';
    const { entries, reports } = names([input]);
    assert.deepEqual(entries, [{ exposed: alias, ...input, alias: true }]);
    assert.equal(alias.length, 64);
    assert.deepEqual(reports, [
      {
        kind: 'alias',
        ...input,
        exposed: alias,
        reason:
          'customer_internal_jira_onprem/search_issues_by_jql_query_v2_with_changelog is exposed as ' +
          `${alias}: customer_internal_jira_onprem___… would be 76 characters, over the 64 allowed`,
      },
    ]);
  });

  it('C7 the alias depends only on server and name: not on other entries, their order, or the run', () => {
    const input = { server: 'jira', name: 'y'.repeat(100) };
    const alone = names([input]).entries[0]?.exposed;
    const crowded = names([
      { server: 'jira', name: 'z'.repeat(100) },
      input,
      { server: 'a', name: 'y'.repeat(100) },
    ]);
    assert.equal(
      crowded.entries.find((entry) => entry.name === input.name && entry.server === 'jira')?.exposed,
      alone,
    );
    assert.equal(alone, `jira___${'y'.repeat(48)}_cb4b5711`);
    assert.notEqual(
      names([{ server: 'a', name: input.name }]).entries[0]?.exposed.slice(-8),
      alone?.slice(-8),
    );
  });

  it('C7 a smaller budget (room for a host prefix) aliases the C7 name too', () => {
    const input = { server: 'customer_internal_jira_onprem', name: 'search_issues_by_jql_query_v2' };
    const { entries } = nameEntries([input], none, undefined, { maxLength: 56 });
    assert.deepEqual(entries, [
      { exposed: 'customer_internal_jira_onprem___search_issues_b_fc47e565', ...input, alias: true },
    ]);
    assert.throws(() => nameEntries([input], none, undefined, { maxLength: 40 }), {
      name: 'RangeError',
      message: 'maxLength must be an integer from 48 to 128',
    });
  });

  it('B5 names outside the spec charset are aliased and reported, never exposed as look-alikes', () => {
    const { entries, reports } = names([
      { server: 'fs', name: 'read_file' },
      { server: 'fs', name: 'read_file ' },
      { server: 'fs', name: 'r\u0435ad_file' },
      { server: 'fs', name: 'read\u200dfile' },
      { server: 'fs', name: '' },
    ]);
    assert.deepEqual(
      entries.map((entry) => [entry.exposed, entry.alias]),
      [
        ['fs___e4f425e1', true],
        ['fs___r_ad_file_b26aea07', true],
        ['fs___read_file', false],
        ['fs___read_file_96afc548', true],
        ['fs___read_file_da5bfd1e', true],
      ],
    );
    assert.deepEqual(
      reports.map((report) => report.reason),
      [
        'fs/"" is exposed as fs___e4f425e1: its name is empty',
        'fs/read_file\\u0020 is exposed as fs___read_file_96afc548: its name has characters outside A-Z, a-z, 0-9, "_", "-" and "."',
        'fs/read\\u200dfile is exposed as fs___read_file_da5bfd1e: its name has characters outside A-Z, a-z, 0-9, "_", "-" and "."',
        'fs/r\\u0435ad_file is exposed as fs___r_ad_file_b26aea07: its name has characters outside A-Z, a-z, 0-9, "_", "-" and "."',
      ],
    );
  });
});

describe('createNameTable', () => {
  const { entries } = names([
    { server: 'fs', name: 'read_file' },
    { server: 'a', name: 'b' },
  ]);
  const table = createNameTable(entries);

  it('resolves an exposed name, and finds the exposed name of an upstream entry', () => {
    assert.deepEqual(table.resolve('fs___read_file'), {
      exposed: 'fs___read_file',
      server: 'fs',
      name: 'read_file',
      alias: false,
    });
    assert.equal(table.exposedName('a', 'b'), 'a___b');
    assert.equal(table.exposedName('a', 'c'), undefined);
    assert.equal(table.size, 2);
  });

  it('B5 name-normalisation variants do not resolve: case, trailing space, zero-width joiner, Cyrillic homoglyph, double separator', () => {
    const variants = [
      'FS___read_file',
      'fs___READ_FILE',
      'fs___Read_file',
      'fs___read_file ',
      ' fs___read_file',
      'fs___read_file\t',
      'fs___read\u200dfile',
      'fs___read_file\u200d',
      '\u200dfs___read_file',
      'fs___r\u0435ad_file', // Cyrillic е
      'f\u0455___read_file', // Cyrillic ѕ
      'fs______read_file',
      'a______b',
      'a____b',
      'a__b',
      'fs__read_file',
      'fs___read%5Ffile',
      'read_file',
      'fs/read_file',
      'fs___read_file\u0000',
      'ｆｓ___read_file', // full-width letters, which NFKC would fold
    ];
    for (const variant of variants) assert.equal(table.resolve(variant), undefined, JSON.stringify(variant));
    for (const value of [undefined, null, 7, ['fs___read_file'], { toString: () => 'fs___read_file' }]) {
      assert.equal(table.resolve(value), undefined);
    }
  });
});
