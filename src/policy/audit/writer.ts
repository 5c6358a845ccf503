// Batches records per event-loop turn into one store transaction, one batch at a time, and bounds how many calls may
// wait for their records: an answer is released only once its record is stored.

import { ErrorCode } from '../../jsonrpc/index.js';
import { Denial } from '../../server/index.js';
import type { AuditEntry, AuditStore, PruneRule } from './types.js';

/**
 * A call waiting for its record. A class, not an object literal: V8 may pretenure a literal's objects (allocate them in
 * the old generation) after seeing them live across a collection, and an old Pending holds its call's whole request
 * through resolve() until the next full collection (see protocol/live-list.ts for what that costs).
 */
class Pending {
  constructor(
    readonly entry: AuditEntry,
    readonly resolve: () => void,
    readonly reject: (error: unknown) => void,
  ) {}
}

export interface WriterLimits {
  /**
   * Calls admitted and not yet recorded, with records the store has queued and not yet stored, at most; beyond, new
   * calls are refused.
   */
  readonly maxPending: number;
  /** Records in one transaction, at most. */
  readonly maxBatch: number;
}

export const DEFAULT_LIMITS: WriterLimits = { maxPending: 10_000, maxBatch: 1_000 };

/** The refusal when the trail is that far behind: 503, try again shortly. */
const busy = (): Denial =>
  new Denial(
    ErrorCode.InternalError,
    'Server busy: too many calls are waiting to be recorded; retry shortly',
    {
      httpStatus: 503,
      httpHeaders: { 'Retry-After': '1' },
    },
  );

export class AuditWriter {
  readonly #store: AuditStore;
  readonly #limits: WriterLimits;
  readonly #queue: Pending[] = [];
  #admitted = 0;
  #scheduled = false;
  #writing = false;
  #closed = false;
  /** Every store operation, in order: batches and retention never overlap. */
  #tail: Promise<unknown> = Promise.resolve();
  #idle: (() => void) | undefined;

  constructor(store: AuditStore, limits: WriterLimits = DEFAULT_LIMITS) {
    this.#store = store;
    this.#limits = limits;
  }

  /** Calls admitted and not yet recorded. */
  get pending(): number {
    return this.#admitted;
  }

  /** Takes a place for one call's record, or refuses the call (503) when too many wait or the trail is closed. */
  admit(): void {
    if (this.#closed) {
      throw new Denial(ErrorCode.InternalError, 'Server shutting down: the audit trail is closed', {
        httpStatus: 503,
      });
    }
    // Records the store has queued and not yet stored count too: a trail that falls behind refuses calls.
    if (this.#admitted + (this.#store.backlog ?? 0) >= this.#limits.maxPending) throw busy();
    this.#admitted += 1;
  }

  /** Gives back a place taken by admit() (after write() settled, or when no record will be written). */
  release(): void {
    this.#admitted -= 1;
    if (this.#admitted === 0 && this.#queue.length === 0 && !this.#writing) this.#idle?.();
  }

  /** Resolves once the entry is stored (in the batch of this turn), rejects with the store's error. */
  write(entry: AuditEntry): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#queue.push(new Pending(entry, resolve, reject));
      this.#schedule();
    });
  }

  /** Runs a store operation between batches (retention). */
  exclusive<T>(work: (store: AuditStore) => Promise<T>): Promise<T> {
    const run = this.#tail.then(() => work(this.#store));
    this.#tail = run.catch(() => undefined);
    return run;
  }

  prune(rule: PruneRule): Promise<number> {
    return this.exclusive((store) => store.prune(rule));
  }

  /** Refuses new calls, waits until every admitted call's record is written or failed. */
  async drain(): Promise<void> {
    this.#closed = true;
    if (this.#admitted > 0 || this.#queue.length > 0 || this.#writing) {
      await new Promise<void>((resolve) => (this.#idle = resolve));
    }
    await this.#tail;
  }

  #schedule(): void {
    if (this.#scheduled || this.#writing) return;
    this.#scheduled = true;
    // After the rest of this turn: every record queued meanwhile joins the same transaction.
    setImmediate(() => this.#flush());
  }

  #flush(): void {
    this.#scheduled = false;
    if (this.#queue.length === 0) return;
    const batch = this.#queue.splice(0, this.#limits.maxBatch);
    this.#writing = true;
    const written = this.#tail.then(() => this.#store.append(batch.map((pending) => pending.entry)));
    this.#tail = written.catch(() => undefined);
    written
      .then(
        () => {
          for (const pending of batch) pending.resolve();
        },
        (error: unknown) => {
          for (const pending of batch) pending.reject(error);
        },
      )
      .finally(() => {
        this.#writing = false;
        // Records that arrived while this batch was written go next, in one transaction.
        if (this.#queue.length > 0) this.#schedule();
        else if (this.#admitted === 0) this.#idle?.();
      });
  }
}
