// The circuit breaker of one upstream: after N consecutive failed requests it opens and refuses at once; after
// probeAfterMs one request goes through as a probe, whose success closes it and whose failure opens it again.

export interface CircuitOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  failures: number;
  /** How long the circuit stays open before one probe is let through, in ms. Default 30,000. */
  probeAfterMs: number;
}

export const DEFAULT_CIRCUIT: Readonly<CircuitOptions> = { failures: 5, probeAfterMs: 30_000 };

export type CircuitState = 'closed' | 'open' | 'half-open';

/** What admit() says: go ahead (as the probe, maybe), or wait `retryAfterMs` (undefined: a probe is under way). */
export type Admission = { ok: true; probe: boolean } | { ok: false; retryAfterMs: number | undefined };

export class CircuitBreaker {
  readonly #options: CircuitOptions;
  readonly #now: () => number;
  #failures = 0;
  #openedAt: number | undefined;
  #probing = false;

  constructor(options: Partial<CircuitOptions> = {}, now: () => number = Date.now) {
    const resolved = { ...DEFAULT_CIRCUIT, ...options };
    if (!Number.isSafeInteger(resolved.failures) || resolved.failures < 1)
      throw new RangeError(`circuit.failures must be a positive integer, got ${resolved.failures}`);
    if (!Number.isFinite(resolved.probeAfterMs) || resolved.probeAfterMs < 0)
      throw new RangeError(`circuit.probeAfterMs must be >= 0, got ${resolved.probeAfterMs}`);
    this.#options = resolved;
    this.#now = now;
  }

  get state(): CircuitState {
    if (this.#openedAt === undefined) return 'closed';
    return this.#probing || this.#now() >= this.#openedAt + this.#options.probeAfterMs ? 'half-open' : 'open';
  }

  /** Consecutive failures so far (0 after any success). */
  get failures(): number {
    return this.#failures;
  }

  /** When a probe will be let through, while open. */
  get probeAt(): number | undefined {
    return this.#openedAt === undefined ? undefined : this.#openedAt + this.#options.probeAfterMs;
  }

  /** Asks to send one request. A probe admitted here must end in success(), failure() or release(). */
  admit(): Admission {
    if (this.#openedAt === undefined) return { ok: true, probe: false };
    const wait = this.#openedAt + this.#options.probeAfterMs - this.#now();
    if (wait > 0) return { ok: false, retryAfterMs: wait };
    if (this.#probing) return { ok: false, retryAfterMs: undefined };
    this.#probing = true;
    return { ok: true, probe: true };
  }

  success(): void {
    this.#failures = 0;
    this.#openedAt = undefined;
    this.#probing = false;
  }

  failure(): void {
    this.#failures++;
    this.#probing = false;
    // A failed probe reopens at once; otherwise the Nth consecutive failure opens.
    if (this.#openedAt !== undefined || this.#failures >= this.#options.failures)
      this.#openedAt = this.#now();
  }

  /** A probe that proved nothing either way (the caller gave up): the next request may probe. */
  release(probe: boolean): void {
    if (probe) this.#probing = false;
  }
}
