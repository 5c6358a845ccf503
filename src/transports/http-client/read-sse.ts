// Reads one SSE response body to its end (or until told to stop), event by event, within a size limit.

import { SseEventTooLargeError, SseParser, type SseEvent } from './sse-parser.js';

export interface ReadSseOptions {
  maxEventBytes: number;
  signal: AbortSignal;
  /** Return true to stop reading after this event (the awaited response arrived); the connection is closed. */
  onEvent(event: SseEvent): boolean;
  onRetry(ms: number): void;
}

/**
 * How the read ended: `ended` (the server closed the stream), `dropped` (the connection failed), `stopped`
 * (onEvent asked), `aborted` (the signal), `too-large` (an event over the limit; the connection is closed).
 */
export type SseOutcome = 'ended' | 'dropped' | 'stopped' | 'aborted' | 'too-large';

export interface SseRead {
  outcome: SseOutcome;
  /** Events seen on this connection, priming events (id only) included. */
  events: number;
  /** Why the connection dropped, for the error message if nothing else will be tried. */
  error?: unknown;
}

export async function readSse(response: Response, options: ReadSseOptions): Promise<SseRead> {
  const { signal } = options;
  const body = response.body;
  if (body === null) return { outcome: 'ended', events: 0 };
  let events = 0;
  let stop = false;
  const parser = new SseParser({
    maxEventBytes: options.maxEventBytes,
    onEvent: (event) => {
      events++;
      if (!stop && options.onEvent(event)) stop = true;
    },
    onRetry: options.onRetry,
  });
  const reader = body.getReader();
  // Fetch implementations that ignore the signal once the headers are in still stop reading here.
  const onAbort = (): void => void reader.cancel(signal.reason).catch(() => {});
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      if (signal.aborted) return { outcome: 'aborted', events };
      const { done, value } = await reader.read();
      if (signal.aborted) return { outcome: 'aborted', events };
      if (done) {
        parser.end();
        return { outcome: 'ended', events };
      }
      parser.push(value);
      if (stop) {
        await reader.cancel().catch(() => {});
        return { outcome: 'stopped', events };
      }
    }
  } catch (error) {
    if (signal.aborted) return { outcome: 'aborted', events };
    if (error instanceof SseEventTooLargeError) {
      await reader.cancel().catch(() => {});
      return { outcome: 'too-large', events, error };
    }
    return { outcome: 'dropped', events, error };
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}
