// Newline-delimited framing for stdio: turns byte chunks into lines without ever holding more than one bounded line.

const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

export interface LineSplitterOptions {
  /** Largest accepted line in bytes, not counting the `\n` terminator or a `\r` just before it. */
  maxLineBytes: number;
  onLine(line: string): void;
  /** Called once per line over the limit, when that line ends; `bytes` is its full length (terminator excluded). */
  onOversize(info: { bytes: number }): void;
}

/**
 * A pure, bounded line decoder. Chunks are kept by reference (Node streams never reuse them) and joined once
 * per line, so many small chunks cost O(n). Lines are decoded as a whole, so a multi-byte UTF-8 character split
 * between chunks decodes correctly: the byte 0x0A never occurs inside a multi-byte sequence.
 * Callbacks should not throw: a throw loses the rest of the current chunk (the state stays consistent).
 */
export class LineSplitter {
  readonly #maxLineBytes: number;
  readonly #onLine: (line: string) => void;
  readonly #onOversize: (info: { bytes: number }) => void;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  /** Set once the current line is known to be over the limit: its bytes are counted, not kept. */
  #discarding = false;
  #discardedBytes = 0;
  #lastDiscardedByte = -1;

  constructor(options: LineSplitterOptions) {
    if (!Number.isSafeInteger(options.maxLineBytes) || options.maxLineBytes < 1) {
      throw new RangeError(`maxLineBytes must be a positive integer, got ${options.maxLineBytes}`);
    }
    this.#maxLineBytes = options.maxLineBytes;
    this.#onLine = options.onLine;
    this.#onOversize = options.onOversize;
  }

  push(chunk: Buffer | Uint8Array): void {
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    while (start < bytes.length) {
      const newline = bytes.indexOf(LF, start);
      if (newline === -1) {
        this.#accumulate(bytes.subarray(start));
        return;
      }
      const segment = bytes.subarray(start, newline);
      start = newline + 1;
      this.#accumulate(segment);
      this.#finishLine();
    }
  }

  /** Flushes a final line that had no terminator (the stream ended). */
  end(): void {
    if (this.#discarding || this.#pendingBytes > 0) this.#finishLine();
  }

  #accumulate(segment: Buffer): void {
    if (segment.length === 0) return;
    if (this.#discarding) {
      this.#discard(segment);
      return;
    }
    this.#pending.push(segment);
    this.#pendingBytes += segment.length;
    // One byte of slack: a trailing `\r` is part of the terminator, which is only known once `\n` arrives.
    if (
      this.#pendingBytes > this.#maxLineBytes + 1 ||
      (this.#pendingBytes > this.#maxLineBytes && !this.#endsWithCr())
    ) {
      const kept = this.#pending;
      this.#resetPending();
      this.#discarding = true;
      for (const piece of kept) this.#discard(piece);
    }
  }

  #discard(segment: Buffer): void {
    this.#discardedBytes += segment.length;
    this.#lastDiscardedByte = segment[segment.length - 1] ?? this.#lastDiscardedByte;
  }

  #finishLine(): void {
    if (this.#discarding) {
      const bytes = this.#discardedBytes - (this.#lastDiscardedByte === CR ? 1 : 0);
      this.#discarding = false;
      this.#discardedBytes = 0;
      this.#lastDiscardedByte = -1;
      this.#onOversize({ bytes });
      return;
    }
    const pieces = this.#pending;
    const total = this.#pendingBytes;
    this.#resetPending();
    if (total === 0) return;
    const single = pieces.length === 1 ? pieces[0] : undefined;
    let line = single ?? Buffer.concat(pieces, total);
    // #accumulate kept at most limit + 1 bytes, the extra one only if it is this `\r`: the line is within limits.
    if (line[line.length - 1] === CR) line = line.subarray(0, line.length - 1);
    if (isBlank(line)) return;
    this.#onLine(line.toString('utf8'));
  }

  #endsWithCr(): boolean {
    const last = this.#pending[this.#pending.length - 1];
    return last !== undefined && last[last.length - 1] === CR;
  }

  #resetPending(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }
}

/** True for a line of only spaces, tabs and carriage returns; usually decided by the first byte (`{`). */
function isBlank(line: Buffer): boolean {
  for (const byte of line) {
    if (byte !== SPACE && byte !== TAB && byte !== CR) return false;
  }
  return true;
}
