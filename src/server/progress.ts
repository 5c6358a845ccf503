// Progress notifications for one request: only with a progress token, never decreasing, coalesced in time.

import { encodeNotification } from '../jsonrpc/index.js';
import { Notification } from '../protocol/index.js';

/** Where a reporter delivers its notifications (the request's scope). */
export interface NotificationSink {
  notify(message: string): void;
}

interface Pending {
  progress: number;
  total: number | undefined;
  message: string | undefined;
}

/**
 * Sends at most one notification per `intervalMs`; a value reported in between replaces the pending one, and the
 * pending one is sent when the interval ends (or on flush, just before the final response). A handler that
 * reports 100,000 times in a tight loop therefore sends a handful of notifications.
 */
export class ProgressReporter {
  readonly #token: string | number;
  readonly #sink: NotificationSink;
  readonly #intervalMs: number;
  #last = -Infinity;
  #lastSentAt = -Infinity;
  #pending: Pending | undefined;
  #timer: NodeJS.Timeout | undefined;
  #closed = false;

  constructor(token: string | number, sink: NotificationSink, intervalMs: number) {
    this.#token = token;
    this.#sink = sink;
    this.#intervalMs = intervalMs;
  }

  report(progress: number, total?: number, message?: string): void {
    if (this.#closed) return;
    if (typeof progress !== 'number' || !Number.isFinite(progress)) {
      throw new TypeError('progress() needs a finite number');
    }
    // Progress must increase with every notification: a value at or below the last one is dropped.
    if (progress <= this.#last) return;
    this.#last = progress;
    this.#pending = {
      progress,
      total: typeof total === 'number' && Number.isFinite(total) ? total : undefined,
      message: typeof message === 'string' ? message : undefined,
    };
    const now = performance.now();
    if (now - this.#lastSentAt >= this.#intervalMs) this.flush();
    else this.#timer ??= setTimeout(flushReporter, this.#lastSentAt + this.#intervalMs - now, this).unref();
  }

  /** Sends the pending notification now, if any. */
  flush(): void {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
    const pending = this.#pending;
    if (pending === undefined || this.#closed) return;
    this.#pending = undefined;
    this.#lastSentAt = performance.now();
    const params: Record<string, unknown> = { progressToken: this.#token, progress: pending.progress };
    if (pending.total !== undefined) params.total = pending.total;
    if (pending.message !== undefined) params.message = pending.message;
    this.#sink.notify(encodeNotification(Notification.Progress, params));
  }

  /** Stops for good: nothing more is sent once the operation is over. */
  close(): void {
    this.#closed = true;
    this.#pending = undefined;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}

const flushReporter = (reporter: ProgressReporter): void => reporter.flush();
