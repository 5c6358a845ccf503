// What the report says when distinct values were left out: one warning per bound that was hit (maxDistinct, the
// call's budget, the server's), naming the bound and the columns it cut, so a wide file gets three lines, not 1,000.

import type { DistinctCut } from './column-stats.js';
import type { DistinctBudget } from './distinct-budget.js';
import { MAX_DISTINCT_LIMIT } from './schemas.js';

/** How the structured report names each bound. */
export const TRUNCATED_BY = { maxDistinct: 'maxDistinct', call: 'callLimit', server: 'serverLimit' } as const;
export type TruncatedBy = (typeof TRUNCATED_BY)[DistinctCut];

/** Columns named in one warning; the rest are counted. */
const COLUMNS_NAMED = 10;

export interface Labelled {
  column: string | null;
  index: number;
}

export const label = (column: Labelled): string =>
  column.column === null
    ? `column ${column.index}`
    : `${JSON.stringify(column.column)} (column ${column.index})`;

const plural = (count: number, noun: string): string => `${count} ${noun}${count === 1 ? '' : 's'}`;

function nameColumns(columns: readonly Labelled[]): string {
  const named = columns.slice(0, COLUMNS_NAMED).map(label).join(', ');
  return columns.length > COLUMNS_NAMED ? `${named}, … and ${columns.length - COLUMNS_NAMED} more` : named;
}

/** The warnings for columns whose distinct values stop short, grouped by the bound that stopped them. */
export function distinctWarnings(
  cut: ReadonlyMap<DistinctCut, Labelled[]>,
  maxDistinct: number,
  budget: DistinctBudget | undefined,
): string[] {
  const warnings: string[] = [];
  const byMax = cut.get('maxDistinct') ?? [];
  if (byMax.length === 1) {
    warnings.push(
      `column ${label(byMax[0] as Labelled)} has more than ${maxDistinct} distinct values; only the first ${maxDistinct} are listed (maxDistinct goes up to ${MAX_DISTINCT_LIMIT})`,
    );
  } else if (byMax.length > 1) {
    warnings.push(
      `${byMax.length} columns have more than ${maxDistinct} distinct values; only the first ${maxDistinct} of each are listed (maxDistinct goes up to ${MAX_DISTINCT_LIMIT}): ${nameColumns(byMax)}`,
    );
  }
  if (budget === undefined) return warnings;
  const { asked, granted, pool } = budget.grant;
  const byCall = cut.get('call') ?? [];
  if (byCall.length > 0) {
    warnings.push(
      `distinct values were cut short in ${plural(byCall.length, 'column')} (${nameColumns(byCall)}): one call keeps at most ${asked.values} distinct values and ${asked.chars} characters of them across its columns, each column at least ${budget.share}; ask for fewer columns to see more values of each`,
    );
  }
  const byServer = cut.get('server') ?? [];
  if (byServer.length > 0) {
    warnings.push(
      `distinct values were cut short in ${plural(byServer.length, 'column')} (${nameColumns(byServer)}): the analyses running at the same time share ${pool.values} distinct values and ${pool.chars} characters on this server, and this call got ${granted.values} values and ${granted.chars} characters of the ${asked.values} and ${asked.chars} one call may keep; try again when fewer analyses are running`,
    );
  }
  return warnings;
}
