// The working directory of one execute_command call: opened and verified like every directory a tool reads
// (confinement.ts), then handed to spawn as the opened directory itself rather than as a path to look up again.

import { ToolError } from '../../server/index.js';
import type { OpenedDirectory } from '../confinement.js';
import { openDirectory, type ResolvedPath } from '../roots.js';

export interface WorkingDirectory {
  /** The directory's real path, as verified: what the call reports as its cwd. */
  readonly real: string;
  /**
   * What to give spawn as cwd. With 'descriptor-path' it is /proc/self/fd/N: libuv changes directory in the forked
   * child, before execve, where /proc/self is the child and N is its inherited copy of the verified handle (O_CLOEXEC
   * closes it only at the execve, after the chdir), so the program starts in exactly the verified directory whatever
   * was swapped on the way. Otherwise it is the real path, looked up again by the chdir.
   */
  readonly path: string;
  /**
   * Call as soon as spawn has returned (the child has changed directory by then). With 'inode-recheck' it checks
   * that the real path still names the opened directory and throws the refusal when it does not; the caller must
   * then stop the program, which may have started elsewhere (a swap in place at the chdir and gone at both checks is
   * not caught: the fallback narrows the window, it does not close it). With 'descriptor-path' there is nothing to
   * check.
   */
  confirm(): Promise<void>;
  /** Lets the handle go; the started program keeps its own working directory. Safe to call twice. */
  close(): Promise<void>;
}

/** Refusals name the argument they are about, like the resolve errors of the cwd do. */
const aboutCwd = (error: unknown): unknown =>
  error instanceof ToolError ? new ToolError(`cwd: ${error.message}`) : error;

/** Opens and verifies `resolved` (checked by Roots.resolve as a directory); `shown` is the cwd as the model gave it. */
export async function openWorkingDirectory(resolved: ResolvedPath, shown: string): Promise<WorkingDirectory> {
  let opened: OpenedDirectory;
  try {
    opened = await openDirectory(resolved, shown);
  } catch (error) {
    throw aboutCwd(error);
  }
  return {
    real: opened.real,
    path: opened.path,
    confirm: async () => {
      try {
        // The spawn has already happened: what `read` adds is its check afterwards that the path still leads to
        // the opened directory ('inode-recheck'; with 'descriptor-path' it checks nothing and needs nothing).
        await opened.read(async () => undefined);
      } catch (error) {
        throw aboutCwd(error);
      }
    },
    close: () => opened.close(),
  };
}
