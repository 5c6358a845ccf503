// Watching a file for `toolwire dev`: its directory is watched (not the file itself) because editors often save by
// writing a new file and renaming it over the old one, which ends a watch on the old file; bursts of events (an
// editor's truncate-then-write, several files saved at once) are debounced into one call.

import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';

export interface FileWatch {
  close(): void;
}

export interface WatchOptions {
  /** Quiet time after the last event before `onChange` runs. Default 100 ms. */
  debounceMs?: number;
  /** Called when a watch fails (the directory was removed, say). */
  onError?: (error: Error) => void;
}

/** Calls `onChange` (debounced) when any of `paths` changes; a path is a file (watched by name) or a directory. */
export function watchPaths(
  paths: readonly { path: string; directory: boolean }[],
  onChange: () => void,
  options: WatchOptions = {},
): FileWatch {
  const debounceMs = options.debounceMs ?? 100;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;
  const fire = (): void => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      if (!closed) onChange();
    }, debounceMs);
  };
  // One watcher per directory, each with the names in it that matter (none listed: any change counts).
  const byDirectory = new Map<string, Set<string> | 'any'>();
  for (const { path, directory } of paths) {
    const dir = directory ? path : dirname(path);
    const names = byDirectory.get(dir);
    if (directory || names === 'any') byDirectory.set(dir, 'any');
    else byDirectory.set(dir, new Set([...(names ?? []), basename(path)]));
  }
  const watchers: FSWatcher[] = [];
  for (const [dir, names] of byDirectory) {
    const watcher = watch(dir, { persistent: true }, (_event, name) => {
      // Some platforms give no name; then any event in the directory counts.
      if (names === 'any' || name === null || names.has(name.toString())) fire();
    });
    watcher.on('error', (error) => options.onError?.(error));
    watchers.push(watcher);
  }
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
