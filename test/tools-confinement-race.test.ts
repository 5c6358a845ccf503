// D1 under a race: a second process swaps a directory inside the root with a symbolic link to a directory outside
// it while every file tool runs in a loop; nothing from outside may ever appear in an answer.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import type { VerificationMethod } from '../src/tools/confinement.js';
import { csvPack } from '../src/tools/csv/index.js';
import { filesPack } from '../src/tools/files/index.js';
import { Roots, openDirectory, openRegularFile } from '../src/tools/roots.js';
import { searchPack } from '../src/tools/search/index.js';
import { readCandidate } from '../src/tools/search/read-candidate.js';
import { walkFiles, type Candidate } from '../src/tools/search/walk.js';
import { connect, modern, testServer, type RawClient } from './support/harness.js';
import { put, startSwapper } from './support/swapper.js';

/** In every outside file's content and in outside names: it must never reach an answer. */
const SECRET = 'SECRET_d1_7f3a9c';
/** Rounds of calls: at least MIN_ROUNDS, then until every probe has seen the real directory REACHED times. */
const MIN_ROUNDS = 100;
const REACHED = 3;
const MAX_ROUNDS = 3000;
const CALL_WAIT_MS = 30_000;

let base: string;
let root: string;
let client: RawClient;

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'toolwire-race-')));
  root = join(base, 'root');
  const twin = join(base, 'outside', 'twin');
  // The same names inside and outside, so a path checked inside opens outside when `sw` is swapped in between.
  await put(join(root, 'stable.txt'), 'needle stable\n');
  await put(join(root, 'sw', 'note.txt'), 'needle public note\n');
  await put(join(root, 'sw', 'data.csv'), 'name,value\npublic,1\n');
  await put(join(root, 'sw', 'inner', 'deep.txt'), 'needle public deep\n');
  await put(join(twin, 'note.txt'), `needle ${SECRET} note\n`);
  await put(join(twin, 'data.csv'), `${SECRET},value\n${SECRET},1\n`);
  await put(join(twin, `${SECRET}.txt`), `needle ${SECRET}\n`);
  await put(join(twin, 'inner', 'deep.txt'), `needle ${SECRET} deep\n`);
  await put(join(twin, 'inner', `${SECRET}-inner.txt`), `needle ${SECRET}\n`);
  await put(join(twin, '.gitignore'), `# ${SECRET}\n`);
  await fs.symlink(twin, join(root, 'sw-alt'));
  const roots = await Roots.create([root]);
  const server = testServer();
  const environment = { roots, logger: silentLogger, timeouts: {} };
  for (const tool of filesPack.create(filesPack.parseConfig(undefined, 'packs.files'), environment))
    server.tool(tool);
  for (const tool of searchPack.create(searchPack.parseConfig(undefined, 'packs.search'), environment))
    server.tool(tool);
  for (const tool of csvPack.create(csvPack.parseConfig(undefined, 'packs.csv'), environment))
    server.tool(tool);
  client = await connect(server);
});

after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

async function call(name: string, args: JsonObject): Promise<CallToolResult> {
  const response = await client.request('tools/call', modern({ name, arguments: args }), {
    timeoutMs: CALL_WAIT_MS,
  });
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as CallToolResult;
}

/** The refusals a call on `path` may meet while `sw` flips: each says what happened, none shows what is outside. */
const refusals = (path: string): string[] => [
  `path "${path}" does not exist; list the directory to see what is there`,
  `path "${path}" resolves outside the allowed roots through a symbolic link; it is refused`,
  `path "${path}" led outside the allowed roots when it was opened (a directory on the way was moved or swapped for a symbolic link meanwhile); it is refused`,
  `path "${path}" was replaced by a symbolic link or another kind of entry while it was being opened; it is refused`,
  `path "${path}" disappeared while it was being opened; try again`,
  `path "${path}" changed while it was being opened; try again`,
];

interface Probe {
  label: string;
  run: () => Promise<CallToolResult>;
  /** Refusals this call may answer with. */
  allowed: readonly string[];
  /** Whether a successful answer shows the swapped directory's (public) content. */
  reachedSwapped: (answer: string) => boolean;
}

const PROBES: readonly Probe[] = [
  {
    label: 'read_file sw/note.txt',
    run: () => call('read_file', { path: 'sw/note.txt' }),
    allowed: refusals('sw/note.txt'),
    reachedSwapped: (answer) => answer.includes('needle public note'),
  },
  {
    label: 'read_file sw/inner/deep.txt',
    run: () => call('read_file', { path: 'sw/inner/deep.txt' }),
    allowed: refusals('sw/inner/deep.txt'),
    reachedSwapped: (answer) => answer.includes('needle public deep'),
  },
  {
    label: 'list_directory sw',
    run: () => call('list_directory', { path: 'sw', includeHidden: true }),
    allowed: refusals('sw'),
    reachedSwapped: (answer) => answer.includes('note.txt'),
  },
  {
    label: 'list_directory sw/inner',
    run: () => call('list_directory', { path: 'sw/inner' }),
    allowed: refusals('sw/inner'),
    reachedSwapped: (answer) => answer.includes('deep.txt'),
  },
  {
    label: 'search_code in every root',
    run: () => call('search_code', { pattern: 'needle' }),
    allowed: [],
    reachedSwapped: (answer) => answer.includes('needle public'),
  },
  {
    label: 'search_code in sw',
    run: () => call('search_code', { pattern: 'needle', path: 'sw' }),
    allowed: refusals('sw'),
    reachedSwapped: (answer) => answer.includes('needle public'),
  },
  {
    label: 'analyze_csv sw/data.csv',
    run: () => call('analyze_csv', { path: 'sw/data.csv', operations: ['count', 'distinct'] }),
    allowed: refusals('sw/data.csv'),
    reachedSwapped: (answer) => answer.includes('public'),
  },
];

