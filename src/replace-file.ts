// Replacing a small file whole (a status file, a remembered setting): written as a new file beside it, then renamed
// over it, so a reader sees the old text or the new, never half of one.

import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Replaces `path` with `text`, mode 0600. The temporary name is made anew ('wx': never whatever is there, so a link
 * somebody planted at it is not followed to overwrite its target), and the rename replaces a link at `path` rather
 * than writing through it. Throws what the file system says.
 */
export function replaceFile(path: string, text: string): void {
  const temporary = `${path}.${process.pid}.tmp`;
  rmSync(temporary, { force: true }); // left by an earlier process with this pid, or planted
  writeFileSync(temporary, text, { mode: 0o600, flag: 'wx' });
  renameSync(temporary, path);
}
