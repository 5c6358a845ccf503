// D1 for execute_command: a working directory swapped for a symbolic link to outside, while the tool checks it and
// starts the program, never makes the program run outside the roots.

import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import type { CallToolResult } from '../src/protocol/index.js';
import { silentLogger } from '../src/server/index.js';
import type { VerificationMethod } from '../src/tools/confinement.js';
import { execPack } from '../src/tools/exec/index.js';
import { runProcess } from '../src/tools/exec/run-process.js';
import { openWorkingDirectory } from '../src/tools/exec/working-directory.js';
import { Roots } from '../src/tools/roots.js';
import { connect, modern, testServer, type RawClient } from './support/harness.js';
import { put, startSwapper } from './support/swapper.js';

/** Rounds of calls: at least MIN_ROUNDS, then until every probe has run in the real directory REACHED times. */
const MIN_ROUNDS = 100;
const REACHED = 3;
const MAX_ROUNDS = 3000;
const CALL_WAIT_MS = 30_000;

let base: string;

before(async () => {
  base = await fs.realpath(await fs.mkdtemp(join(tmpdir(), 'toolwire-exec-race-')));
});

after(async () => {
  await fs.rm(base, { recursive: true, force: true });
});

/** A root holding `sw/inner/` and an outside twin with the same names; `swap()` puts a link to the twin at `sw`. */
async function swappable(
  name: string,
): Promise<{ root: string; outside: string; swap: () => Promise<void> }> {
  const home = join(base, name);
  const outside = join(home, 'outside');
  const twin = join(outside, 'twin');
  const root = join(home, 'root');
  await put(join(root, 'sw', 'inner', 'note.txt'), 'public\n');
  await put(join(twin, 'inner', 'note.txt'), 'secret\n');
  await fs.symlink(twin, join(root, 'sw-alt'));
  return {
    root,
    outside,
    swap: async () => {
      await fs.rename(join(root, 'sw'), join(root, 'sw-was'));
      await fs.symlink(twin, join(root, 'sw'));
    },
  };
}

/** A client of a server whose exec pack may run pwd, confined to `roots`. */
async function pwdClient(roots: Roots): Promise<RawClient> {
  const server = testServer();
  const config = execPack.parseConfig({ allowlist: ['pwd'] }, 'packs.exec');
  for (const tool of execPack.create(config, { roots, logger: silentLogger, timeouts: {} }))
    server.tool(tool);
  return connect(server);
}

type Result = CallToolResult & { structuredContent?: JsonObject };

async function pwd(client: RawClient, cwd: string): Promise<Result> {
  const response = await client.request(
    'tools/call',
    modern({ name: 'execute_command', arguments: { command: 'pwd', cwd } }),
    { timeoutMs: CALL_WAIT_MS },
  );
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  return response.result as unknown as Result;
}

const textOf = (result: CallToolResult): string => {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : JSON.stringify(result);
};

/** The refusals a call with `cwd` may meet while `sw` flips: each says what happened. */
const refusals = (cwd: string): string[] => [
  `cwd: path "${cwd}" does not exist; list the directory to see what is there`,
  `cwd: path "${cwd}" resolves outside the allowed roots through a symbolic link; it is refused`,
  `cwd: path "${cwd}" led outside the allowed roots when it was opened (a directory on the way was moved or swapped for a symbolic link meanwhile); it is refused`,
  `cwd: path "${cwd}" was replaced by a symbolic link or another kind of entry while it was being opened; it is refused`,
  `cwd: path "${cwd}" disappeared while it was being opened; try again`,
  `cwd: path "${cwd}" changed while it was being opened; try again`,
];

const ledOutside = (cwd: string): string =>
  `cwd: path "${cwd}" led outside the allowed roots when it was opened (a directory on the way was moved or swapped for a symbolic link meanwhile); it is refused`;

interface Tally {
  reached: number;
  refused: number;
  leaks: number;
  unexpected: string[];
}

