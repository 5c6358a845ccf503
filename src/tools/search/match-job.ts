// The records the matching pool keeps: a search's account, a batch waiting or running (a job), and one turn of it on a
// thread; with the rules that only depend on them (how long a turn may run, what a stopped batch tells its search).

import {
  BudgetExhausted,
  DeadlineExceeded,
  MatchAborted,
  type BatchResult,
  type StuckAt,
} from './match-errors.js';
import type { StopCause } from './match-events.js';
import type { MatchThread } from './match-thread.js';
import type { Query } from './query.js';
import type { WorkerMatch } from './worker-source.js';

/**
 * A batch may be cut after this long on its thread; each cut that made no progress doubles it, up to the maximum. So a
 * file that needs up to MAX_SLICE_MS of matching is always finished, even while others wait, and a newcomer waits at
 * most MAX_SLICE_MS for a thread.
 */
export const SLICE_MS = 100;
export const MAX_SLICE_MS = 400;

export interface SessionOptions {
  query: Query;
  /** Who asked (the authenticated subject, or "" for everyone else): callers share the threads fairly first. */
  owner: string;
  /** Time on a matching thread the whole search may use. */
  budgetMs: number;
  /** The search's wall-clock end (Date.now() ms); a wait for a thread to start moves it later by that wait. */
  deadline: number;
  signal: AbortSignal;
}

export interface Owner {
  readonly key: string;
  /** Matching time used by this owner's open sessions (finished turns only). */
  usedMs: number;
  sessions: number;
}

/** What the pool reads and charges on a search's account. */
export interface SessionState {
  readonly id: number;
  readonly options: SessionOptions;
  readonly owner: Owner;
  usedMs: number;
  deadline: number;
}

/** One stay of a job on a thread. */
export interface Turn {
  thread: MatchThread;
  /** The worker request id of this turn (replies from an earlier, cut turn carry another). */
  request: number;
  /** The file it starts at. */
  first: number;
  /** When the request was posted to a thread that was up; undefined while the thread starts. */
  postedAt: number | undefined;
  /** Match messages received in this turn, and the file of the last one. */
  received: number;
  lastFile: number;
}

export interface Job {
  session: SessionState;
  texts: string[];
  limit: number;
  contextLines: number;
  /** The first file not matched to the end: where the next turn starts. */
  next: number;
  /** Matches of the files before `next`. */
  matches: WorkerMatch[];
  /** Turns in a row cut without moving `next` on. */
  cuts: number;
  stuck: StuckAt | undefined;
  /** Arrival order, the last tie-breaker. */
  seq: number;
  resolve: (result: BatchResult) => void;
  reject: (error: Error) => void;
  /** The deadline while waiting; the deadline or the budget, whichever is first, while running. */
  timer: NodeJS.Timeout | undefined;
  onAbort: () => void;
  turn: Turn | undefined;
}

/** How long a batch may hold its thread before it can be cut: longer after each cut that did not move it on. */
export const sliceOf = (job: Job): number => Math.min(SLICE_MS * 2 ** job.cuts, MAX_SLICE_MS);

/** Time on the thread so far in this turn. */
export const ranMs = (turn: Turn, now: number): number =>
  turn.postedAt === undefined ? 0 : now - turn.postedAt;

/** The error a batch stopped for `cause` rejects with, carrying the files it finished. */
export function stoppedError(job: Job, cause: Exclude<StopCause, 'failed'>): Error {
  const detail = {
    partial: { matches: job.matches, filesDone: job.next },
    stuck: job.stuck,
    usedMs: job.session.usedMs,
  };
  switch (cause) {
    case 'budget':
      return new BudgetExhausted(detail);
    case 'deadline':
      return new DeadlineExceeded(detail);
    case 'aborted':
      return new MatchAborted();
  }
}
