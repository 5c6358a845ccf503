// The result of an analysis, twice: structuredContent for programs, and the same facts as readable text.

import type { Analysis } from './analyze.js';
import type { ColumnStats, DistinctCut, Operation, SkippedExample } from './column-stats.js';
import { TRUNCATED_BY, distinctWarnings, label, type Labelled, type TruncatedBy } from './distinct-notes.js';

export interface ColumnReport {
  /** The header's name for the column; null when the file has no header. */
  column: string | null;
  index: number;
  count?: number;
  sum?: number | null;
  average?: number | null;
  min?: number | null;
  max?: number | null;
  /** Cells read as numbers, when a numeric operation was asked for. */
  numeric?: number;
  /** `truncatedBy` names the bound that left values out: maxDistinct, the call's budget, or the server's. */
  distinct?: { values: { value: string; count: number }[]; truncated: boolean; truncatedBy?: TruncatedBy };
  skipped: { missing: number; nonNumeric?: number };
  /** The first few skipped cells. */
  examples: SkippedExample[];
}

export interface CsvReport {
  path: string;
  /** Data rows (the header is not one). */
  rows: number;
  columns: ColumnReport[];
  raggedRows: number;
  raggedLines: number[];
  blankLines: number;
  strayQuotes: number;
  unterminatedQuoteLine: number | null;
  bytesRead: number;
  warnings: string[];
}

const NUMERIC: readonly Operation[] = ['sum', 'average', 'min', 'max'];

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

/** "lines 3, 7, 9", with "…" when more were seen than kept. */
const lineList = (lines: readonly number[], total: number): string =>
  `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}${total > lines.length ? ', …' : ''}`;

const finite = (value: number): number | null => (Number.isFinite(value) ? value : null);

function columnReport(
  stats: ColumnStats,
  operations: ReadonlySet<Operation>,
  warnings: string[],
): ColumnReport {
  const column = stats.name ?? null;
  const name = label({ column, index: stats.index });
  const numeric = NUMERIC.some((op) => operations.has(op));
  const has = stats.numericCount > 0;
  const sum = finite(stats.sum);
  // Keys in reading order: the column, its statistics, then what was skipped.
  const report: Omit<ColumnReport, 'skipped' | 'examples'> = { column, index: stats.index };
  if (operations.has('count')) report.count = stats.count;
  if (operations.has('sum')) report.sum = sum;
  if (operations.has('average')) report.average = has && sum !== null ? sum / stats.numericCount : null;
  if (operations.has('min')) report.min = has ? stats.min : null;
  if (operations.has('max')) report.max = has ? stats.max : null;
  if (numeric) report.numeric = stats.numericCount;
  if (operations.has('distinct')) {
    const cut = stats.distinctCut;
    report.distinct = {
      values: stats.distinctValues(),
      truncated: cut !== undefined,
      ...(cut !== undefined && { truncatedBy: TRUNCATED_BY[cut] }),
    };
  }
  const skipped = numeric
    ? { nonNumeric: stats.nonNumeric, missing: stats.missing }
    : { missing: stats.missing };

  if (numeric && !has && stats.count > 0) {
    warnings.push(
      `column ${name} has no numeric values (${plural(stats.nonNumeric, 'non-numeric cell')}); sum, average, min and max need numbers such as 12, -3.5 or 1e3`,
    );
  }
  if (numeric && has && sum === null) {
    warnings.push(`the sum of column ${name} exceeds ±1.8e308, so sum and average are null`);
  }
  return { ...report, skipped, examples: stats.examples };
}

