// `toolwire install HOST [SERVER…] [-- SERVE-OPTIONS]`: writes an MCP server entry into the config of Claude
// Desktop, Claude Code, Cursor, VS Code or a plain mcp.json. Without SERVER names the entry runs this installation's
// `toolwire serve` (absolute node and bin paths, relative paths in the serve options made absolute); with them, the
// named servers are copied from the toolwire config's "mcpServers". The host's other entries, key order, comments
// and layout are kept; a changed file is backed up first; a malformed one is refused and left alone.

import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PACKS } from '../tools/index.js';
import { readConfig, type ServerEntry } from './config-file.js';
import { RefusedFileError, commitFile, readBytes, writeTarget } from './config-write.js';
import { ExitCode, UsageError } from './errors.js';
import { chooseScope, hostSpec, type HostEnvironment, type HostSpec } from './host-configs.js';
import { mergeEntries, type EntryOutcome, type NamedEntry } from './install-merge.js';
import { shellCommand } from './shell-quote.js';
import { didYouMean } from './suggest.js';
import { packageFile } from '../own-files.js';

export interface InstallOptions {
  scope?: string;
  file?: string;
  name?: string;
  env?: string[];
  force?: boolean;
  dryRun?: boolean;
  /** The toolwire config whose "mcpServers" SERVER names come from. */
  config?: string;
}

export interface InstallIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Which OS layout to use for host files (default: this machine's). */
  platform?: NodeJS.Platform;
  now?: () => Date;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The node binary and the bin script of this installation: what a host runs to start `toolwire`. */
export function toolwireCommand(): { command: string; script: string } {
  const script = fileURLToPath(packageFile('bin/toolwire.js'));
  if (!existsSync(script)) throw new Error(`this installation has no ${script}; reinstall toolwire`);
  return { command: process.execPath, script };
}

/** Splits the variadic words commander collected into SERVER names and what followed `--` in argv. */
export function splitServeArguments(
  words: readonly string[],
  argv: readonly string[],
): { servers: string[]; serveArgs: string[] } {
  const dash = argv.indexOf('--');
  const serveArgs = dash === -1 ? [] : argv.slice(dash + 1);
  return { servers: words.slice(0, words.length - serveArgs.length), serveArgs };
}

const isModulePath = (entry: string): boolean =>
  entry.startsWith('.') || isAbsolute(entry) || /\.(?:js|mjs|cjs|ts)$/.test(entry);

/** `toolwire serve` options for an installed entry: checked now, paths absolute (a host's cwd is anyone's guess). */
export function serveArguments(words: readonly string[], cwd: string): string[] {
  const out = ['serve'];
  let rooted = false;
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as string;
    const equals = word.startsWith('--') ? word.indexOf('=') : -1;
    const flag = equals === -1 ? word : word.slice(0, equals);
    const value = (): string => {
      const given = equals === -1 ? words[++i] : word.slice(equals + 1);
      if (given === undefined || given === '') throw new UsageError(`serve option ${flag} needs a value`);
      return given;
    };
    switch (flag) {
      case '--stdio':
        break; // the default, and the only transport a host starts
      case '--http':
        throw new UsageError('the host starts an installed server over stdio: leave out --http');
      case '--tools': {
        const parts = value()
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0);
        out.push('--tools', parts.map((part) => checkToolsEntry(part, cwd)).join(','));
        break;
      }
      case '--root': {
        const root = resolve(cwd, value());
        if (!isDirectory(root)) throw new UsageError(`serve option --root: ${root} is not a directory`);
        out.push('--root', root);
        rooted = true;
        break;
      }
      case '--config': {
        const file = resolve(cwd, value());
        if (!existsSync(file)) throw new UsageError(`serve option --config: ${file} does not exist`);
        out.push('--config', file);
        rooted = true; // its "roots" (or the directory serve starts in) decide
        break;
      }
      default:
        throw new UsageError(
          `${JSON.stringify(word)} is not a serve option install can write; after -- give --tools, --root or --config`,
        );
    }
  }
  // Without a root, serve would use whatever directory the host starts it in (often /): pin today's directory.
  if (!rooted) out.push('--root', cwd);
  return out;
}

