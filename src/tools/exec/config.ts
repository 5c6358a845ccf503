// The exec pack's configuration: which programs may run, with which environment, for how long, with how much output.

import { isAbsolute, posix } from 'node:path';
import { ConfigReader } from '../config-reader.js';
import { ConfigError } from '../pack.js';
import { absoluteDirectories, resolveCommands } from './resolve-commands.js';

export interface ExecConfig {
  /**
   * The allowlist: each entry exactly as configured (a program name or an absolute path) → the absolute path found
   * at startup. Empty (the default): the pack creates no tools.
   */
  commands: ReadonlyMap<string, string>;
  /** Where names were looked up (config `searchPath`, else the server's PATH at startup); the program's PATH. */
  searchPath: readonly string[];
  /** Environment variables passed on to the program; every other one is dropped. */
  envAllowlist: readonly string[];
  /** Output kept per stream (stdout, stderr); the rest is counted and dropped. Default 1 MiB. */
  maxOutputBytes: number;
  /** The longest time limit a call may ask for. Default 120,000 ms. */
  maxTimeoutMs: number;
  /** Time between SIGTERM and SIGKILL when a program is stopped. Default 2,000 ms. */
  killGraceMs: number;
}

export const DEFAULT_ENV_ALLOWLIST = ['PATH', 'HOME', 'LANG', 'LC_ALL', 'TZ'] as const;
export const DEFAULT_TIMEOUT_MS = 30_000;
export const MIN_TIMEOUT_MS = 100;
const KEYS = [
  'allowlist',
  'searchPath',
  'envAllowlist',
  'maxOutputBytes',
  'maxTimeoutMs',
  'killGraceMs',
] as const;
const MiB = 1024 * 1024;
const PROGRAM_NAME = /^[A-Za-z0-9_][A-Za-z0-9._+-]{0,254}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;

/** A normalised absolute path: no "..", ".", doubled or trailing slashes, no NUL. */
const isCleanAbsolute = (path: string): boolean =>
  isAbsolute(path) && posix.normalize(path) === path && !path.includes('\0') && path.length <= 4096;

const commandProblem = (entry: string): string | undefined =>
  PROGRAM_NAME.test(entry) || (isCleanAbsolute(entry) && !entry.endsWith('/'))
    ? undefined
    : 'must be a program name (like "git") or a normalised absolute path (like "/usr/bin/git")';

/**
 * Checks the config and resolves every allowlisted program to an absolute path, once: calls never search PATH. A
 * program that is not found is a ConfigError, so a typo stops startup instead of failing at the first call.
 */
export function parseExecConfig(raw: unknown, key: string): ExecConfig {
  const read = new ConfigReader(raw, key, KEYS);
  const allowlist = read.stringList('allowlist', [], { maxItems: 256, check: commandProblem });
  const searchPath = read.has('searchPath')
    ? read.stringList('searchPath', [], {
        maxItems: 64,
        check: (dir) => (isCleanAbsolute(dir) ? undefined : 'must be a normalised absolute directory path'),
      })
    : absoluteDirectories(process.env.PATH);
  const config = {
    searchPath,
    envAllowlist: read.stringList('envAllowlist', DEFAULT_ENV_ALLOWLIST, {
      maxItems: 256,
      check: (name) => (ENV_NAME.test(name) ? undefined : 'must be an environment variable name like "LANG"'),
    }),
    maxOutputBytes: read.integer('maxOutputBytes', MiB, 1024, 64 * MiB, 'bytes'),
    maxTimeoutMs: read.integer('maxTimeoutMs', 120_000, MIN_TIMEOUT_MS, 3_600_000, 'ms'),
    killGraceMs: read.integer('killGraceMs', 2_000, 0, 60_000, 'ms'),
  };
  if (allowlist.length === 0) return { ...config, commands: new Map() };
  if (process.platform === 'win32') {
    throw new ConfigError(
      `${key}.allowlist: execute_command needs POSIX process groups, which Windows lacks`,
    );
  }
  return { ...config, commands: resolveCommands(allowlist, searchPath, `${key}.allowlist`) };
}
