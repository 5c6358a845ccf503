// The last few KiB of a child's stderr, kept as bytes and decoded on demand without splitting a character.

import { StringDecoder } from 'node:string_decoder';

export class StderrTail {
  readonly #maxBytes: number;
  #chunks: Buffer[] = [];
  #bytes = 0;

  constructor(maxBytes: number) {
    if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
      throw new RangeError(`maxStderrBytes must be a non-negative integer, got ${maxBytes}`);
    }
    this.#maxBytes = maxBytes;
  }

  push(chunk: Buffer): void {
    if (this.#maxBytes === 0 || chunk.length === 0) return;
    // Chunks are kept by reference (Node streams never reuse them); whole chunks fall off the front, so the
    // buffer holds at most one chunk more than the limit and trimming costs nothing per byte.
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#chunks.length > 1) {
      const first = this.#chunks[0];
      if (first === undefined || this.#bytes - first.length < this.#maxBytes) break;
      this.#chunks.shift();
      this.#bytes -= first.length;
    }
  }

  /** The tail as text: at most maxBytes bytes, starting and ending on whole UTF-8 characters. */
  get text(): string {
    if (this.#bytes === 0) return '';
    const all = Buffer.concat(this.#chunks, this.#bytes);
    let start = Math.max(0, all.length - this.#maxBytes);
    // Continuation bytes (10xxxxxx) at the cut belong to a character whose start fell off.
    const limit = Math.min(all.length, start + 3);
    while (start < limit && ((all[start] ?? 0) & 0xc0) === 0x80) start++;
    // A StringDecoder holds back an incomplete character at the end instead of emitting U+FFFD for it.
    return new StringDecoder('utf8').write(all.subarray(start));
  }
}
