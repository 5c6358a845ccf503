// One search's account with the matching pool: the batches it sends, the matching time it has used, its deadline.

import type { BatchResult } from './match-errors.js';
import type { Owner, SessionOptions, SessionState } from './match-job.js';

/** The pool, as a session sees it. */
export interface PoolDoor {
  enqueue(session: MatchSession, texts: string[], limit: number, contextLines: number): Promise<BatchResult>;
  leave(session: MatchSession): void;
}

/** `run` batches (two may be in the pool at once: one matching, the next waiting), then `close`. */
export class MatchSession implements SessionState {
  readonly id: number;
  readonly options: SessionOptions;
  readonly owner: Owner;
  readonly #pool: PoolDoor;
  usedMs = 0;
  deadline: number;
  #closed = false;

  constructor(pool: PoolDoor, id: number, owner: Owner, options: SessionOptions) {
    this.#pool = pool;
    this.id = id;
    this.owner = owner;
    this.options = options;
    this.deadline = options.deadline;
  }

  /** Matches a batch: rejects with DeadlineExceeded, BudgetExhausted, MatchAborted, MatchFailed or a thread failure. */
  run(texts: string[], limit: number, contextLines: number): Promise<BatchResult> {
    if (this.#closed) return Promise.reject(new Error('run() after close()'));
    return this.#pool.enqueue(this, texts, limit, contextLines);
  }

  /** Ends the search's account; batches still in the pool are dropped (they reject with MatchAborted). */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#pool.leave(this);
  }
}
