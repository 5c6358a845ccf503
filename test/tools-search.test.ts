// The search pack: literal and regex search, .gitignore rules, skipped files, caps, and regular expressions that
// would hang a server (answered within the time budget).

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult, ContentBlock, ResourceLink } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import { ConfigError } from '../src/tools/pack.js';
import { Roots } from '../src/tools/roots.js';
import {
  Glob,
  IgnoreFile,
  MATCH_EVENTS_CHANNEL,
  isIgnored,
  searchPack,
  type MatchEvent,
} from '../src/tools/search/index.js';
import { connect, isNotification, modern, testServer, type RawClient } from './support/harness.js';

const CALL_WAIT_MS = 15_000;
// Captured at load, so a test that fakes setTimeout still has a real limit on how long it waits for events.
const realSetTimeout = globalThis.setTimeout;
const clearRealTimeout = globalThis.clearTimeout;
const MiB = 1024 * 1024;

let base: string;
let root: string;
let outside: string;
let client: RawClient;

async function searchClient(rootDirectories: string[], raw?: JsonObject): Promise<RawClient> {
  const roots = await Roots.create(rootDirectories);
  const server = testServer();
  const config = searchPack.parseConfig(raw, 'packs.search');
  for (const tool of searchPack.create(config, { roots, logger: silentLogger, timeouts: {} }))
    server.tool(tool);
  return connect(server);
}

async function search(
  args: JsonObject,
  target = client,
  meta: JsonObject = {},
  timeoutMs = CALL_WAIT_MS,
): Promise<CallToolResult> {
  const response = await target.request(
    'tools/call',
    modern({ name: 'search_code', arguments: args }, meta),
    {
      timeoutMs,
    },
  );
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as CallToolResult;
}

const textOf = (result: CallToolResult): string => {
  assert.notEqual(result.isError, true, JSON.stringify(result.content));
  const first = result.content[0];
  assert.ok(first?.type === 'text');
  return first.text;
};
const links = (result: CallToolResult): ResourceLink[] =>
  result.content.filter((block: ContentBlock): block is ResourceLink => block.type === 'resource_link');

function errorText(result: CallToolResult): string {
  assert.equal(result.isError, true, `expected an error, got ${JSON.stringify(result)}`);
  const first = result.content[0];
  assert.ok(first?.type === 'text' && result.content.length === 1);
  return first.text;
}

interface Structured {
  matches: { path: string; line: number; column: number; preview: string; context?: unknown }[];
  truncated: boolean;
  stoppedBy?: string;
  filesScanned: number;
  filesSkipped: { binary: number; tooLarge: number; unreadable: number };
}
const structured = (result: CallToolResult): Structured => result.structuredContent as Structured;
const matchedPaths = (result: CallToolResult): string[] => [
  ...new Set(structured(result).matches.map((match) => match.path)),
];

/** How a catastrophic pattern that used up its matching budget on line 1 of `file` is answered. */
const outOfMatchingBudget = (budgetMs: number, file: string): string =>
  `the pattern used up the ${budgetMs} ms matching budget of a search on line 1 of "${file}" without finishing it, ` +
  'which usually means a regular expression that backtracks catastrophically (nested quantifiers such as "(a+)+"); ' +
  'use a simpler regular expression, or set regex to false to search for the text literally';

/** Eight searches of 2 s of matching each share four threads: a generous bound on how long they may take together. */
const HOSTILE_WAIT_MS = 120_000;
/** A bound on waiting for pool events (they come within milliseconds; old code never sends them). */
const EVENT_WAIT_MS = 30_000;

