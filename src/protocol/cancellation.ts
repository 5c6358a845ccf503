// A cheap cancellation flag for the request hot path. An AbortController is an EventTarget and costs several
// microseconds to create; most requests are never cancelled and most handlers never read their signal. So the
// flag and its listeners are plain fields, and the AbortSignal is made only when somebody asks for it.

/** The part of a cancellation that transports hand to the server (MessageExtra.abort). */
export interface AbortHook {
  readonly aborted: boolean;
  /** Why it aborted (undefined while it has not). */
  readonly reason: unknown;
  /** Calls `listener` once, when aborted; at once when it already is. */
  onAbort(listener: (reason: unknown) => void): void;
}

/**
 * One listener, linked to the one added after it. A class, not an array literal: V8 may decide to allocate an array
 * literal's arrays straight in the old generation (allocation-site pretenuring) once it has seen them live long, and
 * an old array holding a request's listeners keeps the whole request alive through every young-generation collection
 * after the request ended. Class instances are never pretenured that way.
 */
class Listener {
  next: Listener | undefined = undefined;
  constructor(readonly run: (reason: unknown) => void) {}
}

export class Cancellation implements AbortHook {
  #aborted = false;
  #reason: unknown = undefined;
  /** The first listener and the last (they run in the order they were added). */
  #first: Listener | undefined;
  #last: Listener | undefined;
  #controller: AbortController | undefined;

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** A standard AbortSignal that follows this cancellation; created on first use (aborted already if it is). */
  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  onAbort(listener: (reason: unknown) => void): void {
    if (this.#aborted) listener(this.#reason);
    else {
      const added = new Listener(listener);
      if (this.#last === undefined) this.#first = added;
      else this.#last.next = added;
      this.#last = added;
    }
  }

  /**
   * Aborts once (later calls are ignored). The listeners run first, in order, then the signal (if made) aborts: the
   * server's own bookkeeping (a timeout wins over whatever the handler does on abort) settles before handler code.
   */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    let listener = this.#first;
    this.#first = this.#last = undefined;
    for (; listener !== undefined; listener = listener.next) listener.run(reason);
    this.#controller?.abort(reason);
  }
}

/** Runs `listener` when the transport says the answer can no longer be delivered (abort hook or AbortSignal). */
export function onTransportAbort(
  extra: { abort?: AbortHook; signal?: AbortSignal } | undefined,
  listener: (reason: unknown) => void,
): void {
  const hook = extra?.abort;
  if (hook !== undefined) {
    hook.onAbort(listener);
    return;
  }
  const signal = extra?.signal;
  if (signal === undefined) return;
  if (signal.aborted) listener(signal.reason);
  else signal.addEventListener('abort', () => listener(signal.reason), { once: true });
}
