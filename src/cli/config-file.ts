// The config file's "mcpServers" map (the shape Claude Desktop and Cursor use): reading it, and naming what in an
// entry toolwire does not read, so a typo such as "comand" or "trustd" is not silently ignored.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { UsageError } from './errors.js';
import { didYouMean } from './suggest.js';

export interface ServerEntry {
  command?: unknown;
  args?: unknown;
  env?: unknown;
  cwd?: unknown;
  url?: unknown;
  headers?: unknown;
  trusted?: unknown;
}

/**
 * Keys toolwire reads; "type" ("stdio", "http", "sse") is what other clients write and needs no reading here, and the
 * gateway's own keys are read by `toolwire gateway` (src/gateway/config.ts), not by the client commands.
 */
const ENTRY_KEYS = ['command', 'args', 'env', 'cwd', 'url', 'headers', 'trusted'] as const;
const GATEWAY_KEYS = ['timeoutMs', 'listTimeoutMs', 'credentials', 'tools'];
const ACCEPTED_KEYS: readonly string[] = [...ENTRY_KEYS, ...GATEWAY_KEYS, 'type'];

export interface ConfigFile {
  /** The file read, or undefined when no --config was given and ./toolwire.json does not exist. */
  file: string | undefined;
  /** The default file's path when it does not exist (for messages). */
  wanted: string;
  servers: Record<string, ServerEntry>;
}

export function readConfig(path: string | undefined, cwd: string): ConfigFile {
  const file = path === undefined ? resolve(cwd, 'toolwire.json') : resolve(cwd, path);
  if (!existsSync(file)) {
    if (path !== undefined) throw new UsageError(`config file ${file} does not exist`);
    return { file: undefined, wanted: file, servers: {} };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === undefined) return { file, wanted: file, servers: {} };
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new UsageError(`config file ${file}: "mcpServers" must be an object of named servers`);
  }
  return { file, wanted: file, servers: servers as Record<string, ServerEntry> };
}

/** One sentence per key of `entry` that toolwire does not read, with the key it probably meant. */
export function unknownKeys(name: string, file: string, entry: object): string[] {
  return Object.keys(entry)
    .filter((key) => !ACCEPTED_KEYS.includes(key))
    .map(
      (key) =>
        `server "${name}" in ${file}: unknown key "${key}"${didYouMean(key, ENTRY_KEYS)} is ignored; ` +
        `an entry has ${ENTRY_KEYS.join(', ')}`,
    );
}

/** What to add when a one-word TARGET is neither a command nor a server name in the config. */
export function notAServerName(target: string, config: ConfigFile): string {
  const names = Object.keys(config.servers);
  if (config.file === undefined) {
    return `"${target}" is not a server name either: there is no ${config.wanted} (--config FILE reads another file)`;
  }
  if (names.length === 0)
    return `"${target}" is not a server name either: ${config.file} has no "mcpServers"`;
  return `"${target}" is not a server in ${config.file} either${didYouMean(target, names)}; it has: ${names.join(', ')}`;
}