/** The matching pool's events, recorded as they come; `until` waits (boundedly) for what it looks for. */
function matchEvents(): {
  list: MatchEvent[];
  until<T>(find: (list: MatchEvent[]) => T | undefined | false): Promise<T>;
  close(): void;
} {
  const list: MatchEvent[] = [];
  const checks = new Set<() => void>();
  const listener = (message: unknown): void => {
    list.push(message as MatchEvent); // published by match-events.ts, always a MatchEvent
    for (const check of [...checks]) check();
  };
  subscribe(MATCH_EVENTS_CHANNEL, listener);
  return {
    list,
    until: (find) =>
      new Promise((resolve, reject) => {
        const timer = realSetTimeout(() => {
          checks.delete(check);
          reject(new Error(`the events looked for did not come: ${JSON.stringify(list)}`));
        }, EVENT_WAIT_MS);
        const check = (): void => {
          const found = find(list);
          if (found === undefined || found === false) return;
          checks.delete(check);
          clearRealTimeout(timer);
          resolve(found);
        };
        checks.add(check);
        check();
      }),
    close: () => unsubscribe(MATCH_EVENTS_CHANNEL, listener),
  };
}

const searchesWith = (kind: MatchEvent['event'], list: readonly MatchEvent[]): Set<number> =>
  new Set(list.flatMap((event) => (event.event === kind && 'search' in event ? [event.search] : [])));

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'toolwire-search-')));
  root = join(base, 'root');
  outside = join(base, 'outside');
  await fs.mkdir(outside);
  await fs.writeFile(join(outside, 'secret.txt'), 'needle outside\n');
  const put = async (name: string, data: string | Uint8Array): Promise<void> => {
    await fs.mkdir(join(root, name, '..'), { recursive: true });
    await fs.writeFile(join(root, name), data);
  };
  await put(
    '.gitignore',
    [
      '# build output and logs',
      '',
      '*.log',
      '!keep.log',
      'build/',
      '/top-only.txt',
      'docs/**/*.tmp',
      '[abc]-ignored.txt',
      'secret?.txt',
      'trailing-space.txt   ',
      '\\#hash.txt',
    ].join('\n'),
  );
  await put('src/a.ts', 'const needle = 1;\nfunction Needle() {}\n// NEEDLE in a comment\n');
  await put('src/b.tsx', "export const x = 'needle';\n");
  await put('src/c.js', 'needle();\n');
  await put('src/build', 'a file named build: needle\n'); // "build/" only ignores directories
  await put('src/top-only.txt', 'needle: not the root one\n');
  await put('src/nested/.gitignore', 'generated.ts\n!important.log\n');
  await put('src/nested/generated.ts', 'const needle = "generated";\n');
  await put('src/nested/kept.ts', 'const needle = "kept";\n');
  await put('src/nested/important.log', 'needle in a re-included log\n');
  await put('src/nested/other.log', 'needle in an ignored log\n');
  await put('top-only.txt', 'needle\n');
  await put('keep.log', 'needle kept by negation\n');
  await put('debug.log', 'needle\n');
  await put('build/out.js', 'needle\n');
  await put('docs/x.tmp', 'needle\n');
  await put('docs/a/b/y.tmp', 'needle\n');
  await put('docs/guide.md', 'the needle in the docs\n');
  await put('a-ignored.txt', 'needle\n');
  await put('d-ignored.txt', 'needle, not ignored\n');
  await put('secret1.txt', 'needle\n');
  await put('secret12.txt', 'needle, two characters\n');
  await put('trailing-space.txt', 'needle\n');
  await put('#hash.txt', 'needle\n');
  await put('node_modules/pkg/index.js', 'needle\n');
  await put('.git/config', 'needle\n');
  await put('binary.bin', Buffer.concat([Buffer.from('needle'), Buffer.alloc(16)]));
  await put('huge.txt', `needle\n${'x'.repeat(MiB)}\n`);
  await fs.symlink(join(outside, 'secret.txt'), join(root, 'link-out.txt'));
  await fs.symlink(outside, join(root, 'linkdir-out'));
  await fs.symlink('src', join(root, 'link-in'));
  execFileSync('mkfifo', [join(root, 'fifo.txt')]);
  client = await searchClient([root]);
});

after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

