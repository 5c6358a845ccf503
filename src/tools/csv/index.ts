// The csv pack: analyze_csv, a streaming CSV reader with per-column statistics, confined to the roots.

import type { ToolPack } from '../pack.js';
import { analyzeCsvTool } from './analyze-tool.js';
import { parseCsvConfig, type CsvConfig } from './config.js';

export { CsvParser, type CsvParserOptions } from './csv-parser.js';
export { CsvError } from './csv-error.js';
export { CSV_DEFAULTS, parseCsvConfig, type CsvConfig } from './config.js';
export { OPERATIONS, type Operation } from './column-stats.js';
export { analyzeCsvTool } from './analyze-tool.js';
export { DistinctPool, limitsOf, type DistinctLimits } from './distinct-budget.js';
export type { CsvReport, ColumnReport } from './report.js';

/** Five minutes: a 2 GiB file takes well under a minute, so this only stops a stalled disk or a huge share. */
export const CSV_DEFAULT_TIMEOUT_MS = 300_000;

export const csvPack: ToolPack<CsvConfig> = {
  name: 'csv',
  description:
    'analyze_csv: per-column sum, average, count, min, max and distinct values of CSV files inside the roots.',
  parseConfig: parseCsvConfig,
  create(config, environment) {
    return [
      analyzeCsvTool({
        roots: environment.roots,
        limits: config,
        timeoutMs: environment.timeouts['analyze_csv'] ?? CSV_DEFAULT_TIMEOUT_MS,
      }),
    ];
  },
};
