// D1 race tests: a second process that swaps a directory inside a root with a symbolic link to outside, bounded.

import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';

/** The swapper stops by itself after this long or this many swaps; normally the test stops it much sooner. */
const SWAP_MS = 120_000;
const MAX_SWAPS = 50_000_000;

/**
 * The swapper: `sw` is a real directory and `sw-alt` a symbolic link to the outside twin; each turn renames the
 * directory away, the link into its place, then both back (rename is atomic; without renameat2's exchange there is a
 * moment with no `sw` at all). A few stat calls hold the real directory in place a little longer, so that calls also
 * succeed often enough to show the test is not vacuous. It prints "ready" first.
 */
const SWAPPER = `
const { renameSync, statSync } = require('node:fs');
const { join } = require('node:path');
const [root, ms, max] = process.argv.slice(1);
const sw = join(root, 'sw'), alt = join(root, 'sw-alt'), tmp = join(root, 'sw-tmp');
process.stdout.write('ready\\n');
const end = Date.now() + Number(ms);
let swaps = 0;
while (swaps < Number(max) && Date.now() < end) {
  renameSync(sw, tmp);
  renameSync(alt, sw);
  renameSync(sw, alt);
  renameSync(tmp, sw);
  for (let i = 0; i < 4; i++) statSync(sw);
  swaps++;
}
`;

/** Writes `content` to `path`, creating its directory. */
export async function put(path: string, content: string): Promise<void> {
  await fs.mkdir(join(path, '..'), { recursive: true });
  await fs.writeFile(path, content);
}

/** Kills `child` (it runs no children of its own) and waits until it has exited. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  if (child.pid !== undefined) process.kill(child.pid, 'SIGKILL');
  await exited;
}

/** A running swapper: `running()` turns false when it ends by itself; `stop()` ends it and waits. */
export interface Swapper {
  running(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts the swapper on `root`, which must hold the directory `sw` and the link `sw-alt` to its outside twin, and
 * resolves once it is swapping.
 */
export async function startSwapper(root: string): Promise<Swapper> {
  const child = spawn(process.execPath, ['-e', SWAPPER, root, String(SWAP_MS), String(MAX_SWAPS)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let running = true;
  void once(child, 'exit').then(() => {
    running = false;
  });
  let output = '';
  child.stdout?.setEncoding('utf8');
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout?.on('data', (chunk: string) => {
        output += chunk;
        if (output.includes('ready\n')) resolve();
      });
      child.once('exit', () => reject(new Error(`the swapper exited before it was ready: ${output}`)));
    });
  } catch (error) {
    await stopChild(child);
    throw error;
  }
  return { running: () => running, stop: () => stopChild(child) };
}