describe('search pack: config', () => {
  it('has defaults', () => {
    assert.deepEqual(searchPack.parseConfig(undefined, 'packs.search'), {
      maxFileBytes: MiB,
      maxFiles: 50_000,
      timeBudgetMs: 5000,
      matchBudgetMs: 2000,
      matchingThreads: 4,
    });
  });

  it('rejects unknown keys and bad values, naming the key and what is allowed', () => {
    assert.throws(
      () => searchPack.parseConfig({ timeout: 1 }, 'packs.search'),
      new ConfigError(
        'packs.search has an unknown key "timeout"; allowed keys: maxFileBytes, maxFiles, timeBudgetMs, matchBudgetMs, matchingThreads',
      ),
    );
    assert.throws(
      () => searchPack.parseConfig({ timeBudgetMs: 0 }, 'packs.search'),
      new ConfigError(
        'packs.search.timeBudgetMs must be a whole number of milliseconds from 10 to 600000; got 0',
      ),
    );
    assert.throws(
      () => searchPack.parseConfig({ maxFiles: 2.5 }, 'packs.search'),
      new ConfigError('packs.search.maxFiles must be a whole number of files from 1 to 1000000; got 2.5'),
    );
    assert.throws(
      () => searchPack.parseConfig({ matchBudgetMs: 5 }, 'packs.search'),
      new ConfigError(
        'packs.search.matchBudgetMs must be a whole number of milliseconds from 10 to 600000; got 5',
      ),
    );
    assert.throws(
      () => searchPack.parseConfig({ matchingThreads: 0 }, 'packs.search'),
      new ConfigError('packs.search.matchingThreads must be a whole number of threads from 1 to 64; got 0'),
    );
  });
});

