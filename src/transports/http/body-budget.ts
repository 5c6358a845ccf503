// The bytes of request bodies buffered at once (one budget per HTTP core), and the meter each body read uses to
// hold its share and keep its clock. Both adapters read bodies through a meter, so both get the same limits.

import { addressBucket } from './client-address.js';
import type { BodyFailure } from './exchange.js';

/**
 * Bytes that request bodies may hold at once, over every request of one core, and the share of them one client
 * address bucket (see client-address.ts) may hold, so that one address flooding slow bodies leaves the rest of the
 * budget to everyone else.
 */
export class BodyBudget {
  readonly total: number;
  readonly perAddress: number;
  #used = 0;
  /**
   * What each address bucket holds. A meter keeps its bucket's share object, so giving bytes back costs no lookup;
   * shares no meter uses are swept out once the map reaches #sweepAt, so it stays as small as the load.
   */
  readonly #shares = new Map<string, AddressShare>();
  #sweepAt = SWEEP_AT_LEAST;

  constructor(total: number, perAddress = total) {
    this.total = total;
    this.perAddress = perAddress;
  }

  /** Bytes held right now. */
  get used(): number {
    return this.#used;
  }

  /** Address buckets tracked right now, some of them perhaps idle until the next sweep. */
  get addressCount(): number {
    return this.#shares.size;
  }

  /** Bytes the bucket of `address` holds right now (0 when shares are off). */
  heldBy(address: string | undefined): number {
    const bucket = addressBucket(address);
    return bucket === undefined ? 0 : (this.#shares.get(bucket)?.held ?? 0);
  }

  /**
   * The share `address` draws from; undefined when the address is unknown or when a share could not bind anyway
   * (perAddress at least the total), which then costs nothing per request.
   */
  shareOf(address: string | undefined): AddressShare | undefined {
    if (this.perAddress >= this.total) return undefined;
    const bucket = addressBucket(address);
    if (bucket === undefined) return undefined;
    let share = this.#shares.get(bucket);
    if (share === undefined) {
      if (this.#shares.size >= this.#sweepAt) this.#sweep();
      this.#shares.set(bucket, (share = { held: 0, meters: 0 }));
    }
    return share;
  }

  /**
   * Takes `bytes` if they fit both the share and the total; otherwise nothing is taken and the answer says which
   * did not fit (the address's own share is named first: that refusal is the client's own doing).
   */
  take(bytes: number, share: AddressShare | undefined): BodyRefusal | undefined {
    if (share !== undefined && share.held + bytes > this.perAddress) return 'address-busy';
    if (this.#used + bytes > this.total) return 'busy';
    if (share !== undefined) share.held += bytes;
    this.#used += bytes;
    return undefined;
  }

  give(bytes: number, share: AddressShare | undefined): void {
    this.#used -= bytes;
    if (share !== undefined) share.held -= bytes;
  }

  // A share a meter still uses must stay, even holding nothing yet: a fresh one for the same bucket would let that
  // address hold its share twice over. If most are in use, the next sweep waits for twice as many, so a flood from
  // many addresses costs a sweep per doubling, not one per request.
  #sweep(): void {
    for (const [bucket, share] of this.#shares) if (share.meters === 0) this.#shares.delete(bucket);
    this.#sweepAt = Math.max(SWEEP_AT_LEAST, 2 * this.#shares.size);
  }
}

/** What one address bucket holds of the budget right now, and how many body reads draw on it. */
export interface AddressShare {
  held: number;
  meters: number;
}

/** The number of shares at which those holding nothing are first swept out. */
const SWEEP_AT_LEAST = 1_024;

/** Why the budget refused bytes: the whole budget is in use, or the client address's share of it. */
export type BodyRefusal = Extract<BodyFailure, 'busy' | 'address-busy'>;

/** What a body read is held to: the shared budget (with its per-address shares) and two clocks (Infinity: none). */
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
  /** The client address's share, when shares are counted. */
  readonly #share: AddressShare | undefined;
  #held = 0;
  #seen = 0;
  #last = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #settled = false;

  /** Set when the declared length does not fit the budget (or the address's share); the meter then holds nothing. */
  readonly refused: BodyRefusal | undefined;

  /** `address` is the client's, when the adapter knows it: its bucket's share of the budget applies. */
  constructor(limits: BodyLimits, declared: number | undefined, address?: string) {
    this.#limits = limits;
    const share = limits.budget.shareOf(address);
    if (declared !== undefined && declared > 0) {
      this.refused = limits.budget.take(declared, share);
      if (this.refused !== undefined) {
        // Never started, so never settled: it must not count as a user of the share.
        this.#settled = true;
        return;
      }
      this.#held = declared;
    }
    this.#share = share;
    if (share !== undefined) share.meters++;
  }

  /** Starts the clocks of an admitted read; `onTimeout` ends it when one runs out. */
  start(onTimeout: (reason: BodyFailure) => void): void {
    this.#onTimeout = onTimeout;
    this.#start = this.#last = Date.now();
    this.#arm(Math.min(this.#limits.timeoutMs, this.#limits.idleTimeoutMs));
  }

  /** Counts `bytes` that arrived; says why when they do not fit the budget (the read must then stop). */
  charge(bytes: number): BodyRefusal | undefined {
    this.#seen += bytes;
    this.#last = Date.now();
    if (this.#seen <= this.#held) return undefined;
    const more = this.#seen - this.#held;
    const refused = this.#limits.budget.take(more, this.#share);
    if (refused === undefined) this.#held += more;
    return refused;
  }

  /** The read is over (complete, refused, failed or abandoned): gives back what it held. */
  settle(): void {
    if (this.#settled) return;
    this.#settled = true;
    clearTimeout(this.#timer);
    if (this.#held > 0) this.#limits.budget.give(this.#held, this.#share);
    this.#held = 0;
    if (this.#share !== undefined) this.#share.meters--;
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
