// The built-in tool packs, by name, and how `toolwire serve` turns a configuration into tools.

import { calcPack } from './calc/index.js';
import { csvPack } from './csv/index.js';
import { execPack } from './exec/index.js';
import { filesPack } from './files/index.js';
import { githubPack } from './github/index.js';
import { httpPack } from './http/index.js';
import type { ToolPack } from './pack.js';
import { searchPack } from './search/index.js';

/** Every built-in pack, in the order `toolwire serve` lists them. */
export const PACKS: Readonly<Record<string, ToolPack<unknown>>> = {
  calc: calcPack as ToolPack<unknown>,
  files: filesPack as ToolPack<unknown>,
  search: searchPack as ToolPack<unknown>,
  csv: csvPack as ToolPack<unknown>,
  exec: execPack as ToolPack<unknown>,
  http: httpPack as ToolPack<unknown>,
  github: githubPack as ToolPack<unknown>,
};

/** Served when nothing is chosen: all read-only, rooted at the current directory. */
export const DEFAULT_PACKS: readonly string[] = ['calc', 'files', 'search', 'csv'];

export { ConfigError, type PackEnvironment, type ToolPack } from './pack.js';
export { Roots, openRegularFile, type ResolvedPath } from './roots.js';
export { loadServeConfig, type ServeConfig, type ServeSettings } from './serve-config.js';
export { calcPack, csvPack, execPack, filesPack, githubPack, httpPack, searchPack };