describe('search_code: definition', () => {
  it('is read-only, idempotent and closed-world, with a closed input schema', async () => {
    const response = await client.request('tools/list', modern());
    const [tool] = response.result?.tools as {
      name: string;
      annotations: unknown;
      inputSchema: JsonObject;
    }[];
    assert.equal(tool?.name, 'search_code');
    assert.deepEqual(tool.annotations, {
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.equal(tool.inputSchema.additionalProperties, false);
  });
});

describe('search_code: matching', () => {
  it('finds literal text case-insensitively, grep-style, honouring .gitignore, skipping what it must', async () => {
    const result = await search({ pattern: 'needle', maxResults: 100 });
    assert.equal(
      textOf(result),
      [
        '13 matches for "needle" in 11 files (13 files searched):',
        'd-ignored.txt:1:1: needle, not ignored',
        'docs/guide.md:1:5: the needle in the docs',
        'keep.log:1:1: needle kept by negation',
        'secret12.txt:1:1: needle, two characters',
        'src/a.ts:1:7: const needle = 1;',
        'src/a.ts:2:10: function Needle() {}',
        'src/a.ts:3:4: // NEEDLE in a comment',
        "src/b.tsx:1:19: export const x = 'needle';",
        'src/build:1:21: a file named build: needle',
        'src/c.js:1:1: needle();',
        'src/nested/important.log:1:1: needle in a re-included log',
        'src/nested/kept.ts:1:7: const needle = "kept";',
        'src/top-only.txt:1:1: needle: not the root one',
        'Skipped 1 binary file and 1 file over 1 MiB.',
      ].join('\n'),
    );
  });

  it('returns structured matches, the scan counts, and one resource link per matched file', async () => {
    const result = await search({ pattern: 'needle', path: 'src', fileType: 'ts' });
    assert.deepEqual(result.structuredContent, {
      matches: [
        { path: 'src/a.ts', line: 1, column: 7, preview: 'const needle = 1;' },
        { path: 'src/a.ts', line: 2, column: 10, preview: 'function Needle() {}' },
        { path: 'src/a.ts', line: 3, column: 4, preview: '// NEEDLE in a comment' },
        { path: 'src/nested/kept.ts', line: 1, column: 7, preview: 'const needle = "kept";' },
      ],
      truncated: false,
      filesScanned: 2,
      filesSkipped: { binary: 0, tooLarge: 0, unreadable: 0 },
    });
    assert.deepEqual(links(result), [
      {
        type: 'resource_link',
        uri: pathToFileURL(join(root, 'src', 'a.ts')).href,
        name: 'src/a.ts',
        mimeType: 'text/x-typescript',
        size: 62,
      },
      {
        type: 'resource_link',
        uri: pathToFileURL(join(root, 'src', 'nested', 'kept.ts')).href,
        name: 'src/nested/kept.ts',
        mimeType: 'text/x-typescript',
        size: 23,
      },
    ]);
  });

  it('matches case exactly when asked', async () => {
    const result = await search({ pattern: 'Needle', caseSensitive: true });
    assert.equal(
      textOf(result),
      '1 match for "Needle" in 1 file (13 files searched):\nsrc/a.ts:2:10: function Needle() {}\nSkipped 1 binary file and 1 file over 1 MiB.',
    );
  });

  it('treats the pattern literally by default and as a regular expression when asked', async () => {
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle();' })), ['src/c.js']);
    assert.equal(
      textOf(await search({ pattern: 'needle.*', path: 'src' })),
      'No matches for "needle.*" in 8 files.',
    );
    const regex = await search({ pattern: '^needle\\(\\);$|NEEDLE in', regex: true, caseSensitive: true });
    assert.deepEqual(structured(regex).matches, [
      { path: 'src/a.ts', line: 3, column: 4, preview: '// NEEDLE in a comment' },
      { path: 'src/c.js', line: 1, column: 1, preview: 'needle();' },
    ]);
  });

  it('reports columns in characters, not bytes or UTF-16 units', async () => {
    await fs.writeFile(join(root, 'src', 'unicode.md'), '😀 café needle\n');
    try {
      const result = await search({ pattern: 'needle', path: 'src/unicode.md' });
      assert.deepEqual(structured(result).matches, [
        { path: 'src/unicode.md', line: 1, column: 8, preview: '😀 café needle' },
      ]);
    } finally {
      await fs.rm(join(root, 'src', 'unicode.md'));
    }
  });

  it('filters by one or several file extensions', async () => {
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle', fileType: 'ts' })), [
      'src/a.ts',
      'src/nested/kept.ts',
    ]);
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle', fileType: '.tsx, *.js' })), [
      'src/b.tsx',
      'src/c.js',
    ]);
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle', fileType: 'MD' })), ['docs/guide.md']);
  });

  it('refuses a fileType that is not a list of extensions', async () => {
    assert.equal(
      errorText(await search({ pattern: 'needle', fileType: 'src/*.ts' })),
      'fileType "src/*.ts" is not a list of file extensions; give up to 20 extensions separated by commas, without wildcards, for example "ts" or "ts,tsx,md"',
    );
  });

  it('searches one subdirectory or one file, applying the .gitignore files above it', async () => {
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle', path: 'src/nested' })), [
      'src/nested/important.log',
      'src/nested/kept.ts',
    ]);
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle', path: 'src/nested/generated.ts' })), [
      'src/nested/generated.ts',
    ]);
  });

  it('cuts long lines to a window around the match', async () => {
    await fs.writeFile(join(root, 'src', 'long.txt'), `${'a'.repeat(500)}needle${'b'.repeat(500)}\n`);
    try {
      const [match] = structured(await search({ pattern: 'needle', path: 'src/long.txt' })).matches;
      assert.equal(match?.column, 501);
      assert.equal(match.preview, `…${'a'.repeat(50)}needle${'b'.repeat(144)}…`);
    } finally {
      await fs.rm(join(root, 'src', 'long.txt'));
    }
  });
});

