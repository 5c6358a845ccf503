// A Scheduler whose time moves only when a test says so, and which tells the test when a timer is set: tests of
// restarts, circuits, debouncing and list time limits wait for events, never for the wall clock.

import type { Scheduler } from './scheduler.js';

export interface ManualTimer {
  readonly id: number;
  readonly dueAt: number;
  readonly delayMs: number;
  readonly callback: () => void;
}

export class ManualScheduler implements Scheduler {
  #now: number;
  #nextId = 1;
  readonly #timers = new Map<number, ManualTimer>();
  readonly #waiters = new Set<{
    match: (timer: ManualTimer) => boolean;
    resolve: (timer: ManualTimer) => void;
  }>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const timer: ManualTimer = {
      id: this.#nextId++,
      dueAt: this.#now + Math.max(0, ms),
      delayMs: ms,
      callback,
    };
    this.#timers.set(timer.id, timer);
    for (const waiter of [...this.#waiters]) {
      if (!waiter.match(timer)) continue;
      this.#waiters.delete(waiter);
      waiter.resolve(timer);
    }
    return timer.id;
  }

  clearTimeout(handle: unknown): void {
    if (typeof handle === 'number') this.#timers.delete(handle);
  }

  /** The timers still pending, soonest first. */
  pending(): ManualTimer[] {
    return [...this.#timers.values()].sort((a, b) => a.dueAt - b.dueAt || a.id - b.id);
  }

  /** Resolves with the first pending or future timer that matches (by default: any). */
  nextTimer(match: (timer: ManualTimer) => boolean = () => true): Promise<ManualTimer> {
    const found = this.pending().find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.add({ match, resolve }));
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way, in order. */
  advance(ms: number): void {
    const until = this.#now + ms;
    for (;;) {
      const next = this.pending()[0];
      if (next === undefined || next.dueAt > until) break;
      this.#timers.delete(next.id);
      this.#now = Math.max(this.#now, next.dueAt);
      next.callback();
    }
    this.#now = until;
  }
}
