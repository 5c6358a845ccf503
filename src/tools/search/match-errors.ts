// How a batch can end other than with its matches: each carries what was finished before it ended.

import type { WorkerMatch } from './worker-source.js';

export interface BatchResult {
  matches: WorkerMatch[];
  /** Files of the batch that were matched to the end (from the first). */
  filesDone: number;
}

/** Where a batch was stuck when it was stopped, and how long it had been matching that one file (over every turn). */
export interface StuckAt {
  file: number;
  /** 1-based; 0 when the thread had not reached a line. */
  line: number;
  ms: number;
}

/** A budget ran out: what was finished, where the batch was stuck, and the matching time the search had used. */
export interface OutOfBudget {
  partial: BatchResult;
  stuck: StuckAt | undefined;
  usedMs: number;
}

/** The search's wall-clock time budget ran out while the batch waited or ran. */
export class DeadlineExceeded extends Error {
  readonly detail: OutOfBudget;
  constructor(detail: OutOfBudget) {
    super('the time budget ran out while matching');
    this.name = 'DeadlineExceeded';
    this.detail = detail;
  }
}

/** The search used up its matching budget (time on a matching thread) while the batch ran. */
export class BudgetExhausted extends Error {
  readonly detail: OutOfBudget;
  constructor(detail: OutOfBudget) {
    super('the matching budget ran out');
    this.name = 'BudgetExhausted';
    this.detail = detail;
  }
}

/** The request was cancelled (client cancel, tool timeout) while the batch waited or ran. */
export class MatchAborted extends Error {
  constructor() {
    super('matching was cancelled');
    this.name = 'MatchAborted';
  }
}

/** The pattern threw while running on one file (for example a stack overflow). */
export class MatchFailed extends Error {
  readonly file: number;
  constructor(file: number, message: string) {
    super(message);
    this.name = 'MatchFailed';
    this.file = file;
  }
}
