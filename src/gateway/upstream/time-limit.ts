// Runs one piece of work under a time limit on the injected scheduler: past the limit its signal is aborted and
// the promise rejects with the given error, whether or not the work heeds the signal. And one caller's wait on
// shared work, cut short by that caller's signal.

import { RequestAbortedError } from '../../client/index.js';
import type { Scheduler } from './scheduler.js';

export async function withTimeLimit<T>(
  scheduler: Scheduler,
  limitMs: number,
  signal: AbortSignal | undefined,
  timeoutError: () => Error,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const forward = (): void => controller.abort(signal?.reason);
  if (signal?.aborted === true) forward();
  signal?.addEventListener('abort', forward, { once: true });
  let timer: unknown;
  const timeout = new Promise<never>((_, reject) => {
    timer = scheduler.setTimeout(() => {
      const error = timeoutError();
      controller.abort(error);
      reject(error);
    }, limitMs);
  });
  try {
    // The race, not only the abort: work joined to a listing already under way may ignore this signal.
    return await Promise.race([run(controller.signal), timeout]);
  } finally {
    scheduler.clearTimeout(timer);
    signal?.removeEventListener('abort', forward);
  }
}

/** `shared`, or RequestAbortedError(what) as soon as `signal` aborts; the shared work itself goes on. */
export function untilAborted<T>(shared: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new RequestAbortedError(what));
  let stop: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    stop = () => reject(new RequestAbortedError(what));
    signal.addEventListener('abort', stop, { once: true });
  });
  return Promise.race([shared, aborted]).finally(() =>
    signal.removeEventListener('abort', stop as () => void),
  );
}
