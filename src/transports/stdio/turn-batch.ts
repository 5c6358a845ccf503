// Lines sent during one turn of the event loop, written together right after it (setImmediate). A pipe write is a
// syscall, and on Linux a synchronous one that wakes the reader: with many messages in flight, each end of a stdio
// connection writes once per turn instead of once per message. Order is kept; past 64 KiB the batch goes at once.

const COALESCE_BYTES = 64 * 1024;

export class TurnBatch {
  readonly #write: (data: string) => void;
  #pending = '';
  #scheduled = false;

  /** `write` gets each batch, newline-terminated lines, once the turn ends (or at once past 64 KiB). */
  constructor(write: (data: string) => void) {
    this.#write = write;
  }

  add(message: string): void {
    this.#pending += message + '\n';
    if (this.#pending.length >= COALESCE_BYTES) this.flush();
    else if (!this.#scheduled) {
      this.#scheduled = true;
      setImmediate(this.flush);
    }
  }

  /** Writes what is pending now: before a write that does not go through the batch, so that order is kept. */
  flush = (): void => {
    this.#scheduled = false;
    const data = this.take();
    if (data !== '') this.#write(data);
  };

  /** Empties the batch and returns what it held, unwritten (a closing transport writes or drops it itself). */
  take(): string {
    const data = this.#pending;
    this.#pending = '';
    return data;
  }
}
