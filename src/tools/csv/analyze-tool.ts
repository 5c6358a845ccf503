// The `analyze_csv` tool: streams a CSV file inside the roots and reports per-column statistics.

import { ToolError, defineTool, text, toolResult, type ToolContext } from '../../server/index.js';
import { openRegularFile, type Roots } from '../roots.js';
import { analyzeCsv, type AnalyzeLimits } from './analyze.js';
import type { Operation } from './column-stats.js';
import { CSV_DEFAULTS, type CsvConfig } from './config.js';
import { CsvError } from './csv-error.js';
import { DistinctPool, limitsOf } from './distinct-budget.js';
import { buildReport, reportText } from './report.js';
import { DEFAULT_MAX_DISTINCT, inputSchema, outputSchema } from './schemas.js';
import type { ColumnRef } from './table.js';

const DESCRIPTION = [
  'Computes per-column statistics of a CSV file inside the allowed roots, reading it as a stream (files up to',
  'gigabytes). Operations: sum, average, min, max (over the cells that are numbers), count (non-empty cells),',
  'distinct (values with their counts, at most maxDistinct per column; the report says which columns were cut short).',
  'Columns by header name or 0-based index (default: all).',
  'Reads RFC 4180 CSV: quoted fields with "" for a quote and embedded delimiters or line breaks; CRLF, LF or CR',
  'line ends; a UTF-8 byte order mark is ignored. Nothing is dropped silently: empty cells, non-numeric cells,',
  'rows with too few or too many fields, blank lines and quote errors are counted, with line numbers, in the result.',
  'Progress is reported in bytes read. Example: {"path": "sales.csv", "operations": ["sum", "average"],',
  '"columns": ["price"]} returns {"rows": 3, "columns": [{"column": "price", "index": 1, "sum": 60, "average": 20, …}], …}',
  'and the text "sales.csv: rows: 3, raggedRows: 0" followed by one line per column.',
].join(' ');

interface CsvToolOptions {
  roots: Roots;
  /** The distinct-value bounds default to CSV_DEFAULTS. */
  limits: AnalyzeLimits & Partial<Pick<CsvConfig, 'maxDistinctPerCall' | 'maxDistinctInFlight'>>;
  timeoutMs: number;
  /** Shared by every call of the tool (by default its own, of maxDistinctInFlight values). */
  distinctPool?: DistinctPool;
}

/** The arguments, validated by the input schema, with defaults filled in. */
function readArguments(args: Record<string, unknown>) {
  // Each cast below restates what the input schema has already checked.
  const operations = new Set(args.operations as Operation[]);
  const columns = args.columns as ColumnRef[] | undefined;
  const delimiter = (args.delimiter as string | undefined) ?? ',';
  const hasHeader = (args.hasHeader as boolean | undefined) ?? true;
  const maxDistinct = (args.maxDistinct as number | undefined) ?? DEFAULT_MAX_DISTINCT;
  if (delimiter.length !== 1) {
    throw new ToolError(
      `delimiter ${JSON.stringify(delimiter)} is not a single UTF-16 character; use a character such as ",", ";", "|" or a tab`,
    );
  }
  const named = columns?.find((ref) => typeof ref === 'string');
  if (!hasHeader && named !== undefined) {
    throw new ToolError(
      `columns names a column (${JSON.stringify(named)}) but hasHeader is false, so columns have no names: give 0-based indexes instead`,
    );
  }
  return { operations, columns, delimiter, hasHeader, maxDistinct };
}

async function run(
  args: Record<string, unknown>,
  ctx: ToolContext,
  options: CsvToolOptions,
  pool: DistinctPool,
) {
  const request = readArguments(args);
  const resolved = await options.roots.resolve(args.path, 'file');
  const file = options.roots.display(resolved);
  const handle = await openRegularFile(resolved, file);
  const perCall = options.limits.maxDistinctPerCall ?? CSV_DEFAULTS.maxDistinctPerCall;
  const reservation = request.operations.has('distinct') ? pool.reserve(limitsOf(perCall)) : undefined;
  try {
    const table = { ...request, file, ...(reservation !== undefined && { distinct: reservation }) };
    const analysis = await analyzeCsv(handle, table, options.limits, {
      signal: ctx.signal,
      progress: (bytes, total) => ctx.progress(bytes, total),
    });
    const report = buildReport(file, analysis, request.operations, request.maxDistinct);
    return toolResult({ content: [text(reportText(report))], structuredContent: report });
  } catch (error) {
    if (error instanceof CsvError) throw new ToolError(error.message);
    throw error;
  } finally {
    reservation?.release();
    await handle.close();
  }
}

export function analyzeCsvTool(options: CsvToolOptions) {
  const inFlight = options.limits.maxDistinctInFlight ?? CSV_DEFAULTS.maxDistinctInFlight;
  const pool = options.distinctPool ?? new DistinctPool(limitsOf(inFlight));
  return defineTool({
    name: 'analyze_csv',
    title: 'Analyze a CSV file',
    description: DESCRIPTION,
    inputSchema,
    outputSchema,
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs: options.timeoutMs,
    handler: (args, ctx) => run(args, ctx, options, pool),
  });
}
