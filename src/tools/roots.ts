// Confinement of tool file access to configured roots: every path is resolved to its real path and checked.

import { constants, promises as fs, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { isAbsolute, resolve, sep, basename, dirname, relative } from 'node:path';
import { ToolError } from '../server/index.js';

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
}

const within = (path: string, root: string): boolean =>
  path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

const describeSpecial = (stats: Stats): string | undefined => {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return undefined;
};

/** The allowed roots, as real paths. Built once at startup; every tool call resolves against it. */
export class Roots {
  readonly list: readonly string[];

  private constructor(list: readonly string[]) {
    this.list = list;
  }

  /** Each root must exist and be a directory; symlinked roots are resolved. */
  static async create(directories: readonly string[]): Promise<Roots> {
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
    return new Roots(list);
  }

  /** The path as the model should see it: relative to its root when there is one root, else absolute. */
  display(resolved: ResolvedPath): string {
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
      const special = describeSpecial(stats);
      if (special !== undefined)
        throw new ToolError(`path "${input}" is ${special}, not a regular file or directory; it is refused`);
      if (kind === 'file' && !stats.isFile())
        throw new ToolError(`path "${input}" is a directory, not a file; use list_directory`);
      if (kind === 'directory' && !stats.isDirectory())
        throw new ToolError(`path "${input}" is a file, not a directory`);
    }
    const rel = relative(root, real).split(sep).join('/');
    return { real, root, relative: rel === '' ? '.' : rel, stats };
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

/**
 * Opens a resolved regular file for reading without following a symlink swapped in after the check, without
 * blocking on FIFOs, and verifies the opened handle is still a regular file.
 */
export async function openRegularFile(resolved: ResolvedPath, display: string): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.open(resolved.real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    throw new ToolError(
      `file "${display}" cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const stats = await handle.stat();
  if (!stats.isFile()) {
    await handle.close();
    throw new ToolError(`path "${display}" is not a regular file; it is refused`);
  }
  // O_NOFOLLOW guards only the last component: a parent swapped for a symlink after the check would open another
  // file, so the opened file must be the one that was checked.
  const checked = resolved.stats;
  if (checked !== undefined && (checked.ino !== stats.ino || checked.dev !== stats.dev)) {
    await handle.close();
    throw new ToolError(`file "${display}" changed while it was being opened; try again`);
  }
  return handle;
}