export function buildReport(
  path: string,
  analysis: Analysis,
  operations: ReadonlySet<Operation>,
  maxDistinct: number,
): CsvReport {
  const { table, parser, bytesRead } = analysis;
  const warnings = [...table.warnings];
  const columns = table.columns.map((stats) => columnReport(stats, operations, warnings));
  const cut = new Map<DistinctCut, Labelled[]>();
  table.columns.forEach((stats, index) => {
    if (stats.distinctCut === undefined) return;
    const list = cut.get(stats.distinctCut) ?? [];
    list.push(columns[index] as ColumnReport);
    cut.set(stats.distinctCut, list);
  });
  warnings.push(...distinctWarnings(cut, maxDistinct, table.budget));
  if (table.raggedRows > 0) {
    warnings.push(
      `${plural(table.raggedRows, 'ragged row')} (${lineList(table.raggedLines, table.raggedRows)}) ${table.raggedRows === 1 ? 'does' : 'do'} not have ${table.width} fields like the ${table.hasHeader ? 'header' : 'first row'}: cells were matched to columns by position, absent cells counted as missing, extra fields ignored`,
    );
  }
  if (parser.blankLines > 0) {
    warnings.push(
      `${plural(parser.blankLines, 'blank line')} (${lineList(parser.blankLineNumbers, parser.blankLines)}) skipped`,
    );
  }
  if (parser.strayQuotes > 0) {
    warnings.push(
      `${plural(parser.strayQuotes, 'stray quote')} (${lineList(parser.strayQuoteLines, parser.strayQuotes)}): a quote inside an unquoted field, or text after a closing quote, was read as part of the field; quote the whole field and double quotes inside it ("")`,
    );
  }
  const unterminated = parser.unterminatedQuoteLine;
  if (unterminated !== undefined) {
    warnings.push(
      `the quoted field opened on line ${unterminated} is not closed before the end of the file; its record was not analysed (close the quote with ")`,
    );
  }
  return {
    path,
    rows: table.rows,
    columns,
    raggedRows: table.raggedRows,
    raggedLines: table.raggedLines,
    blankLines: parser.blankLines,
    strayQuotes: parser.strayQuotes,
    unterminatedQuoteLine: unterminated ?? null,
    bytesRead,
    warnings,
  };
}

const show = (value: number | null | undefined): string =>
  value === null || value === undefined ? 'none' : String(value);

function columnText(column: ColumnReport): string {
  const parts: string[] = [];
  if (column.count !== undefined) parts.push(`count ${column.count}`);
  if (column.sum !== undefined) parts.push(`sum ${show(column.sum)}`);
  if (column.average !== undefined) parts.push(`average ${show(column.average)}`);
  if (column.min !== undefined) parts.push(`min ${show(column.min)}`);
  if (column.max !== undefined) parts.push(`max ${show(column.max)}`);
  if (column.distinct !== undefined) {
    const { values, truncated } = column.distinct;
    const listed = values.map(({ value, count }) => `${JSON.stringify(value)} ×${count}`).join(', ');
    parts.push(`distinct ${values.length}${truncated ? '+ (truncated)' : ''}: ${listed}`);
  }
  const skipped =
    column.skipped.nonNumeric === undefined
      ? `{ missing: ${column.skipped.missing} }`
      : `{ nonNumeric: ${column.skipped.nonNumeric}, missing: ${column.skipped.missing} }`;
  const examples = column.examples
    .map((e) =>
      e.value === undefined ? `line ${e.line}: empty` : `line ${e.line}: ${JSON.stringify(e.value)}`,
    )
    .join(', ');
  return `- ${label(column)}: ${parts.join(', ')}; skipped: ${skipped}${examples === '' ? '' : ` (${examples})`}`;
}

export function reportText(report: CsvReport): string {
  const ragged = report.raggedRows > 0 ? ` (${lineList(report.raggedLines, report.raggedRows)})` : '';
  const lines = [
    `${report.path}: rows: ${report.rows}, raggedRows: ${report.raggedRows}${ragged}`,
    ...report.columns.map(columnText),
  ];
  if (report.warnings.length > 0)
    lines.push('warnings:', ...report.warnings.map((warning) => `- ${warning}`));
  return lines.join('\n');
}
