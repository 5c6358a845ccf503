// Running statistics for one column: constant memory per column, except the table of distinct values (capped by
// maxDistinct and by the call's DistinctBudget).

import type { BudgetCut, DistinctBudget } from './distinct-budget.js';

export const OPERATIONS = ['sum', 'average', 'count', 'min', 'max', 'distinct'] as const;
export type Operation = (typeof OPERATIONS)[number];

/** How many skipped cells each column keeps as examples for the report. */
export const EXAMPLES_KEPT = 5;
/** Longest cell text quoted in an example. */
const EXAMPLE_CHARS = 40;

export interface SkippedExample {
  line: number;
  reason: 'missing' | 'non-numeric';
  value?: string;
}

/** Why a column's distinct values stop short: maxDistinct, or the call's (or the server's) budget. */
export type DistinctCut = 'maxDistinct' | BudgetCut;

/**
 * A copy of a string that shares no memory with the chunk it was cut from: V8 keeps a sliced string's parent
 * alive, and a kept distinct value must not pin a whole read buffer.
 */
const detach = (value: string): string => (' ' + value).slice(1);

/** Number() accepts 0x1F, 0o7 and 0b1; in a CSV those are text. */
function hasRadixPrefix(cell: string): boolean {
  const text = cell.charCodeAt(0) <= 32 ? cell.trimStart() : cell;
  if (text.charCodeAt(0) !== 48) return false;
  const letter = text.charCodeAt(1) | 0x20;
  return letter === 0x78 || letter === 0x6f || letter === 0x62;
}

export class ColumnStats {
  readonly index: number;
  readonly name: string | undefined;
  readonly #numeric: boolean;
  readonly #maxDistinct: number;
  readonly #budget: DistinctBudget | undefined;
  readonly #distinct: Map<string, number> | undefined;
  count = 0;
  missing = 0;
  nonNumeric = 0;
  numericCount = 0;
  min = Infinity;
  max = -Infinity;
  /** Neumaier's compensated sum: exact for integers below 2**53, and accurate for long columns of decimals. */
  #sum = 0;
  #compensation = 0;
  /** The first reason a value was left out, if one was. */
  distinctCut: DistinctCut | undefined;
  readonly examples: SkippedExample[] = [];

  constructor(
    index: number,
    name: string | undefined,
    operations: ReadonlySet<Operation>,
    maxDistinct: number,
    budget: DistinctBudget | undefined,
  ) {
    this.index = index;
    this.name = name === undefined ? undefined : detach(name);
    this.#numeric = ['sum', 'average', 'min', 'max'].some((op) => operations.has(op as Operation));
    this.#maxDistinct = maxDistinct;
    this.#budget = budget;
    this.#distinct = budget === undefined ? undefined : new Map(); // the table makes a budget for "distinct" only
  }

  get sum(): number {
    return this.#sum + this.#compensation;
  }

  /** Distinct values in order of first appearance, with how often each occurred. */
  distinctValues(): { value: string; count: number }[] {
    return [...(this.#distinct ?? [])].map(([value, count]) => ({ value, count }));
  }

  /** One cell; undefined when the row is too short to have it. */
  add(cell: string | undefined, line: number): void {
    if (cell === undefined || cell.length === 0 || (cell.charCodeAt(0) <= 32 && cell.trim().length === 0)) {
      this.missing++;
      if (this.examples.length < EXAMPLES_KEPT) this.examples.push({ line, reason: 'missing' });
      return;
    }
    this.count++;
    if (this.#numeric) {
      const value = Number(cell);
      if (Number.isFinite(value) && !hasRadixPrefix(cell)) this.#addNumber(value);
      else {
        this.nonNumeric++;
        if (this.examples.length < EXAMPLES_KEPT) {
          const value = detach(cell.length > EXAMPLE_CHARS ? `${cell.slice(0, EXAMPLE_CHARS)}…` : cell);
          this.examples.push({ line, reason: 'non-numeric', value });
        }
      }
    }
    const distinct = this.#distinct;
    if (distinct === undefined || this.#budget === undefined) return;
    const seen = distinct.get(cell);
    if (seen !== undefined) distinct.set(cell, seen + 1);
    else if (distinct.size >= this.#maxDistinct) this.distinctCut ??= 'maxDistinct';
    else {
      const cut = this.#budget.admit(distinct.size, cell.length);
      if (cut === undefined) distinct.set(detach(cell), 1);
      else this.distinctCut ??= cut;
    }
  }

  #addNumber(value: number): void {
    this.numericCount++;
    const sum = this.#sum;
    const total = sum + value;
    if (Math.abs(sum) >= Math.abs(value)) this.#compensation += sum - total + value;
    else this.#compensation += value - total + sum;
    this.#sum = total;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
}