describe('search_code: .gitignore', () => {
  const found = async (): Promise<string[]> =>
    matchedPaths(await search({ pattern: 'needle', maxResults: 100 }));

  it('ignores by extension, re-includes with "!", and lets a nested file re-include what the root ignores', async () => {
    const paths = await found();
    assert.ok(!paths.includes('debug.log'));
    assert.ok(paths.includes('keep.log'));
    assert.ok(paths.includes('src/nested/important.log'));
    assert.ok(!paths.includes('src/nested/other.log'));
    assert.ok(!paths.includes('src/nested/generated.ts'));
  });

  it('applies directory-only, anchored, **, class, ?, trailing-space and escaped patterns as git does', async () => {
    const paths = await found();
    assert.ok(!paths.includes('build/out.js') && paths.includes('src/build'));
    assert.ok(!paths.includes('top-only.txt') && paths.includes('src/top-only.txt'));
    assert.ok(
      !paths.includes('docs/x.tmp') && !paths.includes('docs/a/b/y.tmp') && paths.includes('docs/guide.md'),
    );
    assert.ok(!paths.includes('a-ignored.txt') && paths.includes('d-ignored.txt'));
    assert.ok(!paths.includes('secret1.txt') && paths.includes('secret12.txt'));
    assert.ok(!paths.includes('trailing-space.txt'));
    assert.ok(!paths.includes('#hash.txt'));
  });

  it('always skips .git/ and node_modules/, and never follows symbolic links or opens FIFOs', async () => {
    const paths = await found();
    for (const path of [
      '.git/config',
      'node_modules/pkg/index.js',
      'link-out.txt',
      'linkdir-out/secret.txt',
    ]) {
      assert.ok(!paths.includes(path), path);
    }
    assert.ok(!paths.some((path) => path.startsWith('link-in/')));
  });

  it('matches globs without backtracking: a hostile pattern costs linear time', () => {
    const glob = new Glob(`${'*a'.repeat(30)}*b`);
    const started = performance.now();
    assert.equal(glob.matches('a'.repeat(4000)), false);
    assert.ok(performance.now() - started < 500);
  });

  it('parses the common syntax', () => {
    const file = new IgnoreFile(
      [
        '# comment',
        '*.o',
        '!main.o',
        'logs/',
        '/root-only',
        'a/**/z',
        '**/deep',
        'lib/**',
        '[!x]y',
        '\\!bang',
        '',
      ].join('\n'),
    );
    const layers = [{ base: '', file }];
    const ignored = (path: string, directory = false): boolean => isIgnored(layers, path, directory);
    assert.equal(ignored('x/foo.o'), true);
    assert.equal(ignored('x/main.o'), false);
    assert.equal(ignored('logs', true), true);
    assert.equal(ignored('logs'), false);
    assert.equal(ignored('root-only'), true);
    assert.equal(ignored('sub/root-only'), false);
    assert.equal(ignored('a/z'), true);
    assert.equal(ignored('a/b/c/z'), true);
    assert.equal(ignored('b/a/z'), false);
    assert.equal(ignored('deep'), true);
    assert.equal(ignored('x/y/deep'), true);
    assert.equal(ignored('lib/x/y.js'), true);
    assert.equal(ignored('lib', true), false);
    assert.equal(ignored('ay'), true);
    assert.equal(ignored('xy'), false);
    assert.equal(ignored('!bang'), true);
    assert.equal(ignored('# comment'), false);
  });
});

