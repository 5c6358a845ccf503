// When to reconnect a broken SSE stream: the server's `retry`, then exponential backoff; and an abortable wait.

/** Reconnection delay when the server gave no `retry:` (the SSE default is up to the client; this is EventSource's). */
export const DEFAULT_RETRY_MS = 1000;
/** Upper bound on a server's `retry:` (setTimeout cannot wait longer than 2^31-1 ms anyway). */
const MAX_RETRY_MS = 10 * 60 * 1000;

/** The wait before reconnection number `attempt` (1-based) since the stream last brought something. */
export function reconnectDelay(attempt: number, retryMs: number | undefined, maxDelayMs: number): number {
  const base = Math.min(retryMs ?? DEFAULT_RETRY_MS, MAX_RETRY_MS);
  if (attempt <= 1) return base;
  return Math.max(base, Math.min(base * 2 ** (attempt - 1), maxDelayMs));
}

/** Waits `ms`; resolves false at once if `signal` aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<boolean> {
  if (signal.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (value: boolean): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      resolve(value);
    };
    const onAbort = (): void => done(false);
    const timer = setTimeout(() => done(true), ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
