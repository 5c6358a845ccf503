// A counting semaphore: at most N searches are in progress at once (each holds its batches of text), the others wait
// their turn or give up.

export class Slots {
  #free: number;
  readonly #waiting: (() => void)[] = [];

  constructor(count: number) {
    this.#free = count;
  }

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    return new Promise((resolve, reject) => {
      let released = false;
      const release = (): void => {
        if (released) return;
        released = true;
        const next = this.#waiting.shift();
        if (next === undefined) this.#free++;
        else next();
      };
      if (this.#free > 0) {
        this.#free--;
        resolve(release);
        return;
      }
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(release);
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(grant);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(signal.reason);
      };
      if (signal.aborted) {
        reject(signal.reason);
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }
}
