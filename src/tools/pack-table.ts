// The built-in packs as `toolwire serve` reads them: each pack's config parser (small) and a loader for the pack
// itself, so that serving `--tools calc` does not load the search, csv, files, exec, http and github code (~60
// modules, ~30 ms of a stdio server's start). packs.ts keeps the public PACKS table; a test holds the two together.

import { calcPack } from './calc/index.js';
import { parseCsvConfig } from './csv/config.js';
import { parseExecConfig } from './exec/config.js';
import { parseFilesConfig } from './files/config.js';
import { parseGithubConfig } from './github/config.js';
import { parseHttpConfig } from './http/config.js';
import type { ToolPack } from './pack.js';
import { parseSearchConfig } from './search/config.js';

export interface PackEntry {
  /** The pack's own parseConfig: every pack's settings are checked whether it is served or not. */
  parseConfig(raw: unknown, key: string): unknown;
  /** The pack, loaded when it is served. */
  load(): Promise<ToolPack<unknown>>;
}

// A pack's create takes the config its own parseConfig returned; the table erases that type, as PACKS does.
const erased = <C>(pack: ToolPack<C>): ToolPack<unknown> => pack as ToolPack<unknown>;

/** Every built-in pack, in the order `toolwire serve` lists them (the order of PACKS). */
export const PACK_TABLE: Readonly<Record<string, PackEntry>> = {
  // calc is small (7 modules): its parser lives in its index, loaded here anyway.
  calc: { parseConfig: calcPack.parseConfig, load: () => Promise.resolve(erased(calcPack)) },
  files: {
    parseConfig: parseFilesConfig,
    load: async () => erased((await import('./files/index.js')).filesPack),
  },
  search: {
    parseConfig: parseSearchConfig,
    load: async () => erased((await import('./search/index.js')).searchPack),
  },
  csv: { parseConfig: parseCsvConfig, load: async () => erased((await import('./csv/index.js')).csvPack) },
  exec: {
    parseConfig: parseExecConfig,
    load: async () => erased((await import('./exec/index.js')).execPack),
  },
  http: {
    parseConfig: parseHttpConfig,
    load: async () => erased((await import('./http/index.js')).httpPack),
  },
  github: {
    parseConfig: parseGithubConfig,
    load: async () => erased((await import('./github/index.js')).githubPack),
  },
};

/** Served when nothing is chosen: all read-only, rooted at the current directory. */
export const DEFAULT_PACKS: readonly string[] = ['calc', 'files', 'search', 'csv'];
