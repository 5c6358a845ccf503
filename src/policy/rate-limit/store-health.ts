// Whether the counter store answers: a failing store refuses calls (fail closed) and is reported once per outage,
// not once per refused call, so an outage under load does not flood the log.

import type { Logger } from '../../server/index.js';

export class StoreHealth {
  readonly #logger: Logger;
  #failing = false;
  /** Failures since the one that was logged. */
  #unlogged = 0;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  failed(error: unknown): void {
    if (this.#failing) {
      this.#unlogged++;
      return;
    }
    this.#failing = true;
    this.#logger.warn(
      'rate limits: the counter store failed; calls that count are refused (503) until it answers again',
      error,
    );
  }

  /** The store answered. Called on every counted request: one boolean test unless an outage just ended. */
  ok(): void {
    if (!this.#failing) return;
    this.#failing = false;
    const unlogged = this.#unlogged;
    this.#unlogged = 0;
    this.#logger.info(
      `rate limits: the counter store answers again (${unlogged} more failure${unlogged === 1 ? '' : 's'} during the outage)`,
    );
  }
}