describe('search_code: skipped files and caps', () => {
  it('skips binary files and files over the size cap, and says so', async () => {
    const result = await search({ pattern: 'zzz-not-there' });
    assert.equal(
      textOf(result),
      'No matches for "zzz-not-there" in 13 files.\nSkipped 1 binary file and 1 file over 1 MiB.',
    );
    assert.deepEqual(structured(result).filesSkipped, { binary: 1, tooLarge: 1, unreadable: 0 });
  });

  it('stops at maxResults and says there are more', async () => {
    const result = await search({ pattern: 'needle', maxResults: 2 });
    assert.equal(
      textOf(result),
      [
        '2 matches for "needle" in 2 files (4 files searched):',
        'd-ignored.txt:1:1: needle, not ignored',
        'docs/guide.md:1:5: the needle in the docs',
        'There are more matches: only the first 2 are shown. Narrow the search (path, fileType, a more specific pattern) or raise maxResults (up to 100).',
        'Skipped 1 binary file and 1 file over 1 MiB.',
      ].join('\n'),
    );
    assert.equal(structured(result).truncated, true);
    assert.equal(structured(result).stoppedBy, 'maxResults');
  });

  it('stops after maxFiles files', async () => {
    const limited = await searchClient([root], { maxFiles: 3 });
    const result = await search({ pattern: 'needle' }, limited);
    assert.equal(
      textOf(result),
      [
        '1 match for "needle" in 1 file (2 files searched):',
        'd-ignored.txt:1:1: needle, not ignored',
        'The search stopped after examining 3 files (its limit); narrow it with path or fileType.',
        'Skipped 1 binary file.',
      ].join('\n'),
    );
    assert.equal(structured(result).stoppedBy, 'maxFiles');
  });

  it('answers with what it found when the time budget runs out on a big tree', async () => {
    // 2,000 files cannot be opened, read and closed in 10 ms, so the walk stops at the budget.
    const big = join(base, 'big-tree');
    await fs.mkdir(big);
    for (let index = 0; index < 2000; index += 200) {
      await Promise.all(
        Array.from({ length: 200 }, (_, offset) =>
          fs.writeFile(join(big, `f${index + offset}.txt`), 'needle\n'),
        ),
      );
    }
    const hurried = await searchClient([big], { timeBudgetMs: 10 });
    const result = await search({ pattern: 'needle', maxResults: 100 }, hurried);
    assert.equal(structured(result).stoppedBy, 'timeBudget');
    assert.equal(structured(result).truncated, true);
    assert.ok(structured(result).filesScanned < 2000);
    assert.ok(
      textOf(result).endsWith(
        '\nThe search stopped at its 10 ms time budget; narrow it with path or fileType.',
      ),
      textOf(result),
    );
  });

  it('shows context lines, merging neighbours and separating runs with --', async () => {
    await fs.writeFile(
      join(root, 'src', 'context.txt'),
      ['one', 'needle two', 'three', 'needle four', 'five', 'six', 'seven', 'needle eight'].join('\n'),
    );
    try {
      const result = await search({ pattern: 'needle', path: 'src/context.txt', contextLines: 1 });
      assert.equal(
        textOf(result),
        [
          '3 matches for "needle" in 1 file (1 file searched):',
          'src/context.txt-1- one',
          'src/context.txt:2:1: needle two',
          'src/context.txt-3- three',
          'src/context.txt:4:1: needle four',
          'src/context.txt-5- five',
          '--',
          'src/context.txt-7- seven',
          'src/context.txt:8:1: needle eight',
        ].join('\n'),
      );
      assert.deepEqual(structured(result).matches[2], {
        path: 'src/context.txt',
        line: 8,
        column: 1,
        preview: 'needle eight',
        context: { before: ['seven'], after: [] },
      });
    } finally {
      await fs.rm(join(root, 'src', 'context.txt'));
    }
  });

  it('reports progress as files are scanned', async () => {
    const response = await client.request(
      'tools/call',
      modern({ name: 'search_code', arguments: { pattern: 'needle' } }, { progressToken: 'scan' }),
      { timeoutMs: CALL_WAIT_MS },
    );
    assert.equal(response.result?.isError, undefined);
    const progress = client
      .notifications()
      .filter((message) => isNotification('notifications/progress')(message));
    assert.equal(progress.at(-1)?.params?.progressToken, 'scan');
    assert.equal(progress.at(-1)?.params?.progress, 13);
  });
});

describe('search_code: several roots', () => {
  it('searches every root when no path is given, showing absolute paths; ignore files above a root do not count', async () => {
    const second = join(base, 'second-root');
    await fs.mkdir(second);
    await fs.writeFile(join(second, 'more.txt'), 'another needle\n');
    const both = await searchClient([join(root, 'src', 'nested'), second]);
    // The root .gitignore sits above the first root, so its "*.log" does not apply there.
    assert.deepEqual(matchedPaths(await search({ pattern: 'needle' }, both)), [
      join(root, 'src', 'nested', 'important.log'),
      join(root, 'src', 'nested', 'kept.ts'),
      join(root, 'src', 'nested', 'other.log'),
      join(second, 'more.txt'),
    ]);
  });
});

