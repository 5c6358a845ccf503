// The ready server's configuration: --tools / --root / --config and the HTTP flags, checked at startup with errors
// that name the bad key and what it accepts, and turned into tool definitions and the HTTP transport's options.

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Logger, ToolConfig } from '../server/index.js';
import { MAX_TIMEOUT_MS } from '../server/tool-definition.js';
import type { HttpOptions } from '../transports/http/index.js';
import { ConfigReader } from './config-reader.js';
import {
  httpSectionReader,
  mergeHttp,
  readHttpFlags,
  readHttpSection,
  toHttpOptions,
  type HttpValues,
} from './http-config.js';
import { GATEWAY_SCHEMA } from './gateway-schema.js';
import { MCP_SERVERS_SCHEMA } from './mcp-servers-schema.js';
import { ConfigError } from './pack.js';
import { DEFAULT_PACKS, PACK_TABLE } from './pack-table.js';
import { readPolicyConfig, type ServePolicy } from './policy-config.js';
import { POLICY_SCHEMA } from './policy-schema.js';
import { Roots } from './roots.js';

/** The config file, checked: every pack's settings parsed, module paths and roots resolved against the file. */
export interface ServeConfig {
  /** Absent when the file has no "tools" (then --tools, or the default packs). */
  tools?: string[];
  /** Absent when the file has no "roots" (then --root, or the current directory). */
  roots?: string[];
  /** Refuse files with more than one hard link (see RootsOptions). */
  refuseHardLinks: boolean;
  timeouts: Record<string, number>;
  /** Every pack's parsed settings, by pack name (defaults where the file has none). */
  packs: Record<string, unknown>;
  /** The "http" section by dotted path; flags override it. */
  http: HttpValues;
  /** The "policy" section as the policy layer's options; absent when the file has none (no policy). */
  policy?: ServePolicy;
}

/** Every top-level key of toolwire.json, which `toolwire serve` and `toolwire gateway` share (each reads its own). */
export const TOP_KEYS: readonly string[] = [
  'tools',
  'roots',
  'refuseHardLinks',
  'timeouts',
  'packs',
  'http',
  'policy',
  'mcpServers',
  'gateway',
  '$schema',
];

export interface ServeSettings {
  /** Pack names or module paths from --tools (comma-separated, repeatable); overrides the config's "tools". */
  tools?: readonly string[];
  /** From --root (repeatable); overrides the config's "roots". */
  roots?: readonly string[];
  /** From --config. */
  config?: string;
  /** HTTP flags as given, by the dotted path of the "http" setting they override (see HTTP_FIELDS). */
  http?: ReadonlyMap<string, readonly string[]>;
  cwd: string;
  logger: Logger;
}

const splitEntries = (entries: readonly string[]): string[] =>
  entries.flatMap((entry) =>
    entry
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );

const toolsProblem = (entry: string): string | undefined => {
  const parts = entry.split(',').map((part) => part.trim());
  return parts.every((part) => Object.hasOwn(PACK_TABLE, part) || (part !== '' && isModulePath(part)))
    ? undefined
    : `must name packs (${Object.keys(PACK_TABLE).join(', ')}) or modules like "./my-tools.js", separated by commas`;
};

/**
 * Checks a parsed config object (undefined: no file) and resolves its paths against `file`. While the schema is
 * being described (recordReaders), this is what it is built from.
 */
export function readServeConfig(raw: unknown, file: string): ServeConfig {
  const read = new ConfigReader(raw, '', TOP_KEYS, { label: 'config' });
  const base = resolve(file, '..');
  // Only its type is checked: editors read it, toolwire does not.
  read.describe('$schema', 'For editors, e.g. "./node_modules/toolwire/schema/toolwire.schema.json".');
  if (read.has('$schema')) read.string('$schema', '', 'the path or URL of toolwire.schema.json', () => true);
  read.external('mcpServers', MCP_SERVERS_SCHEMA);
  read.external('policy', POLICY_SCHEMA);
  read.external('gateway', GATEWAY_SCHEMA);
  const result: ServeConfig = {
    timeouts: read
      .describe('timeouts', 'Time limits per tool, by tool name, overriding what the tool declares.')
      .integerMap('timeouts', 'tool name', 1, MAX_TIMEOUT_MS, 'milliseconds'),
    refuseHardLinks: read
      .describe(
        'refuseHardLinks',
        'Refuse files with more than one hard link: a hard link inside a root may be the same file as one outside it. Default false.',
      )
      .boolean('refuseHardLinks', false),
    packs: {},
    http: readHttpSection(
      httpSectionReader(
        read
          .describe('http', 'How `toolwire serve --http` serves; each setting has a flag of the same name.')
          .raw('http'),
      ),
    ),
  };
  const policy = readPolicyConfig(read.raw('policy'), file);
  if (policy !== undefined) result.policy = policy;
  read.describe('tools', 'The packs and tool modules to serve. Default: calc, files, search, csv.');
  // Module paths, like roots, are relative to the config file, so the server can be started from anywhere.
  if (read.has('tools')) {
    result.tools = splitEntries(read.stringList('tools', [], { maxItems: 256, check: toolsProblem })).map(
      (part) => (isModulePath(part) && !isAbsolute(part) ? resolve(base, part) : part),
    );
  }
  read.describe(
    'roots',
    'The directories the file tools may use. Default: the directory toolwire starts in.',
  );
  if (read.has('roots')) {
    result.roots = read
      .stringList('roots', [], {
        maxItems: 64,
        check: (root) => (root === '' ? 'must be a directory path' : undefined),
      })
      .map((root) => resolve(base, root));
  }
  const packs = read
    .describe('packs', 'Settings of each built-in pack.')
    .section('packs', Object.keys(PACK_TABLE));
  for (const [name, pack] of Object.entries(PACK_TABLE)) {
    result.packs[name] = pack.parseConfig(packs.raw(name), packs.name(name));
  }
  return result;
}

