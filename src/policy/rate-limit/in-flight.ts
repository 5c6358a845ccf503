// The concurrency cap: calls in flight per caller key. Entries exist only while a call holds a slot, so the map is
// bounded by the requests the transports let in, not by how many callers ever came.

export class InFlight {
  readonly max: number;
  readonly #counts = new Map<string, number>();

  constructor(max: number) {
    this.max = max;
  }

  /** Callers with a call in flight. */
  get size(): number {
    return this.#counts.size;
  }

  /** Takes a slot for `key`; false when it already has `max` calls in flight. */
  acquire(key: string): boolean {
    const held = this.#counts.get(key) ?? 0;
    if (held >= this.max) return false;
    this.#counts.set(key, held + 1);
    return true;
  }

  release(key: string): void {
    const held = this.#counts.get(key) ?? 0;
    if (held <= 1) this.#counts.delete(key);
    else this.#counts.set(key, held - 1);
  }
}
