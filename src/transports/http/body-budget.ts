// The bytes of request bodies buffered at once (one budget per HTTP core), and the meter each body read uses to
// hold its share and keep its clock. Both adapters read bodies through a meter, so both get the same limits.

import type { BodyFailure } from './exchange.js';

/** Bytes that request bodies may hold at once, over every request of one core. */
export class BodyBudget {
  readonly total: number;
  #used = 0;

  constructor(total: number) {
    this.total = total;
  }

  /** Bytes held right now. */
  get used(): number {
    return this.#used;
  }

  /** Takes `bytes` if they fit; false (and nothing taken) when they do not. */
  take(bytes: number): boolean {
    if (this.#used + bytes > this.total) return false;
    this.#used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.#used -= bytes;
  }
}

/** What a body read is held to: the shared budget and its two clocks (Infinity: no clock). */
export interface BodyLimits {
  readonly budget: BodyBudget;
  /** From the start of the read to its last byte. */
  readonly timeoutMs: number;
  /** Between two pieces of the body. */
  readonly idleTimeoutMs: number;
}

/** No budget and no clock: for an exchange built without a core (tests of the adapters alone). */
export const UNLIMITED_BODY: BodyLimits = {
  budget: new BodyBudget(Infinity),
  timeoutMs: Infinity,
  idleTimeoutMs: Infinity,
};

/**
 * One body being read. A declared Content-Length is reserved at once (so a body that does not fit is refused
 * before any of it is read); bytes beyond what is reserved (a chunked body) are taken as they arrive. settle()
 * gives everything back and stops the clocks; the adapter calls it however the read ends (a second call is a no-op).
 */
export class BodyMeter {
  readonly #limits: BodyLimits;
  #start = 0;
  #onTimeout: (reason: BodyFailure) => void = () => undefined;
  #held = 0;
  #seen = 0;
  #last = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;

  /** `admitted` is false when the declared length does not fit the budget; the meter then holds nothing. */
  readonly admitted: boolean;

  constructor(limits: BodyLimits, declared: number | undefined) {
    this.#limits = limits;
    this.admitted = declared === undefined || declared === 0 || limits.budget.take(declared);
    if (this.admitted && declared !== undefined) this.#held = declared;
  }

  /** Starts the clocks of an admitted read; `onTimeout` ends it when one runs out. */
  start(onTimeout: (reason: BodyFailure) => void): void {
    this.#onTimeout = onTimeout;
    this.#start = this.#last = Date.now();
    this.#arm(Math.min(this.#limits.timeoutMs, this.#limits.idleTimeoutMs));
  }

  /** Counts `bytes` that arrived; false when they do not fit the budget (the read must stop). */
  charge(bytes: number): boolean {
    this.#seen += bytes;
    this.#last = Date.now();
    if (this.#seen <= this.#held) return true;
    const more = this.#seen - this.#held;
    if (!this.#limits.budget.take(more)) return false;
    this.#held += more;
    return true;
  }

  /** The read is over (complete, refused, failed or abandoned): gives back what it held. */
  settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    this.#limits.budget.give(this.#held);
    this.#held = 0;
  }

  #arm(ms: number): void {
    if (ms === Infinity) return;
    this.#timer = setTimeout(this.#check, ms);
    // A pending body must not keep the process alive on its own; its socket does that.
    this.#timer.unref?.();
  }

  // One timer for both clocks: on each firing, whichever is due ends the read, else it waits for the nearer one.
  readonly #check = (): void => {
    if (this.#settled) return;
    const now = Date.now();
    const { timeoutMs, idleTimeoutMs } = this.#limits;
    const total = timeoutMs - (now - this.#start);
    const idle = idleTimeoutMs - (now - this.#last);
    if (total <= 0) this.#onTimeout('timeout');
    else if (idle <= 0) this.#onTimeout('stalled');
    else this.#arm(Math.min(total, idle));
  };
}

/** A Content-Length header as a byte count; undefined when absent or not a plain decimal number. */
export function declaredLength(value: string | null | undefined): number | undefined {
  if (value === undefined || value === null || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