async function readConfigFile(path: string, cwd: string): Promise<ServeConfig> {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new ConfigError(`config file ${file} cannot be read`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ConfigError(`config file ${file} must hold a JSON object with the keys ${TOP_KEYS.join(', ')}`);
  }
  return readServeConfig(parsed, file);
}

const isModulePath = (entry: string): boolean =>
  entry.startsWith('.') ||
  isAbsolute(entry) ||
  entry.endsWith('.js') ||
  entry.endsWith('.mjs') ||
  entry.endsWith('.ts');

/**
 * Where in the module a load failed. An error thrown while the module runs has a frame in it on its stack. A syntax
 * error caught from import() carries no location at all (Node prints one only for an uncaught error), so the file is
 * checked once more with `node --check`, whose first line of output is `path:line`: only on this failure path.
 */
function whereIn(error: unknown, url: string): string {
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : '';
  const at = stack.indexOf(`${url}:`);
  if (at !== -1) {
    const position = /^:(\d+)(?::(\d+))?/.exec(stack.slice(at + url.length));
    if (position !== null) {
      return ` (at ${fileURLToPath(url)}:${position[1]}${position[2] === undefined ? '' : `:${position[2]}`})`;
    }
  }
  const path = fileURLToPath(url);
  if (!(error instanceof SyntaxError) || !/\.m?js$/.test(path)) return '';
  const check = spawnSync(process.execPath, ['--check', path], { encoding: 'utf8', timeout: 10_000 });
  const line = /^(.+):(\d+)\n/.exec(check.stderr ?? '');
  return line !== null && line[1] === path ? ` (at ${path}:${line[2]})` : '';
}

/** Loads a module of the user's own tools: a default or named `tools` export, an array or a function returning one. */
async function loadModule(entry: string, cwd: string): Promise<ToolConfig[]> {
  const path = resolve(cwd, entry);
  if (!existsSync(path)) throw new ConfigError(`tool module ${entry} does not exist (${path})`);
  const url = pathToFileURL(path).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(
      `cannot load tool module ${entry}: ${(error as Error).message}${whereIn(error, url)}`,
    );
  }
  let exported = module.default ?? module.tools;
  if (typeof exported === 'function') exported = await (exported as () => unknown)();
  if (!Array.isArray(exported)) {
    throw new ConfigError(
      `tool module ${entry} must export (default or "tools") an array of tool definitions, or a function returning one`,
    );
  }
  return exported as ToolConfig[]; // each definition is checked when it is registered
}

/** The tools to serve, the roots they are confined to, and the HTTP transport's options. */
export async function loadServeConfig(settings: ServeSettings): Promise<{
  tools: ToolConfig[];
  roots: Roots;
  packs: string[];
  http: HttpOptions;
  policy: ServePolicy | undefined;
}> {
  const file =
    settings.config === undefined
      ? readServeConfig(undefined, settings.cwd)
      : await readConfigFile(settings.config, settings.cwd);
  const http = toHttpOptions(mergeHttp(file.http, readHttpFlags(settings.http ?? new Map())));
  const entries = splitEntries(settings.tools?.length ? settings.tools : (file.tools ?? DEFAULT_PACKS));
  const rootList = settings.roots?.length
    ? settings.roots.map((root) => resolve(settings.cwd, root))
    : (file.roots ?? [settings.cwd]);
  let roots: Roots;
  try {
    roots = await Roots.create(rootList, { refuseHardLinks: file.refuseHardLinks });
  } catch (error) {
    throw new ConfigError(`roots: ${(error as Error).message}`);
  }
  const timeouts = file.timeouts;
  const tools: ToolConfig[] = [];
  const packs: string[] = [];
  for (const entry of entries) {
    if (isModulePath(entry)) {
      tools.push(...(await loadModule(entry, settings.cwd)));
      continue;
    }
    // Only the packs served are loaded; an own-property check, so that a name like toString is unknown too.
    const pack = Object.hasOwn(PACK_TABLE, entry) ? await PACK_TABLE[entry]?.load() : undefined;
    if (pack === undefined) {
      throw new ConfigError(
        `unknown tool pack "${entry}"; packs: ${Object.keys(PACK_TABLE).join(', ')} (or a module path like ./my-tools.js)`,
      );
    }
    const created = pack.create(file.packs[entry], { roots, logger: settings.logger, timeouts });
    if (created.length === 0)
      settings.logger.warn(
        `pack "${entry}" is off: it needs configuration (see packs.${entry} in the README)`,
      );
    tools.push(...created);
    packs.push(entry);
  }
  // Operator timeouts apply to every tool by name, whatever defined it.
  return {
    tools: tools.map((tool) =>
      timeouts[tool.name] === undefined ? tool : { ...tool, timeoutMs: timeouts[tool.name] as number },
    ),
    roots,
    packs,
    http,
    policy: file.policy,
  };
}
