// An OAuthStore in one JSON file readable by its owner only: the directory 0700, the file 0600, written whole to a
// temporary file and renamed over the old one, so a crash never leaves half a token file behind.

import { randomBytes } from 'node:crypto';
import { chmod, lstat, mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseStoredAuthorization, type OAuthStore, type StoredAuthorization } from './store.js';

/** A token file is a few kilobytes; a larger one is not ours and is not read. */
const MAX_FILE_BYTES = 64 * 1024;

export class FileOAuthStore implements OAuthStore {
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  /** The stored authorization, or undefined when there is none or the file is not a sound token file. */
  async load(): Promise<StoredAuthorization | undefined> {
    let info;
    try {
      info = await lstat(this.path);
    } catch {
      return undefined;
    }
    // A symlink or a special file in our place is refused: it could point the store at someone else's file.
    if (!info.isFile() || info.size > MAX_FILE_BYTES) return undefined;
    try {
      return parseStoredAuthorization(JSON.parse(await readFile(this.path, 'utf8')));
    } catch {
      return undefined;
    }
  }

  async save(value: StoredAuthorization): Promise<void> {
    const directory = dirname(this.path);
    await mkdir(directory, { recursive: true, mode: 0o700 });
    await chmod(directory, 0o700); // mkdir's mode does not apply to a directory that already existed
    const temporary = join(directory, `.${randomBytes(8).toString('hex')}.tmp`);
    const file = await open(temporary, 'wx', 0o600);
    try {
      await file.writeFile(`${JSON.stringify(value, null, 2)}\n`);
      await file.sync();
    } finally {
      await file.close();
    }
    try {
      await rename(temporary, this.path);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
  }

  async clear(): Promise<void> {
    await rm(this.path, { force: true });
  }
}
