// Runs one program in its own process group, without a shell, and makes sure the whole group is gone at the end.

import { spawn, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { ToolError } from '../../server/index.js';
import { CappedOutput } from './capped-output.js';
import type { WorkingDirectory } from './working-directory.js';

export interface RunOptions {
  /** Absolute path of the program. */
  file: string;
  args: readonly string[];
  /** Opened and verified; runProcess confirms it once the program has started, and closes it. */
  cwd: WorkingDirectory;
  env: Readonly<Record<string, string>>;
  timeoutMs: number;
  killGraceMs: number;
  maxOutputBytes: number;
  /** Aborting it stops the program like a timeout does (without counting as one). */
  signal: AbortSignal;
}

export interface RunOutcome {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  durationMs: number;
  stdout: CappedOutput;
  stderr: CappedOutput;
}

/** After the final SIGKILL, how long to wait for the pipes to close (a process that left the group may hold them). */
const DRAIN_MS = 500;

const spawnFailure = (file: string, error: unknown): ToolError => {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const hint =
    code === 'E2BIG'
      ? 'the arguments are too long in total; pass fewer or shorter ones'
      : code === 'ENOENT'
        ? 'the program or the working directory no longer exists; ask the operator'
        : 'ask the operator to check the exec pack configuration';
  return new ToolError(`${file} could not be started (${code}): ${hint}`);
};

/** Signals the whole group; a group that is already gone (ESRCH) is fine. */
function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: nothing left in the group.
  }
}

/**
 * Spawns `file` directly (shell: false, so metacharacters in arguments are plain bytes) as the leader of a new
 * process group (detached), in the verified working directory. On timeout or abort the group gets SIGTERM, then
 * SIGKILL after killGraceMs; when the leader exits on its own, whatever it left in the group (background jobs) gets
 * SIGKILL at once. A working directory that turns out, once the program started, to have led outside the roots
 * (the 'inode-recheck' fallback only) kills the group at once and refuses the call, with none of its output.
 */
export async function runProcess(options: RunOptions): Promise<RunOutcome> {
  const { cwd } = options;
  const started = performance.now();
  let child: ChildProcess;
  try {
    // With cwd.path = /proc/self/fd/N, libuv's child puts its stdio on 0-2 before the chdir; N is above them (Node
    // keeps 0-2 open), and were it not, the chdir would meet /dev/null or a pipe and fail (ENOTDIR): it can fail,
    // never run the program elsewhere.
    child = spawn(options.file, options.args, {
      cwd: cwd.path,
      env: options.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (error) {
    try {
      // A working directory that changed on the way is what went wrong, rather than how the start failed.
      await cwd.confirm();
    } finally {
      await cwd.close();
    }
    throw spawnFailure(options.file, error);
  }
  // Watched from now on: the program may exit, or fail to start, while the check below waits.
  const outcome = supervise(child, options, started);
  outcome.catch(() => {}); // awaited below; this only keeps a rejection meanwhile from counting as unhandled
  try {
    await cwd.confirm();
  } catch (refusal) {
    signalGroup(child, 'SIGKILL');
    await outcome.catch(() => {});
    throw refusal;
  } finally {
    // The program has its own working directory now: the handle is not kept while it runs.
    await cwd.close();
  }
  return outcome;
}

/** Collects the output of a started program, and stops its group as runProcess describes. */
function supervise(child: ChildProcess, options: RunOptions, started: number): Promise<RunOutcome> {
  return new Promise((resolve, reject) => {
    const stdout = new CappedOutput(options.maxOutputBytes);
    const stderr = new CappedOutput(options.maxOutputBytes);
    child.stdout?.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    // A failing pipe just ends that stream's output; unhandled, the 'error' would take the whole server down.
    child.stdout?.on('error', () => {});
    child.stderr?.on('error', () => {});
    let timedOut = false;
    let settled = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let killTimer: NodeJS.Timeout | undefined;
    let drainTimer: NodeJS.Timeout | undefined;

    const finish = (): void => {
      if (settled || exit === undefined || child.pid === undefined) return;
      settled = true;
      clearTimeout(timeoutTimer);
      clearTimeout(drainTimer);
      options.signal.removeEventListener('abort', onAbort);
      resolve({
        exitCode: exit.code,
        signal: exit.signal,
        timedOut,
        durationMs: Math.round(performance.now() - started),
        stdout,
        stderr,
      });
    };
    const killNow = (): void => {
      clearTimeout(killTimer);
      signalGroup(child, 'SIGKILL');
      drainTimer ??= setTimeout(() => {
        child.stdout?.destroy();
        child.stderr?.destroy();
        finish();
      }, DRAIN_MS);
    };
    const stop = (): void => {
      if (killTimer !== undefined || exit !== undefined) return;
      signalGroup(child, 'SIGTERM');
      killTimer = setTimeout(killNow, options.killGraceMs);
    };
    const onAbort = (): void => stop();
    const timeoutTimer = setTimeout(() => {
      timedOut = true;
      stop();
    }, options.timeoutMs);

    child.on('error', (error) => {
      if (child.pid !== undefined || settled) return; // errors after a successful spawn surface as exit/close
      settled = true;
      clearTimeout(timeoutTimer);
      options.signal.removeEventListener('abort', onAbort);
      reject(spawnFailure(options.file, error));
    });
    child.once('exit', (code, signal) => {
      exit = { code, signal };
      clearTimeout(timeoutTimer);
      killNow();
    });
    child.once('close', finish);
    if (options.signal.aborted) stop();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });
}
