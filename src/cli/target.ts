// Resolving a command-line TARGET to a transport: an http(s) URL, a server named in the config file's
// mcpServers map (the shape Claude Desktop and Cursor use), or a stdio command line split like a shell, run without one.

import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Transport } from '../protocol/index.js';
import { HttpClientTransport } from '../transports/http-client/index.js';
import { StdioClientTransport, parseCommandLine } from '../transports/stdio/index.js';
import { UsageError } from './errors.js';

export interface TargetOptions {
  /** Extra HTTP headers, "Name: value". */
  headers: readonly string[];
  /** The config file with mcpServers; default ./toolwire.json when it exists. */
  config?: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

export interface ResolvedTarget {
  /** How the target is described in messages. */
  label: string;
  /** Whether the config marks this server trusted (its annotations count). */
  trusted: boolean;
  create(): Transport;
  /** The stdio child's captured stderr, for error messages. */
  stderr?: () => string;
}

interface ServerEntry {
  command?: unknown;
  args?: unknown;
  env?: unknown;
  cwd?: unknown;
  url?: unknown;
  headers?: unknown;
  trusted?: unknown;
}

const stringArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');
const stringRecord = (value: unknown): value is Record<string, string> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.values(value).every((v) => typeof v === 'string');

function parseHeaders(lines: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = colon > 0 ? line.slice(0, colon).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header expects "Name: value", got ${JSON.stringify(line)}`);
    }
    headers[name] = line.slice(colon + 1).trim();
  }
  return headers;
}

function readConfig(path: string | undefined, cwd: string): Record<string, ServerEntry> {
  const file = path === undefined ? resolve(cwd, 'toolwire.json') : resolve(cwd, path);
  if (!existsSync(file)) {
    if (path !== undefined) throw new UsageError(`config file ${file} does not exist`);
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  const servers = (parsed as { mcpServers?: unknown } | null)?.mcpServers;
  if (servers === undefined) return {};
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new UsageError(`config file ${file}: "mcpServers" must be an object of named servers`);
  }
  return servers as Record<string, ServerEntry>;
}

function httpTarget(url: string, headers: Record<string, string>, trusted: boolean): ResolvedTarget {
  if (!URL.canParse(url)) throw new UsageError(`${JSON.stringify(url)} is not a valid URL`);
  return { label: url, trusted, create: () => new HttpClientTransport(url, { headers }) };
}

function stdioTarget(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  trusted: boolean,
  label: string,
): ResolvedTarget {
  let transport: StdioClientTransport | undefined;
  return {
    label,
    trusted,
    create: () =>
      (transport = new StdioClientTransport({
        command,
        args,
        env: env as Record<string, string>,
        cwd,
        stderr: 'capture',
      })),
    stderr: () => transport?.stderrText ?? '',
  };
}

/** Variables a configured stdio server inherits; everything else must be given in its "env". */
const INHERITED = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
];

function inheritedEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const picked: NodeJS.ProcessEnv = {};
  for (const name of INHERITED) if (env[name] !== undefined) picked[name] = env[name];
  return picked;
}

export function resolveTarget(target: string, options: TargetOptions): ResolvedTarget {
  const cliHeaders = parseHeaders(options.headers);
  if (/^https?:\/\//i.test(target)) return httpTarget(target, cliHeaders, false);
  const servers = readConfig(options.config, options.cwd);
  const entry = Object.hasOwn(servers, target) ? servers[target] : undefined;
  if (entry !== undefined) {
    const trusted = entry.trusted === true;
    if (typeof entry.url === 'string') {
      const headers = stringRecord(entry.headers) ? { ...entry.headers, ...cliHeaders } : cliHeaders;
      return httpTarget(entry.url, headers, trusted);
    }
    if (typeof entry.command !== 'string' || entry.command.length === 0) {
      throw new UsageError(`server "${target}" in the config needs "command" (stdio) or "url" (HTTP)`);
    }
    if (entry.args !== undefined && !stringArray(entry.args))
      throw new UsageError(`server "${target}": "args" must be an array of strings`);
    if (entry.env !== undefined && !stringRecord(entry.env))
      throw new UsageError(`server "${target}": "env" must map names to strings`);
    const cwd = typeof entry.cwd === 'string' ? resolve(options.cwd, entry.cwd) : options.cwd;
    // Like Claude Desktop: a configured server gets a minimal environment plus its own "env", not every secret of
    // the shell that runs toolwire. A command line typed as TARGET runs with the caller's environment, as in a shell.
    const env = { ...inheritedEnvironment(options.env), ...(stringRecord(entry.env) ? entry.env : {}) };
    return stdioTarget(entry.command, stringArray(entry.args) ? entry.args : [], env, cwd, trusted, target);
  }
  let words: string[];
  try {
    words = parseCommandLine(target);
  } catch (error) {
    throw new UsageError(
      `cannot read the command line ${JSON.stringify(target)}: ${(error as Error).message}`,
    );
  }
  const [command, ...args] = words;
  if (command === undefined)
    throw new UsageError('TARGET is empty: give a URL, a server name from the config, or a command line');
  return stdioTarget(command, args, options.env, options.cwd, false, target);
}
