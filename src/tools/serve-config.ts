// The ready server's configuration: --tools / --root / --config, checked at startup with errors that name the bad
// key and what it accepts, and turned into tool definitions (built-in packs and the user's own modules).

import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { checkTimeout, type Logger, type ToolConfig } from '../server/index.js';
import { DEFAULT_PACKS, PACKS } from './index.js';
import { ConfigError } from './pack.js';
import { Roots } from './roots.js';

/** What may stand in the config file (mcpServers belongs to the client commands and is ignored here). */
export interface ServeConfig {
  tools?: string[];
  roots?: string[];
  timeouts?: Record<string, number>;
  packs?: Record<string, unknown>;
}

const TOP_KEYS = ['tools', 'roots', 'timeouts', 'packs', 'mcpServers', '$schema'];

export interface ServeSettings {
  /** Pack names or module paths from --tools (comma-separated, repeatable); overrides the config's "tools". */
  tools?: readonly string[];
  /** From --root (repeatable); overrides the config's "roots". */
  roots?: readonly string[];
  /** From --config. */
  config?: string;
  cwd: string;
  logger: Logger;
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
  for (const key of Object.keys(parsed)) {
    if (!TOP_KEYS.includes(key))
      throw new ConfigError(`config has an unknown key "${key}"; allowed keys: ${TOP_KEYS.join(', ')}`);
  }
  const config = parsed as Record<string, unknown>; // checked: a plain object of known keys
  const strings = (key: string): string[] | undefined => {
    const value = config[key];
    if (value === undefined) return undefined;
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && item.length > 0)) {
      throw new ConfigError(`config "${key}" must be an array of non-empty strings`);
    }
    return value as string[];
  };
  const result: ServeConfig = {};
  const tools = strings('tools');
  const roots = strings('roots');
  // Module paths, like roots, are relative to the config file, so the server can be started from anywhere.
  if (tools !== undefined) {
    result.tools = tools
      .flatMap((entry) =>
        entry
          .split(',')
          .map((part) => part.trim())
          .filter((part) => part.length > 0),
      )
      .map((part) => (isModulePath(part) && !isAbsolute(part) ? resolve(file, '..', part) : part));
  }
  if (roots !== undefined) result.roots = roots.map((root) => resolve(file, '..', root));
  if (config.timeouts !== undefined) {
    if (typeof config.timeouts !== 'object' || config.timeouts === null || Array.isArray(config.timeouts)) {
      throw new ConfigError('config "timeouts" must map tool names to milliseconds');
    }
    for (const [name, ms] of Object.entries(config.timeouts)) {
      try {
        checkTimeout(ms, `timeouts.${name}`);
      } catch (error) {
        throw new ConfigError(`config ${(error as Error).message}`);
      }
    }
    result.timeouts = config.timeouts as Record<string, number>;
  }
  if (config.packs !== undefined) {
    if (typeof config.packs !== 'object' || config.packs === null || Array.isArray(config.packs)) {
      throw new ConfigError(
        `config "packs" must be an object keyed by pack name (${Object.keys(PACKS).join(', ')})`,
      );
    }
    for (const name of Object.keys(config.packs)) {
      if (!Object.hasOwn(PACKS, name)) {
        throw new ConfigError(
          `config "packs" has an unknown pack "${name}"; packs: ${Object.keys(PACKS).join(', ')}`,
        );
      }
    }
    result.packs = config.packs as Record<string, unknown>;
  }
  return result;
}

const isModulePath = (entry: string): boolean =>
  entry.startsWith('.') ||
  isAbsolute(entry) ||
  entry.endsWith('.js') ||
  entry.endsWith('.mjs') ||
  entry.endsWith('.ts');

/** Loads a module of the user's own tools: a default or named `tools` export, an array or a function returning one. */
async function loadModule(entry: string, cwd: string): Promise<ToolConfig[]> {
  const path = resolve(cwd, entry);
  if (!existsSync(path)) throw new ConfigError(`tool module ${entry} does not exist (${path})`);
  const url = pathToFileURL(path).href;
  let module: Record<string, unknown>;
  try {
    module = (await import(url)) as Record<string, unknown>;
  } catch (error) {
    throw new ConfigError(`cannot load tool module ${entry}: ${(error as Error).message}`);
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

/** The tools to serve, with the roots they are confined to. */
export async function loadServeConfig(
  settings: ServeSettings,
): Promise<{ tools: ToolConfig[]; roots: Roots; packs: string[] }> {
  const file = settings.config === undefined ? {} : await readConfigFile(settings.config, settings.cwd);
  const entries = (settings.tools?.length ? settings.tools : (file.tools ?? DEFAULT_PACKS)).flatMap((entry) =>
    entry
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part.length > 0),
  );
  const rootList = settings.roots?.length
    ? settings.roots.map((root) => resolve(settings.cwd, root))
    : (file.roots ?? [settings.cwd]);
  let roots: Roots;
  try {
    roots = await Roots.create(rootList);
  } catch (error) {
    throw new ConfigError(`roots: ${(error as Error).message}`);
  }
  const timeouts = file.timeouts ?? {};
  const tools: ToolConfig[] = [];
  const packs: string[] = [];
  for (const entry of entries) {
    if (isModulePath(entry)) {
      tools.push(...(await loadModule(entry, settings.cwd)));
      continue;
    }
    const pack = PACKS[entry];
    if (pack === undefined) {
      throw new ConfigError(
        `unknown tool pack "${entry}"; packs: ${Object.keys(PACKS).join(', ')} (or a module path like ./my-tools.js)`,
      );
    }
    const config = pack.parseConfig(file.packs?.[entry], `packs.${entry}`);
    const created = pack.create(config, { roots, logger: settings.logger, timeouts });
    if (created.length === 0)
      settings.logger.warn(
        `pack "${entry}" is off: it needs configuration (see packs.${entry} in the README)`,
      );
    tools.push(...created);
    packs.push(entry);
  }
  // Settings for packs that are not served are still checked: a typo there should not pass silently.
  for (const [name, raw] of Object.entries(file.packs ?? {})) {
    if (!packs.includes(name)) PACKS[name]?.parseConfig(raw, `packs.${name}`);
  }
  // Operator timeouts apply to every tool by name, whatever defined it.
  return {
    tools: tools.map((tool) =>
      timeouts[tool.name] === undefined ? tool : { ...tool, timeoutMs: timeouts[tool.name] as number },
    ),
    roots,
    packs,
  };
}
