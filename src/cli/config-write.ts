// Changing a file another program owns (an MCP host's config) without ever leaving it half-written: the new text
// goes to a temporary file in the same directory and replaces the old one with a rename; the old bytes are kept in a
// timestamped backup first; a symlinked config is written through to its target; and if the file changes while we
// merge (the host rewriting it), we merge again from the new text instead of overwriting the host's change.

import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  fchmodSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** A file toolwire will not change as it is (malformed, a directory, busy…); the message says why and what to do. */
export class RefusedFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedFileError';
  }
}

export interface CommitOptions {
  /** The clock for the backup's name. */
  now?: () => Date;
  /** Mode of a file created from nothing (an existing file keeps its own). */
  newFileMode?: number;
  /** Runs after the new text is ready and before it replaces the file (tests use it to race a second writer). */
  beforeReplace?: () => void;
  /** Merges attempted before giving up on a file that keeps changing. Default 3. */
  attempts?: number;
}

export interface Commit {
  /** The file written (the symlink's target when the path is a symlink). */
  file: string;
  /** Where the previous bytes were saved; undefined when the file did not exist or nothing changed. */
  backup?: string;
  created: boolean;
  changed: boolean;
}

/** The text before (undefined: no file) → the text after; the same text means "nothing to change". */
export type Merge = (before: string | undefined) => string;

/** The file a write really goes to: a symlink (dotfile managers use them) is followed, so the link survives. */
export function writeTarget(path: string): string {
  let link: boolean;
  try {
    link = lstatSync(path).isSymbolicLink();
  } catch {
    return path; // not there yet: created where asked
  }
  if (!link) return path;
  try {
    return realpathSync(path);
  } catch {
    throw new RefusedFileError(
      `${path} is a symbolic link to a file that does not exist; fix or remove the link`,
    );
  }
}

/** The file's bytes, or undefined when it does not exist; a directory or an unreadable file is refused. */
export function readBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'EISDIR') throw new RefusedFileError(`${file} is a directory, not a config file`);
    throw new RefusedFileError(`cannot read ${file}: ${(error as Error).message}`);
  }
}

const sameBytes = (a: Buffer | undefined, b: Buffer | undefined): boolean =>
  a === undefined || b === undefined ? a === b : a.equals(b);

/** `<file>.<UTC time>.bak`, or with -2, -3… when that name is taken; written with the original's mode. */
function writeBackup(file: string, bytes: Buffer, mode: number, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  for (let n = 1; n <= 100; n++) {
    const backup = `${file}.${stamp}${n === 1 ? '' : `-${n}`}.bak`;
    try {
      writeNew(backup, bytes, mode);
      return backup;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  throw new RefusedFileError(`cannot find a free backup name next to ${file}`);
}

/** Creates `path` (failing if it exists), writes all of `bytes`, sets `mode` exactly (not through the umask), syncs. */
function writeNew(path: string, bytes: Buffer, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    let written = 0;
    while (written < bytes.length) written += writeSync(fd, bytes, written);
    fchmodSync(fd, mode);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Reads `path`, merges, and replaces the file atomically with a backup of what was there. A merge that throws
 * leaves the file untouched. Returns what was done.
 */
export function commitFile(path: string, merge: Merge, options: CommitOptions = {}): Commit {
  const file = writeTarget(path);
  const attempts = options.attempts ?? 3;
  for (let attempt = 1; ; attempt++) {
    const before = readBytes(file);
    const beforeText = before?.toString('utf8');
    const after = merge(beforeText);
    if (after === beforeText) return { file, created: false, changed: false };
    const mode = before === undefined ? (options.newFileMode ?? 0o644) : statSync(file).mode & 0o7777;
    mkdirSync(dirname(file), { recursive: true });
    const temporary = join(
      dirname(file),
      `.${basename(file)}.toolwire-${randomBytes(6).toString('hex')}.tmp`,
    );
    writeNew(temporary, Buffer.from(after, 'utf8'), mode);
    try {
      options.beforeReplace?.();
      // Someone else wrote the file while we merged: start over from their text rather than lose their change.
      if (!sameBytes(readBytes(file), before)) {
        if (attempt < attempts) continue;
        throw new RefusedFileError(
          `${file} kept changing while toolwire merged it (${attempts} tries); close the program writing it and run again`,
        );
      }
      const backup =
        before === undefined ? undefined : writeBackup(file, before, mode, options.now?.() ?? new Date());
      renameSync(temporary, file);
      return { file, created: before === undefined, changed: true, ...(backup !== undefined && { backup }) };
    } finally {
      try {
        unlinkSync(temporary); // still there only when the rename did not happen
      } catch {
        // renamed: nothing to clean up
      }
    }
  }
}