describe('D1: execute_command while the file system changes', () => {
  it('D1 a working directory swapped with a symbolic link to outside never makes execute_command run the program outside the roots', async (t) => {
    const { root, outside } = await swappable('race');
    const client = await pwdClient(await Roots.create([root]));
    // Each round runs these at once; sw itself and a directory below it are swapped differently (last place, on the way).
    const probes = ['sw', 'sw/inner', 'sw', 'sw/inner'];
    const tallies = new Map<string, Tally>(
      ['sw', 'sw/inner'].map((cwd) => [cwd, { reached: 0, refused: 0, leaks: 0, unexpected: [] }]),
    );
    const kinds = new Map<string, number>();
    const swapper = await startSwapper(root);
    let rounds = 0;
    try {
      const enough = (): boolean =>
        rounds >= MIN_ROUNDS && [...tallies.values()].every((tally) => tally.reached >= REACHED);
      while (swapper.running() && rounds < MAX_ROUNDS && !enough()) {
        rounds++;
        const answers = await Promise.all(probes.map((cwd) => pwd(client, cwd)));
        answers.forEach((result, index) => {
          const cwd = probes[index] as string;
          const tally = tallies.get(cwd) as Tally;
          if (JSON.stringify(result).includes(outside)) tally.leaks++;
          if (result.isError === true) {
            tally.refused++;
            const message = textOf(result);
            if (!refusals(cwd).includes(message) && tally.unexpected.length < 5)
              tally.unexpected.push(message);
            const kind = message.replace(/^cwd: path "[^"]*" /, '').split(/[;(]/)[0] ?? message;
            kinds.set(kind.trim(), (kinds.get(kind.trim()) ?? 0) + 1);
            return;
          }
          // Inside the root, pwd names the directory or (renamed for a moment by the swapper) sw-tmp.
          const stdout = String(result.structuredContent?.stdout);
          const expected = [join(root, cwd), join(root, cwd.replace(/^sw/, 'sw-tmp'))];
          if (expected.map((path) => `${path}\n`).includes(stdout)) tally.reached++;
          else if (!stdout.includes(outside) && tally.unexpected.length < 5)
            tally.unexpected.push(`pwd printed ${JSON.stringify(stdout)}`);
        });
      }
    } finally {
      await swapper.stop();
    }
    t.diagnostic(`${rounds} rounds of ${probes.length} calls`);
    for (const [cwd, tally] of tallies) {
      t.diagnostic(
        `cwd ${cwd}: ${tally.reached} ran inside, ${tally.refused} refused, ${tally.leaks} ran outside`,
      );
    }
    for (const [kind, count] of kinds) t.diagnostic(`refused ${count} times: ${kind}`);
    assert.deepEqual(
      [...tallies]
        .filter(([, tally]) => tally.leaks > 0)
        .map(([cwd, tally]) => `cwd ${cwd}: ${tally.leaks} programs ran outside the roots`),
      [],
    );
    for (const [cwd, tally] of tallies) {
      assert.deepEqual(tally.unexpected, [], `cwd ${cwd} answered unexpectedly`);
      assert.ok(tally.reached > 0, `cwd ${cwd} never ran in the swapped directory`);
    }
  });
});

for (const method of ['descriptor-path', 'inode-recheck'] as const satisfies readonly VerificationMethod[]) {
  describe(`D1: execute_command starts the program in the directory it verified (${method})`, () => {
    it(`D1 a working directory swapped for a link to outside between the check and the start of the program is refused, and nothing runs outside (${method})`, async () => {
      const { root, swap } = await swappable(`checked-${method}`);
      const roots = await Roots.create([root], { verification: method });
      // The hook: the tool checks the cwd through the roots, and the swap lands right after that check.
      const check = roots.resolve.bind(roots);
      let swapped = false;
      roots.resolve = async (...args) => {
        const resolved = await check(...args);
        if (!swapped) {
          swapped = true;
          await swap();
        }
        return resolved;
      };
      const client = await pwdClient(roots);
      const result = await pwd(client, 'sw/inner');
      assert.equal(swapped, true);
      assert.deepEqual(result.content, [{ type: 'text', text: ledOutside('sw/inner') }]);
      assert.equal(result.isError, true);
    });

    const opened = async (name: string) => {
      const { root, outside, swap } = await swappable(`${name}-${method}`);
      const roots = await Roots.create([root], { verification: method });
      const cwd = await openWorkingDirectory(await roots.resolve('sw/inner', 'directory'), 'sw/inner');
      await swap();
      return { root, outside, cwd };
    };
    const options = (program: string, args: string[], timeoutMs: number) => ({
      file: execPack.parseConfig({ allowlist: [program] }, 'packs.exec').commands.get(program) as string,
      args,
      env: {},
      timeoutMs,
      killGraceMs: 0,
      maxOutputBytes: 1024,
      signal: new AbortController().signal,
    });

    if (method === 'descriptor-path') {
      it('D1 a working directory swapped for a link to outside after it was opened and verified still starts the program in the verified directory, never outside (descriptor-path)', async () => {
        const { root, cwd } = await opened('opened');
        const outcome = await runProcess({ ...options('pwd', [], CALL_WAIT_MS), cwd });
        // The directory itself, where the swap moved it, not where the path now leads.
        assert.equal(outcome.stdout.text(), `${join(root, 'sw-was', 'inner')}\n`);
        assert.equal(outcome.exitCode, 0);
        // The handle was let go once the program had started.
        assert.notEqual(await fs.readlink(cwd.path).catch(() => 'closed'), join(root, 'sw-was', 'inner'));
      });
    } else {
      it('D1 a working directory swapped for a link to outside after it was opened and verified is refused once the program started, and the program is killed (inode-recheck)', async () => {
        const { outside, cwd } = await opened('opened');
        // The fallback starts programs by path, so this one starts outside; the check right after refuses the call
        // and kills it. runProcess settles only once it is gone, so a rejection here means it was killed.
        const start = runProcess({ ...options('sh', ['-c', 'pwd; exec sleep 600'], 600_000), cwd });
        await assert.rejects(start, (error: Error) => {
          assert.equal(error.message, ledOutside('sw/inner'));
          assert.equal(error.message.includes(outside), false);
          return true;
        });
      });
    }
  });
}
