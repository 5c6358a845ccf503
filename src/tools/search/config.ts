// The search pack's configuration: `packs.search` in the config file.

import { configObject, integerSetting } from '../files/index.js';

export interface SearchConfig {
  /** Files larger than this are skipped. Default 1 MiB. */
  maxFileBytes: number;
  /** Most files one search examines. Default 50,000. */
  maxFiles: number;
  /** Wall time of one search, walking and matching together (the matching thread's start-up aside). Default 5,000 ms. */
  timeBudgetMs: number;
}

export const SEARCH_DEFAULTS: Readonly<SearchConfig> = {
  maxFileBytes: 1024 * 1024,
  maxFiles: 50_000,
  timeBudgetMs: 5000,
};

export function parseSearchConfig(raw: unknown, key: string): SearchConfig {
  const object = configObject(raw, key, ['maxFileBytes', 'maxFiles', 'timeBudgetMs']);
  return {
    maxFileBytes: integerSetting(object, key, 'maxFileBytes', {
      min: 1,
      max: 64 * 1024 * 1024,
      fallback: SEARCH_DEFAULTS.maxFileBytes,
      unit: 'bytes',
    }),
    maxFiles: integerSetting(object, key, 'maxFiles', {
      min: 1,
      max: 1_000_000,
      fallback: SEARCH_DEFAULTS.maxFiles,
      unit: 'files',
    }),
    timeBudgetMs: integerSetting(object, key, 'timeBudgetMs', {
      min: 10,
      max: 600_000,
      fallback: SEARCH_DEFAULTS.timeBudgetMs,
      unit: 'milliseconds',
    }),
  };
}
