// The keys file (`{ "keys": [records] }`): read only when nobody but its owner could have written it, and written
// atomically (a temporary file renamed over it) with mode 0600, so a reader never sees half a file.

import { randomBytes } from 'node:crypto';
import { closeSync, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';
import { open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { ApiKeysError, checkRecords, type ApiKeyRecord } from './records.js';

/** Far above any real keys file (100,000 records fit in about 30 MB). */
export const MAX_KEYS_FILE_BYTES = 64 * 1024 * 1024;

/**
 * Why toolwire will not trust keys from a file with these stats, or undefined. Whoever can write the file can grant
 * themselves any scope, so it must be a regular file owned by the user toolwire runs as, writable by no one else.
 * (Windows has no POSIX modes or owners in stat: nothing is checked there.)
 */
export function keysFileProblem(path: string, stats: Stats): string | undefined {
  if (!stats.isFile()) return `${path} is not a regular file`;
  if (stats.size > MAX_KEYS_FILE_BYTES)
    return `${path} is larger than ${MAX_KEYS_FILE_BYTES / 1024 / 1024} MiB`;
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) {
    return `${path} belongs to user id ${stats.uid}, not to the user toolwire runs as (${uid}): whoever owns it can grant any scope; chown it, then chmod 600 ${path}`;
  }
  if ((stats.mode & 0o022) !== 0) {
    const mode = (stats.mode & 0o777).toString(8).padStart(3, '0');
    return `${path} can be written by ${(stats.mode & 0o002) !== 0 ? 'anyone' : 'its group'} (mode ${mode}), and whoever writes it can grant any scope: run chmod 600 ${path}`;
  }
  return undefined;
}

/**
 * Why toolwire will not trust a keys file in a directory with these stats, or undefined: whoever may write the
 * directory can rename another file over the keys file. A sticky directory (/tmp) protects our own file; a
 * group-writable one is accepted, as user-private groups make it common (the file's own mode still may not be).
 */
export function keysDirectoryProblem(path: string, stats: Stats): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  const directory = dirname(path);
  if (stats.uid !== uid && stats.uid !== 0) {
    return `the directory ${directory} belongs to user id ${stats.uid}, who could replace ${basename(path)} with their own: keep the keys file in a directory you (or root) own`;
  }
  if ((stats.mode & 0o002) !== 0 && (stats.mode & 0o1000) === 0) {
    return `anyone can write the directory ${directory} and replace ${basename(path)} with their own: run chmod o-w ${directory}, or keep the keys file elsewhere`;
  }
  return undefined;
}

/** The records of a keys file's text; `path` names it in messages. */
export function parseKeysFile(path: string, text: string): readonly ApiKeyRecord[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ApiKeysError(`keys file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new ApiKeysError(`keys file ${path} must hold an object { "keys": [ … ] }`);
  for (const key of Object.keys(parsed)) {
    if (key !== 'keys')
      throw new ApiKeysError(
        `keys file ${path}: unknown member ${JSON.stringify(key.slice(0, 40))}; it has "keys"`,
      );
  }
  return checkRecords((parsed as { keys?: unknown }).keys, `keys file ${path}`);
}

const unreadable = (path: string, error: unknown): ApiKeysError => {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return new ApiKeysError(`keys file ${path} does not exist`);
  return new ApiKeysError(`cannot read keys file ${path}: ${(error as Error).message}`);
};

/** Reads and checks a keys file, blocking (at startup). The checks look at the file opened, not at its name. */
export function readKeysFileSync(path: string): readonly ApiKeyRecord[] {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const problem =
      keysFileProblem(path, fstatSync(fd)) ?? keysDirectoryProblem(path, statSync(dirname(path)));
    if (problem !== undefined) throw new ApiKeysError(`refusing the keys file: ${problem}`);
    return parseKeysFile(path, readFileSync(fd, 'utf8'));
  } finally {
    closeSync(fd);
  }
}

/** Reads and checks a keys file without blocking the event loop (for reloads while serving). */
export async function readKeysFile(path: string): Promise<readonly ApiKeyRecord[]> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw unreadable(path, error);
  }
  try {
    const problem =
      keysFileProblem(path, await handle.stat()) ?? keysDirectoryProblem(path, await stat(dirname(path)));
    if (problem !== undefined) throw new ApiKeysError(`refusing the keys file: ${problem}`);
    return parseKeysFile(path, await handle.readFile('utf8'));
  } finally {
    await handle.close();
  }
}

/** The text of a keys file holding `records`. */
export const keysFileText = (records: readonly ApiKeyRecord[]): string =>
  `${JSON.stringify({ keys: records }, null, 2)}\n`;

/** The keys file changed between reading it and writing it (another `toolwire keys` running): read it again. */
export class KeysFileChangedError extends ApiKeysError {
  constructor(path: string) {
    super(`keys file ${path} changed while toolwire was writing it; run the command again`);
    this.name = 'KeysFileChangedError';
  }
}

export interface WriteKeysFileOptions {
  /**
   * The records the change was computed from ([] for a file that did not exist): when the file holds others by
   * the time the new one would replace it, nothing is written and KeysFileChangedError is thrown, so a concurrent
   * writer's key is not lost.
   */
  expected?: readonly ApiKeyRecord[];
}

/**
 * Writes a keys file atomically with mode 0600: the records are checked, written to a new temporary file beside the
 * target (exclusive create, mode set on the descriptor, synced) and renamed over it.
 */
export async function writeKeysFile(
  path: string,
  records: readonly ApiKeyRecord[],
  options: WriteKeysFileOptions = {},
): Promise<void> {
  const text = keysFileText(checkRecords(records, `writing keys file ${path}`));
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temporary, 'wx', 0o600);
  let renamed = false;
  try {
    try {
      await handle.chmod(0o600); // exactly, whatever the umask
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    const { expected } = options;
    if (expected !== undefined && keysFileText(await currentRecords(path)) !== keysFileText(expected))
      throw new KeysFileChangedError(path);
    await rename(temporary, path);
    renamed = true;
  } finally {
    if (!renamed) await unlink(temporary).catch(() => undefined);
  }
}

/** The records a keys file holds now, [] when it does not exist. */
async function currentRecords(path: string): Promise<readonly ApiKeyRecord[]> {
  try {
    await stat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
  }
  return readKeysFile(path); // and its own error for anything else
}
