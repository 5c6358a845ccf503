// The built-in tool packs by name, and the default selection: what serve-config resolves --tools against and
// the package entry (index.ts) re-exports, kept apart from both so neither has to import the other.

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

export { DEFAULT_PACKS } from './pack-table.js';