interface Tally {
  reached: number;
  refused: number;
  leaks: number;
  unexpected: string[];
}

/** The refusal's kind, for the counts the test prints: its words after the path. */
const kindOf = (message: string): string =>
  message
    .replace(/^\w+ "[^"]*" /, '')
    .split(/[;(]/)[0]
    ?.trim() ?? message;

describe('D1: confinement while the file system changes', () => {
  it('D1 a directory swapped with a symbolic link to outside never lets read_file, list_directory, search_code or analyze_csv answer with outside content', async (t) => {
    const tallies = new Map<string, Tally>(
      PROBES.map((probe) => [probe.label, { reached: 0, refused: 0, leaks: 0, unexpected: [] }]),
    );
    let rounds = 0;
    const kinds = new Map<string, number>();
    const swapper = await startSwapper(root);
    try {
      const enough = (): boolean =>
        rounds >= MIN_ROUNDS && [...tallies.values()].every((tally) => tally.reached >= REACHED);
      while (swapper.running() && rounds < MAX_ROUNDS && !enough()) {
        rounds++;
        const answers = await Promise.all(PROBES.map((probe) => probe.run()));
        answers.forEach((result, index) => {
          const probe = PROBES[index] as Probe;
          const tally = tallies.get(probe.label) as Tally;
          const answer = JSON.stringify(result);
          if (answer.includes(SECRET)) tally.leaks++;
          if (result.isError === true) {
            tally.refused++;
            const first = result.content[0];
            const message = first?.type === 'text' ? first.text : answer;
            if (!probe.allowed.includes(message) && tally.unexpected.length < 5)
              tally.unexpected.push(message);
            kinds.set(kindOf(message), (kinds.get(kindOf(message)) ?? 0) + 1);
          } else if (probe.reachedSwapped(answer)) tally.reached++;
        });
      }
    } finally {
      await swapper.stop();
    }
    t.diagnostic(`${rounds} rounds of ${PROBES.length} calls`);
    for (const [label, tally] of tallies) {
      t.diagnostic(`${label}: ${tally.reached} reached sw, ${tally.refused} refused, ${tally.leaks} leaked`);
    }
    for (const [kind, count] of kinds) t.diagnostic(`refused ${count} times: ${kind}`);
    const leaks = [...tallies].filter(([, tally]) => tally.leaks > 0);
    assert.deepEqual(
      leaks.map(([label, tally]) => `${label}: ${tally.leaks} answers held outside content`),
      [],
    );
    for (const [label, tally] of tallies) {
      assert.deepEqual(tally.unexpected, [], `${label} refused with an unexpected message`);
      assert.ok(tally.reached > 0, `${label} never answered with the swapped directory's content`);
    }
  });
});

/** A root with `sw/` (public files) and an outside twin with the same names (secret files), swapped by `swap()`. */
async function swappable(name: string): Promise<{ root: string; swap: () => Promise<void> }> {
  const home = join(base, name);
  const twin = join(home, 'outside', 'twin');
  const inside = join(home, 'root');
  await put(join(inside, 'a.txt'), 'needle public a\n');
  await put(join(inside, 'sw', 'a.txt'), 'needle public sw/a\n');
  await put(join(inside, 'sw', 'note.txt'), 'needle public note\n');
  await put(join(inside, 'sw', 'inner', 'deep.txt'), 'needle public deep\n');
  await put(join(twin, 'note.txt'), `needle ${SECRET} note\n`);
  await put(join(twin, 'inner', 'deep.txt'), `needle ${SECRET} deep\n`);
  await put(join(twin, 'inner', 'more.txt'), `needle ${SECRET} more\n`);
  return {
    root: inside,
    swap: async () => {
      await fs.rename(join(inside, 'sw'), join(inside, 'sw-was'));
      await fs.symlink(twin, join(inside, 'sw'));
    },
  };
}

const ledOutside = (path: string): { message: string } => ({
  message: `path "${path}" led outside the allowed roots when it was opened (a directory on the way was moved or swapped for a symbolic link meanwhile); it is refused`,
});
const replaced = (path: string): { message: string } => ({
  message: `path "${path}" was replaced by a symbolic link or another kind of entry while it was being opened; it is refused`,
});

for (const method of ['descriptor-path', 'inode-recheck'] as const satisfies readonly VerificationMethod[]) {
  describe(`D1: what is opened is verified, not the path that was checked (${method})`, () => {
    it(`D1 a file whose directory is swapped for a link to outside after the check is refused once opened (${method})`, async () => {
      const { root: inside, swap } = await swappable(`file-${method}`);
      const roots = await Roots.create([inside], { verification: method });
      const deep = await roots.resolve('sw/inner/deep.txt', 'file');
      const note = await roots.resolve('sw/note.txt', 'file');
      await swap();
      await assert.rejects(openRegularFile(deep, 'sw/inner/deep.txt'), ledOutside('sw/inner/deep.txt'));
      await assert.rejects(openRegularFile(note, 'sw/note.txt'), ledOutside('sw/note.txt'));
    });

    it(`D1 a file swapped for a link to outside after the check is refused at the open (${method})`, async () => {
      const { root: inside } = await swappable(`last-${method}`);
      const roots = await Roots.create([inside], { verification: method });
      const note = await roots.resolve('sw/note.txt', 'file');
      await fs.rm(join(inside, 'sw', 'note.txt'));
      await fs.symlink(join(inside, '..', 'outside', 'twin', 'note.txt'), join(inside, 'sw', 'note.txt'));
      await assert.rejects(openRegularFile(note, 'sw/note.txt'), replaced('sw/note.txt'));
    });

    it(`D1 a directory swapped for a link to outside, or below one, after the check is refused once opened (${method})`, async () => {
      const { root: inside, swap } = await swappable(`directory-${method}`);
      const roots = await Roots.create([inside], { verification: method });
      const sw = await roots.resolve('sw', 'directory');
      const inner = await roots.resolve('sw/inner', 'directory');
      await swap();
      await assert.rejects(openDirectory(sw, 'sw'), replaced('sw'));
      await assert.rejects(openDirectory(inner, 'sw/inner'), ledOutside('sw/inner'));
    });

    it(`D1 a search walk whose directory is swapped for a link to outside mid-walk reads nothing from outside (${method})`, async () => {
      const { root: inside, swap } = await swappable(`walk-${method}`);
      const roots = await Roots.create([inside], { verification: method });
      const start = { root: inside, relative: '.', confinement: roots.confinement, shown: '.' };
      const seen: Candidate[] = [];
      const texts: string[] = [];
      for await (const candidate of walkFiles(start, undefined, () => true)) {
        seen.push(candidate);
        // The walk has listed sw/ and yields sw/a.txt first: swap sw/ now, before it opens sw/inner/ and
        // before sw/note.txt (already listed) is read.
        if (candidate.relative === 'sw/a.txt') await swap();
        const read = await readCandidate(candidate, 1024);
        if (read.kind === 'text') texts.push(read.text);
      }
      assert.deepEqual(
        seen.map((candidate) => candidate.relative),
        ['a.txt', 'sw/a.txt', 'sw/note.txt'],
      );
      assert.deepEqual(texts, ['needle public a\n']);
      const inner = { ...start, relative: 'sw/inner', shown: 'sw/inner' };
      await assert.rejects(async () => {
        for await (const candidate of walkFiles(inner, undefined, () => true)) seen.push(candidate);
      }, ledOutside('sw/inner'));
    });
  });
}

describe('D1: hard links', () => {
  it('D1 refuseHardLinks on the roots holds for every pack: analyze_csv refuses, search_code skips the file as unreadable', async () => {
    const home = join(base, 'hard-links');
    const inside = join(home, 'root');
    await put(join(home, 'outside', 'secret.csv'), `${SECRET},value\nneedle,1\n`);
    await put(join(inside, 'public.csv'), 'name,value\nneedle,1\n');
    await fs.link(join(home, 'outside', 'secret.csv'), join(inside, 'hard.csv'));
    const roots = await Roots.create([inside], { refuseHardLinks: true });
    const server = testServer();
    const environment = { roots, logger: silentLogger, timeouts: {} };
    for (const tool of searchPack.create(searchPack.parseConfig(undefined, 'packs.search'), environment))
      server.tool(tool);
    for (const tool of csvPack.create(csvPack.parseConfig(undefined, 'packs.csv'), environment))
      server.tool(tool);
    const strict = await connect(server);
    const ask = async (name: string, args: JsonObject): Promise<CallToolResult> => {
      const response = await strict.request('tools/call', modern({ name, arguments: args }));
      return response.result as unknown as CallToolResult;
    };
    const csv = await ask('analyze_csv', { path: 'hard.csv', operations: ['count'] });
    assert.equal(csv.isError, true);
    assert.deepEqual(csv.content, [
      {
        type: 'text',
        text: 'file "hard.csv" has 2 hard links, so it may be the same file as one outside the allowed roots; hard-linked files are refused here (refuseHardLinks is on)',
      },
    ]);
    const found = await ask('search_code', { pattern: 'needle' });
    assert.equal(JSON.stringify(found).includes(SECRET), false);
    const structured = found.structuredContent as {
      matches: { path: string }[];
      filesSkipped: { unreadable: number };
    };
    assert.deepEqual(
      structured.matches.map((match) => match.path),
      ['public.csv'],
    );
    assert.equal(structured.filesSkipped.unreadable, 1);
  });
});
