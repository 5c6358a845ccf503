// How many distinct values analyses may keep: one call across all its columns (each column sure of a fair share), and
// all calls in flight on a server together, so that concurrent "distinct" calls on wide files cannot fill memory and
// no report grows past what a model can read.

/** A number of distinct values and of their characters (UTF-16 units). */
export interface DistinctLimits {
  values: number;
  chars: number;
}

/**
 * One call keeps at most 20,000 distinct values: two columns at the highest maxDistinct (10,000), or 20 for each of
 * 1,000 columns; about 2 MiB of memory and of report. The calls in flight on a server keep at most 100,000 together.
 */
export const DEFAULT_DISTINCT_PER_CALL = 20_000;
export const DEFAULT_DISTINCT_IN_FLIGHT = 100_000;

/** Characters allowed per value on average: the character bound follows the value bound. */
export const CHARS_PER_VALUE = 50;

export const limitsOf = (values: number): DistinctLimits => ({ values, chars: values * CHARS_PER_VALUE });

/** A call's budget when no server pool is involved (analyzeCsv used on its own). */
export const UNPOOLED: Grant = {
  asked: limitsOf(DEFAULT_DISTINCT_PER_CALL),
  granted: limitsOf(DEFAULT_DISTINCT_PER_CALL),
  pool: limitsOf(DEFAULT_DISTINCT_PER_CALL),
};

/** What one call got: `granted` is less than `asked` when other calls held the rest of the `pool`. */
export interface Grant {
  readonly asked: DistinctLimits;
  readonly granted: DistinctLimits;
  readonly pool: DistinctLimits;
}

export interface Reservation extends Grant {
  release(): void;
}

/** The distinct values the calls in flight may keep together; a call reserves its part when it starts. */
export class DistinctPool {
  readonly total: DistinctLimits;
  readonly #free: DistinctLimits;

  constructor(total: DistinctLimits) {
    this.total = total;
    this.#free = { ...total };
  }

  /** Takes what is free up to `asked` (never waits: a call short of values says so in its report). */
  reserve(asked: DistinctLimits): Reservation {
    const granted = {
      values: Math.min(asked.values, this.#free.values),
      chars: Math.min(asked.chars, this.#free.chars),
    };
    this.#free.values -= granted.values;
    this.#free.chars -= granted.chars;
    let released = false;
    return {
      asked,
      granted,
      pool: this.total,
      release: () => {
        if (released) return;
        released = true;
        this.#free.values += granted.values;
        this.#free.chars += granted.chars;
      },
    };
  }
}

/** Why a column could not keep another value: its call's own bound, or the server's share of it. */
export type BudgetCut = 'call' | 'server';

/**
 * One call's budget. Each column may keep `share` values whatever the others do (half the values, split evenly);
 * the other half goes to whichever column needs it first. Characters are first come, first served.
 */
export class DistinctBudget {
  readonly grant: Grant;
  readonly share: number;
  #shared: number;
  #chars: number;

  constructor(grant: Grant, columns: number) {
    this.grant = grant;
    const { values, chars } = grant.granted;
    this.share = Math.floor(values / (2 * Math.max(1, columns)));
    this.#shared = values - this.share * columns;
    this.#chars = chars;
  }

  /** Whether a column that keeps `kept` values may keep one more of `length` characters; why not, if not. */
  admit(kept: number, length: number): BudgetCut | undefined {
    if (length > this.#chars) return this.#cut('chars');
    if (kept >= this.share) {
      if (this.#shared === 0) return this.#cut('values');
      this.#shared--;
    }
    this.#chars -= length;
    return undefined;
  }

  #cut(bound: keyof DistinctLimits): BudgetCut {
    const { asked, granted } = this.grant;
    return granted[bound] < asked[bound] ? 'server' : 'call';
  }
}
