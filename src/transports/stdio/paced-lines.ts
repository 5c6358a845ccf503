// Incoming lines handed on a slice per turn of the event loop. A client with many requests in flight sends them in
// few writes, and one pipe read may hold dozens of lines. Handled all in one turn, every answer waited for the last
// request of the read, and went out in one write at the end: the client sat idle while the server worked, then the
// server sat idle while the client read. A slice at a time, the answers of one slice are written before the next
// slice is handled, so both ends work at once (stdio with 64 in flight: 1.7× the answers per second, measured in the
// closing note of issue 20), and a flood of lines never holds the event loop for more than one slice.

/** Lines handed on per turn; the rest wait for the next turn, with the input paused. */
export const LINES_PER_TURN = 16;

export interface PacedLinesOptions {
  /** Hands on one line. */
  deliver(line: string): void;
  /** An over-long line's turn in the order came: `bytes` is its size. */
  oversize(bytes: number): void;
  /** Runs before each later slice: what the previous slice produced goes out first. */
  between(): void;
  /** Lines are waiting: stop reading until they are handled (bounds what is held to one read's lines). */
  pause(): void;
  /** Every waiting line was handed on. */
  resume(): void;
}

export class PacedLines {
  readonly #options: PacedLinesOptions;
  /** Lines in arrival order; a number stands for an over-long line of that many bytes. */
  readonly #items: (string | number)[] = [];
  #next = 0;
  /** A later slice is scheduled and the input is paused. */
  #waiting = false;

  constructor(options: PacedLinesOptions) {
    this.#options = options;
  }

  line(text: string): void {
    this.#items.push(text);
  }

  oversize(bytes: number): void {
    this.#items.push(bytes);
  }

  /** After a read was split into lines: hands on a slice now, unless a slice is already scheduled. */
  pump(): void {
    if (!this.#waiting) this.#slice(LINES_PER_TURN);
  }

  /** The input ended: hands on every line left, now. */
  drain(): void {
    this.#slice(Infinity);
  }

  /** Hands on nothing more (the transport closed, perhaps from a handler mid-slice); what waits is dropped. */
  stop(): void {
    this.#items.length = 0;
    this.#next = 0;
    this.#waiting = false;
  }

  #slice(budget: number): void {
    const items = this.#items;
    let left = budget;
    while (this.#next < items.length && left > 0) {
      left -= 1;
      const item = items[this.#next++] as string | number;
      if (typeof item === 'string') this.#options.deliver(item);
      else this.#options.oversize(item);
    }
    if (this.#next < items.length) {
      if (!this.#waiting) {
        this.#waiting = true;
        this.#options.pause();
      }
      setImmediate(this.#continue);
      return;
    }
    items.length = 0;
    this.#next = 0;
    if (this.#waiting) {
      this.#waiting = false;
      this.#options.resume();
    }
  }

  readonly #continue = (): void => {
    if (!this.#waiting) return; // stopped meanwhile
    this.#options.between();
    this.#slice(LINES_PER_TURN);
  };
}
