// Where an embedded SQLite store (the audit trail, the gateway's pins) may live: in a directory nobody else can
// write to. Whoever can write it can put their own database there, or a -wal beside ours that SQLite replays on open,
// or (for the audit trail) record queues of their own; a sticky directory (/tmp) stops none of these, since they are
// new names. Windows has no POSIX modes or owners in stat: nothing is checked there.

import { statSync } from 'node:fs';

/**
 * Why `directory` cannot hold `store` (named in the message, e.g. "the pin store"), or undefined: anyone may write
 * it, or it belongs to another user than the one toolwire runs as (or root). `elsewhere` names what to move.
 */
export function sqliteDirectoryProblem(
  directory: string,
  store: string,
  elsewhere: string,
): string | undefined {
  if (process.platform === 'win32') return undefined;
  const stats = statSync(directory);
  if ((stats.mode & 0o002) !== 0) {
    return `anyone can write the directory ${directory}, and could replace ${store} with their own: run chmod o-w ${directory}, or keep ${elsewhere} elsewhere`;
  }
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid && stats.uid !== 0) {
    return `the directory ${directory} belongs to user id ${stats.uid}, who could replace ${store} with their own`;
  }
  return undefined;
}
