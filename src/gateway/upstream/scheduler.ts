// The clock and timers an Upstream runs on: the real ones by default, a manual one in tests (no sleeping, no
// machine-speed dependence), injected so that nothing else in the process has to be faked.

export interface Scheduler {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real time. Timers are unref'd: a pending restart or debounce never keeps a process alive on its own. */
export const realScheduler: Scheduler = {
  now: () => Date.now(),
  setTimeout(callback, ms) {
    const timer = setTimeout(callback, ms);
    timer.unref();
    return timer;
  },
  clearTimeout(handle) {
    clearTimeout(handle as ReturnType<typeof setTimeout>); // only handles this scheduler made come back here
  },
};
