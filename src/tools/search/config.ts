// The search pack's configuration: `packs.search` in the config file.

import { ConfigReader } from '../config-reader.js';

export interface SearchConfig {
  /** Files larger than this are skipped. Default 1 MiB. */
  maxFileBytes: number;
  /** Most files one search examines. Default 50,000. */
  maxFiles: number;
  /** Wall time of one search, walking and matching together (the matching thread's start-up aside). Default 5,000 ms. */
  timeBudgetMs: number;
  /** Time one search may spend on matching threads (a hostile pattern burns this much, then ends). Default 2,000 ms. */
  matchBudgetMs: number;
  /** Threads that run patterns, shared fairly by all searches of the server. Default 4. */
  matchingThreads: number;
}

export const SEARCH_DEFAULTS: Readonly<SearchConfig> = {
  maxFileBytes: 1024 * 1024,
  maxFiles: 50_000,
  timeBudgetMs: 5000,
  matchBudgetMs: 2000,
  matchingThreads: 4,
};

const KEYS = ['maxFileBytes', 'maxFiles', 'timeBudgetMs', 'matchBudgetMs', 'matchingThreads'];

export function parseSearchConfig(raw: unknown, key: string): SearchConfig {
  const reader = new ConfigReader(raw, key, KEYS);
  return {
    maxFileBytes: reader.integer('maxFileBytes', SEARCH_DEFAULTS.maxFileBytes, 1, 64 * 1024 * 1024, 'bytes'),
    maxFiles: reader.integer('maxFiles', SEARCH_DEFAULTS.maxFiles, 1, 1_000_000, 'files'),
    timeBudgetMs: reader.integer('timeBudgetMs', SEARCH_DEFAULTS.timeBudgetMs, 10, 600_000, 'milliseconds'),
    matchBudgetMs: reader.integer(
      'matchBudgetMs',
      SEARCH_DEFAULTS.matchBudgetMs,
      10,
      600_000,
      'milliseconds',
    ),
    matchingThreads: reader.integer('matchingThreads', SEARCH_DEFAULTS.matchingThreads, 1, 64, 'threads'),
  };
}
