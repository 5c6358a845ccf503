// The matching threads of one pool: at most `capacity` at work, idle ones kept for a while, and one spare started
// ahead of need once threads are being cut, so that the batch given a cut thread's place does not wait for a start-up.

import { publish } from './match-events.js';
import { MatchThread } from './match-thread.js';

/** An idle thread is ended after this long without work (a new one starts in a few tens of ms). */
const IDLE_MS = 30_000;
/** Thread ids are unique in the process, so that events from several pools (several servers) cannot be confused. */
let threadIds = 0;

export class ThreadStock {
  readonly #capacity: number;
  readonly #previewChars: number;
  /** Threads that count against the capacity: working, starting or idle (not the spare, not those being ended). */
  readonly #threads = new Set<MatchThread>();
  readonly #idle: MatchThread[] = [];
  #spare: MatchThread | undefined;

  constructor(capacity: number, previewChars: number) {
    this.#capacity = capacity;
    this.#previewChars = previewChars;
  }

  /** A thread for a batch (idle first, then the spare, then a new one), or undefined when all are at work. */
  take(): MatchThread | undefined {
    let thread = this.#idle.pop();
    if (thread === undefined) {
      if (this.#threads.size >= this.#capacity) return undefined;
      thread = this.#spare ?? this.#spawn();
      this.#spare = undefined;
      this.#threads.add(thread);
    }
    if (thread.idleTimer !== undefined) clearTimeout(thread.idleTimer);
    thread.idleTimer = undefined;
    thread.hold();
    return thread;
  }

  /** A thread whose request ended normally: it waits, idle, for the next batch. */
  giveBack(thread: MatchThread): void {
    thread.detach();
    this.#idle.push(thread);
    this.#endWhenIdle(thread);
  }

  /** Ends a thread (cut, failed or idle too long); its place is free at once. */
  end(thread: MatchThread): void {
    this.#forget(thread);
    thread.terminate();
  }

  /** Starts the spare if there is none: called when threads are being cut, so more cuts are likely. */
  keepSpare(): void {
    if (this.#spare !== undefined) return;
    this.#spare = this.#spawn();
    this.#endWhenIdle(this.#spare);
  }

  #endWhenIdle(thread: MatchThread): void {
    thread.idleTimer = setTimeout(() => this.end(thread), IDLE_MS);
    thread.idleTimer.unref();
  }

  #spawn(): MatchThread {
    return new MatchThread(++threadIds, this.#previewChars, (ended) => {
      this.#forget(ended);
      publish(() => ({ event: 'thread-exit', thread: ended.id }));
    });
  }

  #forget(thread: MatchThread): void {
    this.#threads.delete(thread);
    if (this.#spare === thread) this.#spare = undefined;
    const idle = this.#idle.indexOf(thread);
    if (idle !== -1) this.#idle.splice(idle, 1);
  }
}
