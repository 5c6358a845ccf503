// What the matching pool tells observers, on a node:diagnostics_channel: operators can count threads, turns and cut
// searches, and tests wait on these events instead of on the clock. Nothing is built when nobody listens.

import { channel } from 'node:diagnostics_channel';

export const MATCH_EVENTS_CHANNEL = 'toolwire:search:matching';

/** Why a search's batch stopped without finishing: the search ends with it. */
export type StopCause = 'budget' | 'deadline' | 'aborted' | 'failed';

export type MatchEvent =
  /** A batch of search `search` waits for a thread (`waiting` batches wait now, this one included). */
  | { event: 'queued'; search: number; owner: string; waiting: number }
  /** A batch began matching on thread `thread`. */
  | { event: 'started'; search: number; thread: number }
  /** A batch finished on its thread after `ranMs`. */
  | { event: 'finished'; search: number; thread: number; ranMs: number }
  /** A batch was cut after `ranMs` for a search that had used less time; it resumes later at the file it was on. */
  | { event: 'preempted'; search: number; thread: number; ranMs: number }
  /** A batch was stopped, waiting (thread undefined) or running, and its search ends. */
  | { event: 'stopped'; search: number; thread: number | undefined; cause: StopCause }
  /** A thread's OS thread has exited (terminated by the pool, idle for long, or crashed). */
  | { event: 'thread-exit'; thread: number };

const events = channel(MATCH_EVENTS_CHANNEL);

/** Publishes an event; `make` runs only when someone subscribes. */
export function publish(make: () => MatchEvent): void {
  if (events.hasSubscribers) events.publish(make());
}
