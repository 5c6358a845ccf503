// The search pack: search_code over the roots, honouring .gitignore, with regular expressions run in a worker.

import type { ToolPack } from '../pack.js';
import { parseSearchConfig, type SearchConfig } from './config.js';
import { searchCodeTool } from './search-code.js';

export const searchPack: ToolPack<SearchConfig> = {
  name: 'search',
  description:
    'Search the text of files inside the allowed roots, literally or by regular expression (read-only).',
  parseConfig: parseSearchConfig,
  create: (config, environment) => [searchCodeTool(config, environment)],
};

export { SEARCH_DEFAULTS, type SearchConfig } from './config.js';
export { IgnoreFile, isIgnored, type IgnoreLayer } from './gitignore.js';
export { Glob } from './glob.js';
export { MATCH_EVENTS_CHANNEL, type MatchEvent, type StopCause } from './match-events.js';
