// How long an Upstream waits before its next connection attempt: exponential, capped, with optional jitter.

export interface RestartOptions {
  /** The first wait, in ms. Default 500. */
  initialMs: number;
  /** The cap: waits never grow past this. Default 30,000. */
  maxMs: number;
  /** Growth per failed attempt. Default 2. */
  factor: number;
  /**
   * The fraction of each wait taken off at random (0: none, 0.5: anywhere from half to the full wait). Default 0.2:
   * a gateway fleet restarted together does not hammer a recovering upstream in lockstep.
   */
  jitter?: number;
}

export const DEFAULT_RESTART: Readonly<Required<RestartOptions>> = {
  initialMs: 500,
  maxMs: 30_000,
  factor: 2,
  jitter: 0.2,
};

/** Checks the numbers once, at construction: a zero factor or a negative cap would make a busy loop. */
export function resolveRestart(options: Partial<RestartOptions> = {}): Required<RestartOptions> {
  const resolved = { ...DEFAULT_RESTART, ...options };
  const { initialMs, maxMs, factor, jitter } = resolved;
  if (!Number.isFinite(initialMs) || initialMs <= 0)
    throw new RangeError(`restart.initialMs must be > 0, got ${initialMs}`);
  if (!Number.isFinite(maxMs) || maxMs < initialMs)
    throw new RangeError(`restart.maxMs must be at least restart.initialMs, got ${maxMs}`);
  if (!Number.isFinite(factor) || factor < 1)
    throw new RangeError(`restart.factor must be >= 1, got ${factor}`);
  if (!Number.isFinite(jitter) || jitter < 0 || jitter > 1)
    throw new RangeError(`restart.jitter must be between 0 and 1, got ${jitter}`);
  return resolved;
}

/** The wait before attempt number `attempt` (0 = the first retry); `random` returns [0, 1). */
export function backoffDelay(
  options: Required<RestartOptions>,
  attempt: number,
  random: () => number,
): number {
  const full = Math.min(options.maxMs, options.initialMs * options.factor ** Math.min(attempt, 64));
  return Math.round(full * (1 - options.jitter * random()));
}