function checkToolsEntry(part: string, cwd: string): string {
  if (!isModulePath(part)) {
    if (!Object.hasOwn(PACKS, part))
      throw new UsageError(`unknown tool pack "${part}"; packs: ${Object.keys(PACKS).join(', ')}`);
    return part;
  }
  const file = resolve(cwd, part);
  if (!existsSync(file)) throw new UsageError(`tool module ${part} does not exist (${file})`);
  return file;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function parseEnv(pairs: readonly string[]): Record<string, string> | undefined {
  if (pairs.length === 0) return undefined;
  const env: Record<string, string> = {};
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    const key = equals > 0 ? pair.slice(0, equals) : '';
    if (!ENV_NAME.test(key)) throw new UsageError(`--env expects KEY=VALUE, got ${JSON.stringify(pair)}`);
    if (Object.hasOwn(env, key)) throw new UsageError(`--env ${key} is given twice`);
    env[key] = pair.slice(equals + 1);
  }
  return env;
}

function checkName(name: string, what: string): string {
  if (!NAME.test(name)) {
    throw new UsageError(
      `${what} ${JSON.stringify(name)} cannot name a server: use up to 64 letters, digits, ".", "_" or "-", starting with a letter or digit`,
    );
  }
  return name;
}

/** A server from the toolwire config, in the host's shape. */
function configuredEntry(
  name: string,
  entry: ServerEntry,
  spec: HostSpec,
  env: Record<string, string> | undefined,
  file: string,
): Record<string, unknown> {
  const strings = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((item) => typeof item === 'string');
  const record = (value: unknown): value is Record<string, string> =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((item) => typeof item === 'string');
  if (entry.cwd !== undefined) {
    throw new UsageError(
      `server "${name}" in ${file} has "cwd", which ${spec.label} cannot express: use absolute paths in its command and args instead`,
    );
  }
  if (typeof entry.url === 'string') {
    if (spec.httpEntry === undefined) {
      throw new UsageError(
        `server "${name}" is remote (a "url"), and ${spec.label}'s config file starts local servers only; add it in ${spec.label}'s settings instead`,
      );
    }
    if (entry.headers !== undefined && !record(entry.headers))
      throw new UsageError(`server "${name}" in ${file}: "headers" must map names to strings`);
    return spec.httpEntry({ url: entry.url, ...(entry.headers !== undefined && { headers: entry.headers }) });
  }
  if (typeof entry.command !== 'string' || entry.command === '')
    throw new UsageError(`server "${name}" in ${file} needs "command" (stdio) or "url" (HTTP)`);
  if (entry.args !== undefined && !strings(entry.args))
    throw new UsageError(`server "${name}" in ${file}: "args" must be an array of strings`);
  if (entry.env !== undefined && !record(entry.env))
    throw new UsageError(`server "${name}" in ${file}: "env" must map names to strings`);
  const merged = entry.env === undefined && env === undefined ? undefined : { ...entry.env, ...env };
  return spec.stdioEntry({
    command: entry.command,
    args: entry.args ?? [],
    ...(merged !== undefined && { env: merged }),
  });
}

function hostEnvironment(io: InstallIo): HostEnvironment {
  const platform = io.platform ?? process.platform;
  const home = (platform === 'win32' ? (io.env.USERPROFILE ?? io.env.HOME) : io.env.HOME) ?? homedir();
  if (home === '') throw new UsageError('cannot tell your home directory: set HOME');
  return {
    platform,
    home,
    cwd: io.cwd,
    ...(io.env.APPDATA !== undefined && io.env.APPDATA !== '' && { appData: io.env.APPDATA }),
    ...(io.env.XDG_CONFIG_HOME !== undefined &&
      isAbsolute(io.env.XDG_CONFIG_HOME) && { xdgConfigHome: io.env.XDG_CONFIG_HOME }),
  };
}

const REPORT: Record<EntryOutcome, (name: string, file: string) => string> = {
  added: (name, file) => `added "${name}" to ${file}`,
  replaced: (name, file) => `replaced "${name}" in ${file}`,
  unchanged: (name, file) => `"${name}" in ${file} is already up to date`,
};

