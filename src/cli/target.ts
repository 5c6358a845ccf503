// Resolving a command-line TARGET to a transport: an http(s) URL, a server named in the config file's
// mcpServers map (the shape Claude Desktop and Cursor use), or a stdio command line split like a shell, run without one.

import { resolve } from 'node:path';
import type { Transport } from '../protocol/index.js';
import { StdioClientTransport, inheritedEnvironment, parseCommandLine } from '../transports/stdio/index.js';
import { notAServerName, readConfig, unknownKeys, type ConfigFile } from './config-file.js';
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
  /** The server's URL, for an http(s) target. */
  url?: string;
  /** Whether the config marks this server trusted (its annotations count). */
  trusted: boolean;
  create(): Transport;
  /** The stdio child's captured stderr, for error messages. */
  stderr?: () => string;
  /** How the stdio child ended, once it has: an exit code, or the signal that killed it. */
  exit?: () => ChildExit | undefined;
  /** For a one-word command line: what to say when no such command exists (it may be a mistyped server name). */
  notFoundHint?: string;
  /** Things worth a warning that do not stop the command (unknown keys in the config entry). */
  warnings: readonly string[];
}

export interface ChildExit {
  code: number | null;
  signal: NodeJS.Signals | null;
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

/** The HTTP client transport and the stored-token fetch load only for an http(s) target: stdio ones skip OAuth. */
async function httpTarget(
  url: string,
  headers: Record<string, string>,
  trusted: boolean,
  env: NodeJS.ProcessEnv,
  warnings: readonly string[] = [],
): Promise<ResolvedTarget> {
  if (!URL.canParse(url)) throw new UsageError(`${JSON.stringify(url)} is not a valid URL`);
  const { storedAuthFetch } = await import('./oauth-tokens.js');
  const { HttpClientTransport } = await import('../transports/http-client/index.js');
  // Tokens from `toolwire login`, unless an Authorization header was given (it wins).
  const fetch = storedAuthFetch(url, headers, env);
  return {
    label: url,
    url,
    trusted,
    warnings,
    create: () => new HttpClientTransport(url, { headers, ...(fetch && { fetch }) }),
  };
}

function stdioTarget(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  cwd: string,
  trusted: boolean,
  label: string,
  extra: Pick<ResolvedTarget, 'notFoundHint' | 'warnings'>,
): ResolvedTarget {
  let transport: StdioClientTransport | undefined;
  return {
    label,
    trusted,
    ...extra,
    create: () =>
      (transport = new StdioClientTransport({
        command,
        args,
        env: env as Record<string, string>,
        cwd,
        stderr: 'capture',
      })),
    stderr: () => transport?.stderrText ?? '',
    exit: () => {
      const code = transport?.exitCode;
      return code === undefined ? undefined : { code, signal: transport?.signal ?? null };
    },
  };
}

export async function resolveTarget(target: string, options: TargetOptions): Promise<ResolvedTarget> {
  const cliHeaders = parseHeaders(options.headers);
  if (/^https?:\/\//i.test(target)) return httpTarget(target, cliHeaders, false, options.env);
  const config = readConfig(options.config, options.cwd);
  if (Object.hasOwn(config.servers, target)) return configuredTarget(target, config, cliHeaders, options);
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
  // One word without a slash may well be a server name with a typo; say so if no such command exists either.
  const maybeName = args.length === 0 && !command.includes('/');
  return stdioTarget(command, args, options.env, options.cwd, false, target, {
    warnings: [],
    ...(maybeName && { notFoundHint: notAServerName(target, config) }),
  });
}

async function configuredTarget(
  name: string,
  config: ConfigFile,
  cliHeaders: Record<string, string>,
  options: TargetOptions,
): Promise<ResolvedTarget> {
  const file = config.file ?? config.wanted;
  const entry = config.servers[name];
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new UsageError(
      `server "${name}" in ${file} must be an object with "command" (stdio) or "url" (HTTP)`,
    );
  }
  const unknown = unknownKeys(name, file, entry);
  const trusted = entry.trusted === true;
  if (typeof entry.url === 'string') {
    const headers = stringRecord(entry.headers) ? { ...entry.headers, ...cliHeaders } : cliHeaders;
    return httpTarget(entry.url, headers, trusted, options.env, unknown);
  }
  if (typeof entry.command !== 'string' || entry.command.length === 0) {
    const also = unknown.length === 0 ? '' : `\n${unknown.join('\n')}`;
    throw new UsageError(`server "${name}" in the config needs "command" (stdio) or "url" (HTTP)${also}`);
  }
  if (entry.args !== undefined && !stringArray(entry.args))
    throw new UsageError(`server "${name}": "args" must be an array of strings`);
  if (entry.env !== undefined && !stringRecord(entry.env))
    throw new UsageError(`server "${name}": "env" must map names to strings`);
  const cwd = typeof entry.cwd === 'string' ? resolve(options.cwd, entry.cwd) : options.cwd;
  // Like Claude Desktop: a configured server gets a minimal environment plus its own "env", not every secret of
  // the shell that runs toolwire. A command line typed as TARGET runs with the caller's environment, as in a shell.
  const env = { ...inheritedEnvironment(options.env), ...(stringRecord(entry.env) ? entry.env : {}) };
  const args = stringArray(entry.args) ? entry.args : [];
  return stdioTarget(entry.command, args, env, cwd, trusted, name, { warnings: unknown });
}
