// From records to statistics: the header (or first row) fixes the columns, then each row feeds the chosen ones.

import { LINES_KEPT } from './csv-parser.js';
import { CsvError } from './csv-error.js';
import { ColumnStats, type Operation } from './column-stats.js';
import { DistinctBudget, UNPOOLED, type Grant } from './distinct-budget.js';

/** Most columns one call analyses: the report (and its statistics) stay a readable size. */
export const MAX_COLUMNS = 1000;
/** Column names quoted in an error message, and the characters shown of each. */
const NAMES_LISTED = 50;
const NAME_CHARS = 60;

const quoteName = (name: string): string =>
  JSON.stringify(name.length > NAME_CHARS ? `${name.slice(0, NAME_CHARS)}…` : name);

export type ColumnRef = string | number;

export interface TableOptions {
  operations: ReadonlySet<Operation>;
  /** Names or 0-based indexes; undefined for every column. */
  columns: readonly ColumnRef[] | undefined;
  hasHeader: boolean;
  maxDistinct: number;
  /** The distinct values this call may keep, from the server's pool (default: one call's bound, unpooled). */
  distinct?: Grant;
  /** The file as the model named it, for messages. */
  file: string;
}

const listNames = (names: readonly string[]): string => {
  const shown = names.slice(0, NAMES_LISTED).map(quoteName);
  const more = names.length > NAMES_LISTED ? `, … and ${names.length - NAMES_LISTED} more` : '';
  return shown.join(', ') + more;
};

export class CsvTable {
  readonly #options: TableOptions;
  /** Set when the columns are known (each is sure of a share). */
  budget: DistinctBudget | undefined;
  #started = false;
  /** Fields in the header, or in the first row when there is no header. */
  width = 0;
  rows = 0;
  raggedRows = 0;
  readonly raggedLines: number[] = [];
  columns: ColumnStats[] = [];
  readonly warnings: string[] = [];

  constructor(options: TableOptions) {
    this.#options = options;
  }

  get hasHeader(): boolean {
    return this.#options.hasHeader;
  }

  get started(): boolean {
    return this.#started;
  }

  record(fields: string[], line: number): void {
    if (!this.#started) {
      this.#start(fields);
      if (this.#options.hasHeader) return;
    }
    this.rows++;
    if (fields.length !== this.width) {
      this.raggedRows++;
      if (this.raggedLines.length < LINES_KEPT) this.raggedLines.push(line);
    }
    for (const column of this.columns) column.add(fields[column.index], line);
  }

  #start(first: string[]): void {
    this.#started = true;
    this.width = first.length;
    const { hasHeader, columns, operations, maxDistinct, file } = this.#options;
    const header = hasHeader ? first : undefined;
    const indexes: number[] = [];
    if (columns === undefined) {
      if (first.length > MAX_COLUMNS) {
        throw new CsvError(
          `"${file}" has ${first.length} columns; at most ${MAX_COLUMNS} can be analysed in one call, so choose some with "columns" (names or 0-based indexes)`,
        );
      }
      for (let index = 0; index < first.length; index++) indexes.push(index);
    } else {
      for (const ref of columns) {
        const index = typeof ref === 'number' ? this.#checkIndex(ref) : this.#findName(ref, header ?? []);
        if (!indexes.includes(index)) indexes.push(index);
      }
    }
    if (operations.has('distinct')) {
      this.budget = new DistinctBudget(this.#options.distinct ?? UNPOOLED, indexes.length);
    }
    this.columns = indexes.map(
      (index) => new ColumnStats(index, header?.[index], operations, maxDistinct, this.budget),
    );
  }

  #checkIndex(index: number): number {
    if (index < this.width) return index;
    const { hasHeader, file } = this.#options;
    const what = hasHeader
      ? `the header of "${file}" has ${this.width} columns`
      : `the first row of "${file}" has ${this.width} fields`;
    throw new CsvError(`column index ${index} is out of range: ${what} (indexes 0 to ${this.width - 1})`);
  }

  #findName(name: string, header: readonly string[]): number {
    const index = header.indexOf(name);
    if (index === -1) {
      throw new CsvError(
        `column ${quoteName(name)} is not in the header of "${this.#options.file}"; the columns are ${listNames(header)} (names are matched exactly; a 0-based index works too)`,
      );
    }
    const again = header.indexOf(name, index + 1);
    if (again !== -1) {
      this.warnings.push(
        `the header names ${quoteName(name)} more than once (indexes ${index} and ${again}); the first was used, give an index to choose another`,
      );
    }
    return index;
  }
}
