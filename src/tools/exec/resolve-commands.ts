// Startup: each allowlisted program becomes one absolute path, found once; calls never search PATH again.

import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { ConfigError } from '../pack.js';

/** True for a regular file this process may execute. */
function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The directories of a PATH string that can be trusted: absolute ones only ("" and "." mean the cwd). */
export const absoluteDirectories = (pathVariable: string | undefined): string[] =>
  (pathVariable ?? '').split(delimiter).filter((dir) => isAbsolute(dir));

/**
 * Maps each allowlist entry, exactly as written, to the absolute path that will be run; `key` names the list in
 * errors.
 */
export function resolveCommands(
  allowlist: readonly string[],
  searchPath: readonly string[],
  key: string,
): ReadonlyMap<string, string> {
  const resolved = new Map<string, string>();
  for (const entry of allowlist) {
    const found = isAbsolute(entry)
      ? isExecutableFile(entry)
        ? entry
        : undefined
      : searchPath.map((dir) => join(dir, entry)).find(isExecutableFile);
    if (found === undefined) {
      throw new ConfigError(
        isAbsolute(entry)
          ? `${key}: "${entry}" is not an executable file`
          : `${key}: "${entry}" was not found in ${searchPath.join(delimiter) || 'an empty search path'}`,
      );
    }
    resolved.set(entry, found);
  }
  return resolved;
}
