// Runs one piece of work under a time limit on the injected scheduler: past the limit its signal is aborted and
// the promise rejects with the given error, whether or not the work heeds the signal.

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
