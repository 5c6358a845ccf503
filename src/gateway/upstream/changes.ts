// The list-change events of one upstream, coalesced per kind: the first change opens a window (debounceMs); more
// of that kind inside it add nothing, so a burst of list_changed notifications becomes one event, at bounded delay.

import { messageOf } from './failures.js';
import type { Scheduler } from './scheduler.js';

export type ChangeKind = 'tools' | 'prompts' | 'resources';

export const CHANGE_KINDS: readonly ChangeKind[] = ['tools', 'prompts', 'resources'];

export class ChangeEvents {
  readonly #scheduler: Scheduler;
  readonly #windowMs: number;
  readonly #warn: (message: string) => void;
  readonly #listeners = new Set<(kind: ChangeKind) => void>();
  readonly #windows = new Map<ChangeKind, unknown>();
  #stopped = false;

  constructor(scheduler: Scheduler, windowMs: number, warn: (message: string) => void) {
    if (!Number.isFinite(windowMs) || windowMs < 0)
      throw new RangeError(`debounceMs must be >= 0, got ${windowMs}`);
    this.#scheduler = scheduler;
    this.#windowMs = windowMs;
    this.#warn = warn;
  }

  listen(listener: (kind: ChangeKind) => void): () => void {
    if (!this.#stopped) this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  changed(kind: ChangeKind): void {
    if (this.#stopped || this.#windows.has(kind)) return;
    const timer = this.#scheduler.setTimeout(() => {
      this.#windows.delete(kind);
      for (const listener of [...this.#listeners]) {
        try {
          listener(kind);
        } catch (error) {
          this.#warn(`an onChanged listener threw: ${messageOf(error)}`);
        }
      }
    }, this.#windowMs);
    this.#windows.set(kind, timer);
  }

  /** No more events: pending windows are dropped and listeners forgotten. */
  stop(): void {
    this.#stopped = true;
    for (const timer of this.#windows.values()) this.#scheduler.clearTimeout(timer);
    this.#windows.clear();
    this.#listeners.clear();
  }
}
