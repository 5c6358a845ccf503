// Confinement of tool file access to configured roots: every path is resolved to its real path and checked, and
// every handle opened from it is verified again (see confinement.ts).

import { promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, resolve, sep, basename, dirname, relative } from 'node:path';
import { ToolError } from '../server/index.js';
import {
  Confinement,
  refusals,
  within,
  type OpenedDirectory,
  type VerificationMethod,
} from './confinement.js';

export const MAX_PATH_LENGTH = 4096;

export type PathKind = 'file' | 'directory' | 'any';

export interface ResolvedPath {
  /** The real path (symlinks resolved), inside one of the roots. */
  real: string;
  /** The root that contains it. */
  root: string;
  /** The path relative to its root, with "/" separators ("." for the root itself). */
  relative: string;
  /** lstat of the real path, or undefined when it does not exist (and existence was not required). */
  stats: Stats | undefined;
  /** How handles opened from it are verified: the Roots' own. */
  confinement: Confinement;
}

export interface RootsOptions {
  /**
   * Refuse regular files with more than one hard link. A hard link inside a root to a file outside it is the same
   * file, and no path check can tell which of its names is "the" one, so this is the only way to exclude them.
   */
  refuseHardLinks?: boolean;
  /** How opened handles are verified; by default 'descriptor-path' where /proc/self/fd works, else 'inode-recheck'. */
  verification?: VerificationMethod;
}

const describeSpecial = (stats: Stats): string | undefined => {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return undefined;
};

/** The allowed roots, as real paths. Built once at startup; every tool call resolves against it. */
export class Roots {
  readonly list: readonly string[];
  readonly confinement: Confinement;

  private constructor(list: readonly string[], confinement: Confinement) {
    this.list = list;
    this.confinement = confinement;
  }

  /** Each root must exist and be a directory; symlinked roots are resolved. */
  static async create(directories: readonly string[], options: RootsOptions = {}): Promise<Roots> {
    if (directories.length === 0) throw new Error('at least one root directory is required');
    const list: string[] = [];
    for (const directory of directories) {
      let real: string;
      try {
        real = await fs.realpath(resolve(directory));
      } catch {
        throw new Error(`root "${directory}" does not exist`);
      }
      if (!(await fs.stat(real)).isDirectory()) throw new Error(`root "${directory}" is not a directory`);
      if (!list.includes(real)) list.push(real);
    }
    const detected = await Confinement.detect(list[0] as string);
    const method = options.verification ?? detected;
    if (method === 'descriptor-path' && detected !== method) {
      throw new Error('opened files cannot be verified through /proc/self/fd on this system');
    }
    return new Roots(list, new Confinement(method, options.refuseHardLinks ?? false));
  }

  /** The path as the model should see it: relative to its root when there is one root, else absolute. */
  display(resolved: Pick<ResolvedPath, 'real' | 'relative'>): string {
    return this.list.length === 1 ? resolved.relative : resolved.real;
  }

  /**
   * Resolves a path given by a model. Relative paths start at the first root. Refused, with a message the model can
   * act on: empty or over-long paths, NUL bytes, percent-encoding, anything outside the roots (lexically or after
   * symlinks), symlink loops, special files (devices, FIFOs, sockets) and the wrong kind of entry.
   */
  async resolve(input: unknown, kind: PathKind = 'any', mustExist = true): Promise<ResolvedPath> {
    if (typeof input !== 'string' || input.length === 0)
      throw new ToolError('path must be a non-empty string');
    if (input.length > MAX_PATH_LENGTH)
      throw new ToolError(`path is longer than ${MAX_PATH_LENGTH} characters`);
    if (input.includes('\0')) throw new ToolError('path must not contain NUL bytes');
    if (/%(?:2e|2f|5c|00)/i.test(input)) {
      throw new ToolError(
        `path "${input}" looks percent-encoded; give the plain path (for example "docs/a.txt")`,
      );
    }
    const first = this.list[0] as string;
    const lexical = isAbsolute(input) ? resolve(input) : resolve(first, input);
    const outside = (): ToolError =>
      new ToolError(
        `path "${input}" is outside the allowed roots (${this.list.join(', ')}); use a path inside them`,
      );
    if (!this.list.some((root) => within(lexical, root))) throw outside();

    let real: string;
    try {
      real = await fs.realpath(lexical);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new ToolError(`path "${input}" is a symbolic link loop`);
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        throw new ToolError(`path "${input}" cannot be accessed (${code})`);
      if (mustExist)
        throw new ToolError(`path "${input}" does not exist; list the directory to see what is there`);
      real = await this.#realParent(lexical, input);
    }
    const root = this.list.find((candidate) => within(real, candidate));
    if (root === undefined) {
      throw new ToolError(
        `path "${input}" resolves outside the allowed roots through a symbolic link; it is refused`,
      );
    }
    let stats: Stats | undefined;
    try {
      stats = await fs.lstat(real);
    } catch {
      stats = undefined;
    }
    if (stats !== undefined) {
      // realpath saw no link here: one was swapped in since, and its target is for the open's check to refuse.
      if (stats.isSymbolicLink()) throw refusals.swapped(input);
      const special = describeSpecial(stats);
      if (special !== undefined)
        throw new ToolError(`path "${input}" is ${special}, not a regular file or directory; it is refused`);
      if (kind === 'file' && !stats.isFile())
        throw new ToolError(`path "${input}" is a directory, not a file; use list_directory`);
      if (kind === 'directory' && !stats.isDirectory())
        throw new ToolError(`path "${input}" is a file, not a directory`);
    }
    const rel = relative(root, real).split(sep).join('/');
    return { real, root, relative: rel === '' ? '.' : rel, stats, confinement: this.confinement };
  }

  /** For a path that does not exist yet: its parent's real path (which must exist) plus its name. */
  async #realParent(lexical: string, input: string): Promise<string> {
    try {
      return resolve(await fs.realpath(dirname(lexical)), basename(lexical));
    } catch {
      throw new ToolError(`the directory of "${input}" does not exist`);
    }
  }
}

/** A resolved entry was replaced (renamed over) between its check and its open: the model may simply try again. */
function checkSame(resolved: ResolvedPath, opened: Stats, shown: string): void {
  const checked = resolved.stats;
  if (checked !== undefined && (checked.ino !== opened.ino || checked.dev !== opened.dev)) {
    throw refusals.changed(shown);
  }
}

/**
 * Opens a resolved regular file for reading without following a link in the last place and without blocking on a
 * FIFO, then verifies what was opened: inside the root (O_NOFOLLOW guards only the last component, so a directory on
 * the way swapped for a symbolic link after the check would otherwise open a file outside), a regular file, the one
 * that was checked, and not hard-linked when the Roots refuse that.
 */
export async function openRegularFile(resolved: ResolvedPath, display: string): Promise<FileHandle> {
  const { handle, stats } = await resolved.confinement.openFile(resolved.real, resolved.root, display);
  try {
    checkSame(resolved, stats, display);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/** Opens a resolved directory, never through a link, and verifies it as openRegularFile does; list it through `read`. */
export async function openDirectory(resolved: ResolvedPath, display: string): Promise<OpenedDirectory> {
  const opened = await resolved.confinement.openDirectory(resolved.real, resolved.root, display);
  try {
    checkSame(resolved, opened.stats, display);
  } catch (error) {
    await opened.close();
    throw error;
  }
  return opened;
}
