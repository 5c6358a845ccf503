// A step counter shared by every walk over one definition: each walk is bounded by the same budget, and tests read
// the count to prove a refusal was quick without timing it.

export class BudgetExceeded extends Error {}

export class Meter {
  #steps = 0;

  constructor(readonly limit: number) {}

  get steps(): number {
    return this.#steps;
  }

  /** Counts `count` steps; throws BudgetExceeded once the budget is spent. */
  spend(count = 1): void {
    this.#steps += count;
    if (this.#steps > this.limit) throw new BudgetExceeded(`more than ${this.limit} steps`);
  }
}
