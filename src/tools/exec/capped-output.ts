// One output stream of a program: the first `limit` bytes kept, the rest counted (and read, so the program never blocks).

export class CappedOutput {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #dropped = 0;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    const room = this.#limit - this.#kept;
    const part = chunk.length <= room ? chunk : chunk.subarray(0, Math.max(room, 0));
    if (part.length > 0) {
      this.#chunks.push(part);
      this.#kept += part.length;
    }
    this.#dropped += chunk.length - part.length;
  }

  get truncated(): boolean {
    return this.#dropped > 0;
  }

  /** The kept bytes as UTF-8, ending with `…[truncated N bytes]` when some were dropped. */
  text(): string {
    const kept = Buffer.concat(this.#chunks, this.#kept).toString('utf8');
    return this.#dropped > 0 ? `${kept}…[truncated ${this.#dropped} bytes]` : kept;
  }
}