/** Runs the command; returns the exit code (0 written or up to date, 2 refused or misused, 3 not writable). */
export function install(
  hostName: string,
  servers: readonly string[],
  serveArgs: readonly string[],
  options: InstallOptions,
  io: InstallIo,
): number {
  try {
    const spec = hostSpec(hostName);
    if (options.file !== undefined && options.scope !== undefined)
      throw new UsageError('--file and --scope both choose the file: give one of them');
    const env = parseEnv(options.env ?? []);
    const hostEnv = hostEnvironment(io);
    const scope = chooseScope(spec, options.scope);
    const file = options.file === undefined ? spec.file(scope, hostEnv) : resolve(io.cwd, options.file);
    let entries: NamedEntry[];
    if (servers.length === 0) {
      const { command, script } = toolwireCommand();
      const args = [script, ...serveArguments(serveArgs, io.cwd)];
      const name = checkName(options.name ?? 'toolwire', '--name');
      entries = [{ name, entry: spec.stdioEntry({ command, args, ...(env !== undefined && { env }) }) }];
    } else {
      if (serveArgs.length > 0)
        throw new UsageError('serve options after -- apply to the toolwire entry, not to SERVER names');
      if (options.name !== undefined)
        throw new UsageError(
          '--name names the toolwire entry; SERVER names keep their names from the config',
        );
      const config = readConfig(options.config, io.cwd);
      const from = config.file;
      if (from === undefined) {
        throw new UsageError(
          `SERVER names come from the "mcpServers" of a toolwire config, and there is no ${config.wanted} (--config FILE reads another)`,
        );
      }
      const known = Object.keys(config.servers);
      entries = servers.map((server) => {
        const entry = Object.hasOwn(config.servers, server) ? config.servers[server] : undefined;
        if (entry === undefined) {
          const has = known.length === 0 ? 'it has none' : `it has: ${known.join(', ')}`;
          throw new UsageError(
            `there is no server "${server}" in the "mcpServers" of ${from}${didYouMean(server, known)}; ${has}`,
          );
        }
        return {
          name: checkName(server, 'the server name'),
          entry: configuredEntry(server, entry, spec, env, from),
        };
      });
    }
    const target = { file, key: spec.key, jsonc: spec.jsonc, force: options.force === true };
    if (env !== undefined && options.file === undefined && scope === 'project') {
      io.stderr.write(
        `toolwire: warning: the --env values go into ${file}, a project file that is often committed to version control\n`,
      );
    }
    if (options.dryRun === true) return dryRun(file, entries, target, io);
    let outcomes: Record<string, EntryOutcome> = {};
    const commit = commitFile(
      file,
      (before) => {
        const merged = mergeEntries(before, entries, target);
        outcomes = merged.outcomes;
        return merged.text;
      },
      { newFileMode: env === undefined ? 0o644 : 0o600, ...(io.now !== undefined && { now: io.now }) },
    );
    const lines = entries.map(({ name }) => REPORT[outcomes[name] ?? 'unchanged'](name, commit.file));
    for (const { name, entry } of entries) {
      if (outcomes[name] === 'unchanged') continue;
      if (typeof entry.command === 'string' && Array.isArray(entry.args))
        lines.push(`  runs: ${shellCommand([entry.command, ...(entry.args as string[])])}`);
      else if (typeof entry.url === 'string') lines.push(`  connects to: ${entry.url}`);
    }
    if (commit.backup !== undefined) lines.push(`  backup of the previous file: ${commit.backup}`);
    lines.push(commit.changed ? spec.afterwards : 'Nothing was changed.');
    io.stdout.write(lines.join('\n') + '\n');
    return ExitCode.Success;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`toolwire: ${error.message}\nrun "toolwire install --help" for usage\n`);
      return ExitCode.Usage;
    }
    if (error instanceof RefusedFileError) {
      io.stderr.write(`toolwire: ${error.message}\n`);
      return ExitCode.Usage;
    }
    io.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return ExitCode.Connection;
  }
}

/** Runs the merge without writing: the JSON the entries would add goes to stdout, what would happen to stderr. */
function dryRun(
  file: string,
  entries: readonly NamedEntry[],
  target: Parameters<typeof mergeEntries>[2],
  io: InstallIo,
): number {
  const real = writeTarget(file);
  const before = readBytes(real)?.toString('utf8');
  const { outcomes } = mergeEntries(before, entries, target);
  const servers = Object.fromEntries(entries.map(({ name, entry }) => [name, entry]));
  io.stdout.write(`${JSON.stringify({ [target.key]: servers }, null, 2)}\n`);
  for (const { name } of entries) {
    const outcome = outcomes[name] ?? 'unchanged';
    const what =
      outcome === 'added'
        ? `would add "${name}" to ${real}${before === undefined ? ' (a new file)' : ''}`
        : outcome === 'replaced'
          ? `would replace "${name}" in ${real}`
          : `"${name}" in ${real} is already up to date`;
    io.stderr.write(`toolwire: dry run: ${what}; nothing was written\n`);
  }
  return ExitCode.Success;
}