describe('search_code: hostile input', () => {
  it('answers a catastrophic regular expression within the time budget, and keeps serving', async () => {
    const evil = join(base, 'evil');
    await fs.mkdir(evil);
    await fs.writeFile(join(evil, 'aaa.txt'), `${'a'.repeat(64)}!\n`);
    const budgeted = await searchClient([evil], { timeBudgetMs: 1000 });
    const started = Date.now();
    const result = await search({ pattern: '(a+)+$', regex: true }, budgeted);
    const elapsed = Date.now() - started;
    assert.equal(
      errorText(result),
      'the pattern took longer than the 1000 ms time budget to run, which usually means a regular expression that backtracks catastrophically (nested quantifiers such as "(a+)+"); use a simpler regular expression, or set regex to false to search for the text literally',
    );
    assert.ok(elapsed < 4000, `answered after ${elapsed} ms`);
    assert.equal(
      textOf(await search({ pattern: '(a+)+!', regex: true }, budgeted)),
      `1 match for /(a+)+!/ in 1 file (1 file searched):\naaa.txt:1:1: ${'a'.repeat(64)}!`,
    );
  });

  it('answers many catastrophic searches at once, each within its matching budget', async () => {
    const evil = join(base, 'evil-many');
    await fs.mkdir(evil);
    await fs.writeFile(join(evil, 'aaa.txt'), `${'a'.repeat(64)}!\n`);
    const budgeted = await searchClient([evil], { matchBudgetMs: 600, timeBudgetMs: 60_000 });
    const results = await Promise.all(
      Array.from({ length: 6 }, () => search({ pattern: '(a+)+$', regex: true }, budgeted)),
    );
    for (const result of results) assert.equal(errorText(result), outOfMatchingBudget(600, 'aaa.txt'));
  });

  it('issue 12: a normal search is answered while eight hostile ones use up their matching budgets (it waited ~10 s for their threads)', async () => {
    const evil = join(base, 'evil-eight');
    await fs.mkdir(evil);
    await fs.writeFile(join(evil, 'aaa.txt'), `${'a'.repeat(64)}!\n`);
    await fs.writeFile(join(evil, 'normal.txt'), 'a needle here\n');
    const budgeted = await searchClient([evil], { matchBudgetMs: 2000, timeBudgetMs: 60_000 });
    const events = matchEvents();
    try {
      const finished: string[] = [];
      const hostile = Array.from({ length: 8 }, (_, index) =>
        search({ pattern: '(a+)+$', regex: true, path: 'aaa.txt' }, budgeted, {}, HOSTILE_WAIT_MS).then(
          (result) => {
            finished.push(`hostile ${index}`);
            return result;
          },
        ),
      );
      // All eight are in the pool and the four threads are busy with them before the normal search starts.
      await events.until(
        () =>
          searchesWith('queued', events.list).size === 8 && searchesWith('started', events.list).size >= 4,
      );
      const normal = await search({ pattern: 'needle', path: 'normal.txt' }, budgeted);
      finished.push('normal');
      assert.equal(
        textOf(normal),
        '1 match for "needle" in 1 file (1 file searched):\nnormal.txt:1:3: a needle here',
      );
      const results = await Promise.all(hostile);
      assert.equal(finished[0], 'normal', `finished in this order: ${finished.join(', ')}`);
      for (const result of results) assert.equal(errorText(result), outOfMatchingBudget(2000, 'aaa.txt'));
    } finally {
      events.close();
    }
  });

  it('issue 13: stops the matching thread when the tool times out, and goes on serving (on a frozen clock)', async (t) => {
    const evil = join(base, 'evil-timeout');
    await fs.mkdir(evil);
    await fs.writeFile(join(evil, 'aaa.txt'), `${'a'.repeat(64)}!\n`);
    const roots = await Roots.create([evil]);
    const server = testServer();
    const config = searchPack.parseConfig({ timeBudgetMs: 60_000 }, 'packs.search');
    const environment = { roots, logger: silentLogger, timeouts: { search_code: 300 } };
    for (const tool of searchPack.create(config, environment)) server.tool(tool);
    const timed = await connect(server);
    const events = matchEvents();
    // The tool's 300 ms limit passes when the test says so, not when a busy machine gets there: no race either way.
    t.mock.timers.enable({ apis: ['setTimeout'] });
    try {
      const pending = search({ pattern: '(a+)+$', regex: true }, timed);
      const started = await events.until((list) => list.find((event) => event.event === 'started'));
      t.mock.timers.tick(300);
      assert.equal(errorText(await pending), 'Tool "search_code" timed out after 300 ms');
      await events.until((list) =>
        list.find((event) => event.event === 'thread-exit' && event.thread === started.thread),
      );
      assert.deepEqual(
        events.list.filter((event) => event.event === 'stopped'),
        [{ event: 'stopped', search: started.search, thread: started.thread, cause: 'aborted' }],
      );
      // The clock is still frozen, so this call cannot time out: a thread serves it once the first one is gone.
      assert.equal(
        textOf(await search({ pattern: 'aaa!' }, timed)),
        `1 match for "aaa!" in 1 file (1 file searched):\naaa.txt:1:62: ${'a'.repeat(64)}!`,
      );
    } finally {
      events.close();
    }
  });

  it('reports invalid regular expression syntax with the engine message', async () => {
    assert.equal(
      errorText(await search({ pattern: '(unclosed', regex: true })),
      'pattern is not a valid regular expression (Invalid regular expression: /(unclosed/iu: Unterminated group); fix its syntax, or set regex to false to search for the text literally',
    );
    assert.equal(
      textOf(await search({ pattern: '(unclosed' })),
      'No matches for "(unclosed" in 13 files.\nSkipped 1 binary file and 1 file over 1 MiB.',
    );
  });

  it('refuses patterns over 1,000 characters and other schema violations', async () => {
    assert.equal(
      errorText(await search({ pattern: 'x'.repeat(1001) })),
      'Invalid arguments for tool "search_code":\n- pattern: must have at most 1000 characters (got 1001)',
    );
    assert.equal(
      errorText(await search({ pattern: '' })),
      'Invalid arguments for tool "search_code":\n- pattern: must have at least 1 character (got 0)',
    );
    assert.equal(
      errorText(await search({ pattern: 'x', maxResults: 101, contextLines: -1 })),
      'Invalid arguments for tool "search_code":\n- contextLines: must be >= 0 (got -1)\n- maxResults: must be <= 100 (got 101)',
    );
    assert.equal(
      errorText(await search({ pattern: 'x', glob: '*.ts' })),
      'Invalid arguments for tool "search_code":\n- glob: is not allowed (unknown property)',
    );
  });

  it('refuses paths outside the roots, encoded traversal and links out', async () => {
    assert.equal(
      errorText(await search({ pattern: 'needle', path: '../outside' })),
      `path "../outside" is outside the allowed roots (${root}); use a path inside them`,
    );
    assert.equal(
      errorText(await search({ pattern: 'needle', path: '/etc' })),
      `path "/etc" is outside the allowed roots (${root}); use a path inside them`,
    );
    assert.equal(
      errorText(await search({ pattern: 'needle', path: '%2e%2e%2f' })),
      'path "%2e%2e%2f" looks percent-encoded; give the plain path (for example "docs/a.txt")',
    );
    assert.equal(
      errorText(await search({ pattern: 'needle', path: 'linkdir-out' })),
      'path "linkdir-out" resolves outside the allowed roots through a symbolic link; it is refused',
    );
    assert.equal(
      errorText(await search({ pattern: 'needle', path: 'fifo.txt' })),
      'path "fifo.txt" is a FIFO, not a regular file or directory; it is refused',
    );
  });
});
