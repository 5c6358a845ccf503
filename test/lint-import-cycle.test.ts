// The no-import-cycle lint rule (eslint-rules/no-import-cycle.js), run through ESLint's Node API with the repo's own
// eslint.config.js on the fixtures in test/fixtures/import-cycle/: every import form counts, type-only ones too.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { ESLint } from 'eslint';

const repo = resolve(import.meta.dirname, '..');
const fixtures = 'test/fixtures/import-cycle';
const RULE = 'local/no-import-cycle';

// The repo's config as it is (so the plugin's registration is tested too), with the rule turned on for the fixtures,
// whose graph is rooted at the fixture folder; other rules are `eslint .`'s business, not this test's.
const eslint = new ESLint({
  cwd: repo,
  overrideConfig: [{ files: [`${fixtures}/**/*.ts`], rules: { [RULE]: ['error', { root: fixtures }] } }],
  ruleFilter: ({ ruleId }) => ruleId === RULE,
});

interface Finding {
  file: string;
  line: number;
  message: string;
}

const findings = (results: ESLint.LintResult[]): Finding[] =>
  results
    .flatMap((result) =>
      result.messages.map((message) => {
        assert.equal(message.ruleId, RULE, message.message);
        return { file: relative(repo, result.filePath), line: message.line, message: message.message };
      }),
    )
    .sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line);

const lint = async (set: string): Promise<Finding[]> =>
  findings(await eslint.lintFiles([`${fixtures}/${set}`]));

describe('no-import-cycle', () => {
  test('the repo config turns it on for every file of src/, with the graph rooted at src', async () => {
    const config = (await eslint.calculateConfigForFile('src/server/server.ts')) as {
      rules: Record<string, unknown>;
    };
    assert.deepEqual(config.rules[RULE], [2, { root: 'src' }]);
  });

  test('npm run lint fails on a cycle in src/: a re-export added to client/errors.ts that client/index.ts leads back to', async () => {
    const file = 'src/client/errors.ts';
    const text = `${readFileSync(resolve(repo, file), 'utf8')}\nexport type { McpClient } from './index.js';\n`;
    const line = text.split('\n').length - 1;
    assert.deepEqual(findings(await eslint.lintText(text, { filePath: resolve(repo, file) })), [
      { file, line, message: 'Import cycle: client/errors.ts → client/index.ts → client/errors.ts' },
    ]);
  });

  test('a two-file cycle of type-only imports (import type, inline type specifier) fails lint', async () => {
    assert.deepEqual(await lint('type-only'), [
      {
        file: `${fixtures}/type-only/a.ts`,
        line: 3,
        message: 'Import cycle: type-only/a.ts → type-only/b.ts → type-only/a.ts',
      },
      {
        file: `${fixtures}/type-only/b.ts`,
        line: 3,
        message: 'Import cycle: type-only/b.ts → type-only/a.ts → type-only/b.ts',
      },
    ]);
  });

  test('a three-file cycle of value imports names the whole path from each file', async () => {
    assert.deepEqual(await lint('value'), [
      {
        file: `${fixtures}/value/first.ts`,
        line: 3,
        message: 'Import cycle: value/first.ts → value/second.ts → value/third.ts → value/first.ts',
      },
      {
        file: `${fixtures}/value/second.ts`,
        line: 3,
        message: 'Import cycle: value/second.ts → value/third.ts → value/first.ts → value/second.ts',
      },
      {
        file: `${fixtures}/value/third.ts`,
        line: 3,
        message: 'Import cycle: value/third.ts → value/first.ts → value/second.ts → value/third.ts',
      },
    ]);
  });

  test('an export * from that leads back to its importer fails lint', async () => {
    assert.deepEqual(await lint('export-star'), [
      {
        file: `${fixtures}/export-star/index.ts`,
        line: 3,
        message: 'Import cycle: export-star/index.ts → export-star/shapes.ts → export-star/index.ts',
      },
      {
        file: `${fixtures}/export-star/shapes.ts`,
        line: 3,
        message: 'Import cycle: export-star/shapes.ts → export-star/index.ts → export-star/shapes.ts',
      },
    ]);
  });

  test('dynamic import(), side-effect imports, export * as, export type … from and import() types are edges too', async () => {
    assert.deepEqual(await lint('forms'), [
      {
        file: `${fixtures}/forms/edge.ts`,
        line: 5,
        message: 'Import cycle: forms/edge.ts → forms/node.ts → forms/edge.ts',
      },
      {
        file: `${fixtures}/forms/loader.ts`,
        line: 4,
        message: 'Import cycle: forms/loader.ts → forms/plugin.ts → forms/registry.ts → forms/loader.ts',
      },
      {
        file: `${fixtures}/forms/node.ts`,
        line: 3,
        message: 'Import cycle: forms/node.ts → forms/edge.ts → forms/node.ts',
      },
      {
        file: `${fixtures}/forms/plugin.ts`,
        line: 3,
        message: 'Import cycle: forms/plugin.ts → forms/registry.ts → forms/loader.ts → forms/plugin.ts',
      },
      {
        file: `${fixtures}/forms/registry.ts`,
        line: 3,
        message: 'Import cycle: forms/registry.ts → forms/loader.ts → forms/plugin.ts → forms/registry.ts',
      },
    ]);
  });

  test('an acyclic set (a diamond using every import form) passes', async () => {
    assert.deepEqual(await lint('acyclic'), []);
  });

  test('the text being linted counts, not the file on disk: an unsaved import that closes a cycle is reported, and forgotten once the file is linted as saved', async () => {
    const file = `${fixtures}/acyclic/shared.ts`;
    const text = "import { main } from './main.js';\n\nexport const entry = main;\n";
    assert.deepEqual(findings(await eslint.lintText(text, { filePath: resolve(repo, file) })), [
      { file, line: 1, message: 'Import cycle: acyclic/shared.ts → acyclic/main.ts → acyclic/shared.ts' },
    ]);
    // main.ts is linted before shared.ts: the edge shared → main the buffer added must be checked against the disk.
    assert.deepEqual(await lint('acyclic'), []);
  });
});
