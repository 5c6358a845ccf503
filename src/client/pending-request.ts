// A request of the client's waiting for its response: the options it was sent with, its clocks, and how it settles.

import type { JsonObject, RequestId } from '../jsonrpc/index.js';
import type { InputOwner } from './input-owner.js';
import type { RetryPolicy } from './retry.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Time limit in ms; 0 for none (long-lived requests such as subscriptions/listen). */
  timeoutMs: number;
  /** Restart the time limit on every progress notification, up to maxTotalTimeoutMs. */
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** HTTP headers for this request (modern wire). */
  headers?: Record<string, string>;
  /** How to cancel: close the HTTP stream (modern HTTP) or send notifications/cancelled. */
  cancelByClosingStream: boolean;
  /**
   * Only for requests safe to repeat: a transient failure (dropped connection, 429/502/503/504) sends the same message
   * again (same id, same progress token) after a wait, within the request's one time limit.
   */
  retry?: RetryPolicy;
  /** Told the request's JSON-RPC id before it is sent (telemetry's jsonrpc.request.id). */
  onId?: (id: RequestId) => void;
  /**
   * Set on requests during which the server may ask for input (tools/call, prompts/get, resources/read, a legacy
   * task's tasks/result): the server→client requests that belong to this one are answered by these handlers.
   */
  input?: InputOwner;
}

/** What a settled request keeps: nothing of its caller's (see Pending). */
const RELEASED: RequestOptions = Object.freeze({ timeoutMs: 0, cancelByClosingStream: false });

/**
 * A request waiting for its response. A class whose resolve/reject let go of everything they reached: the map of
 * pending requests takes one per request and drops it, and V8 keeps each table a Map outgrows reachable from the
 * next one with what it held (see protocol/live-list.ts), so a settled request must hold nothing of its caller's.
 * A class, too, because V8 may pretenure an object literal's objects, and an old one keeps all it reaches alive
 * through young collections.
 */
export class Pending {
  options: RequestOptions;
  stream: AbortController | undefined;
  /** The message as sent, for a retry. */
  text: string;
  timer: NodeJS.Timeout | undefined = undefined;
  retryTimer: NodeJS.Timeout | undefined = undefined;
  attempt = 1;
  readonly startedAt = Date.now();
  #resolve: ((result: JsonObject) => void) | undefined;
  #reject: ((error: Error) => void) | undefined;
  /** The caller's signal and this request's listener on it, removed when the request settles (see watch). */
  #signal: AbortSignal | undefined;
  #onAbort: (() => void) | undefined;

  constructor(
    readonly method: string,
    resolve: (result: JsonObject) => void,
    reject: (error: Error) => void,
    options: RequestOptions,
    text: string,
  ) {
    this.#resolve = resolve;
    this.#reject = reject;
    this.options = options;
    this.stream = options.cancelByClosingStream ? new AbortController() : undefined;
    this.text = text;
  }

  /**
   * Runs `onAbort` if the caller's signal aborts before the request settles. The listener goes when it settles: one
   * signal may serve a caller's every request (a shutdown signal), and must not keep a listener per request made.
   */
  watch(signal: AbortSignal, onAbort: () => void): void {
    this.#signal = signal;
    this.#onAbort = onAbort;
    signal.addEventListener('abort', onAbort, { once: true });
  }

  resolve(result: JsonObject): void {
    const resolve = this.#resolve;
    this.#release();
    resolve?.(result);
  }

  reject(error: Error): void {
    const reject = this.#reject;
    this.#release();
    reject?.(error);
  }

  #release(): void {
    if (this.#signal !== undefined) {
      this.#signal.removeEventListener('abort', this.#onAbort as () => void);
      this.#signal = undefined;
      this.#onAbort = undefined;
    }
    this.#resolve = undefined;
    this.#reject = undefined;
    this.options = RELEASED;
    this.stream = undefined;
    this.text = '';
  }
}
