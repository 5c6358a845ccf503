// Keeps lines startLine..endLine of a text that arrives in chunks, within a byte budget, holding nothing else.

/** Why the output was cut short, if it was. */
export type CutReason = 'byte-limit' | 'long-line';

/** The first `maxBytes` UTF-8 bytes of `line`, never splitting a character. */
export function cutToBytes(line: string, maxBytes: number): string {
  let bytes = 0;
  let end = 0;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (bytes + size > maxBytes) break;
    bytes += size;
    end += char.length;
  }
  return line.slice(0, end);
}

export interface CollectorOptions {
  startLine: number;
  endLine: number | undefined;
  /** UTF-8 bytes of output (lines plus the "\n" between them) at most. */
  maxBytes: number;
  /** Keep counting lines after endLine, so the total is known at the end (worth it for small files only). */
  countAll: boolean;
}

export class LineCollector {
  readonly #options: CollectorOptions;
  readonly #end: number;
  readonly lines: string[] = [];
  /** Lines completed so far (the number of the line being read is this + 1). */
  #completed = 0;
  /** The line being read, only while it is one of the wanted lines. */
  #partial = '';
  /** Whether the line being read has any characters (tracked even when it is not kept). */
  #partialSeen = false;
  #bytes = 0;
  #pastEnd = false;
  /** Set when the byte budget cut the output short. */
  cut: CutReason | undefined;

  constructor(options: CollectorOptions) {
    this.#options = options;
    this.#end = options.endLine ?? Number.POSITIVE_INFINITY;
  }

  get startLine(): number {
    return this.#options.startLine;
  }

  /** Lines seen so far; after `end()` on the whole text, the file's line count. */
  get totalLines(): number {
    return this.#completed;
  }

  /** True once endLine has been collected. */
  get pastEnd(): boolean {
    return this.#pastEnd;
  }

  /** Takes the next piece of text; returns false once nothing further is wanted. */
  push(text: string): boolean {
    let from = 0;
    while (this.#wanted() && from < text.length) {
      const newline = text.indexOf('\n', from);
      const stop = newline === -1 ? text.length : newline;
      if (!this.#pastEnd && this.#completed + 1 >= this.#options.startLine) {
        this.#partial += text.slice(from, stop);
        if (this.#partial.length > this.#options.maxBytes - this.#bytes) {
          // Each character is at least one byte, so this line cannot fit: stop before holding more of it.
          this.#overflow();
          break;
        }
      }
      if (stop > from) this.#partialSeen = true;
      if (newline === -1) break;
      this.#completeLine();
      from = newline + 1;
    }
    return this.#wanted();
  }

  /** The text is over: a last line without a newline counts if it has any characters. */
  end(): void {
    if (this.cut === undefined && this.#partialSeen) this.#completeLine();
  }

  #wanted(): boolean {
    return this.cut === undefined && (!this.#pastEnd || this.#options.countAll);
  }

  #completeLine(): void {
    const lineNumber = this.#completed + 1;
    if (!this.#pastEnd && lineNumber >= this.#options.startLine) {
      const line = this.#partial.endsWith('\r') ? this.#partial.slice(0, -1) : this.#partial;
      const size = Buffer.byteLength(line, 'utf8') + (this.lines.length > 0 ? 1 : 0); // with the joining "\n"
      if (this.#bytes + size > this.#options.maxBytes) {
        this.#partial = line;
        this.#overflow();
        return;
      }
      this.lines.push(line);
      this.#bytes += size;
      if (lineNumber >= this.#end) this.#pastEnd = true;
    }
    this.#completed = lineNumber;
    this.#partial = '';
    this.#partialSeen = false;
  }

  /** The budget is spent: the first wanted line is cut to fit, otherwise the output ends before this line. */
  #overflow(): void {
    if (this.lines.length === 0) {
      this.lines.push(cutToBytes(this.#partial, this.#options.maxBytes));
      this.cut = 'long-line';
    } else this.cut = 'byte-limit';
    this.#partial = '';
  }
}
