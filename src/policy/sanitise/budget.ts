// The size bounds of one result (threat E4): text is cut at a character boundary with a note the model can read,
// binary blocks over their own bound are left out whole (half an image is no image), each saying how to get less.

/** Text beyond the bound is read only this far past it before cleaning, so a 100 MB string costs a bounded scan. */
const READ_AHEAD = 64 * 1024;

const bytes = (count: number): string => `${count.toLocaleString('en-US')} bytes`;

/** The note that ends cut text. */
export const truncationNote = (kept: number, omitted: number): string =>
  `\n\n[toolwire: output truncated: ${bytes(kept)} kept, ${bytes(omitted)} left out. ` +
  'Ask for less: a narrower query, fewer items, or a page or range of the data.]';

/** The text that replaces a binary block over the bound. */
export const binaryNote = (what: string, mimeType: string | undefined, size: number, limit: number): string =>
  `[toolwire: ${what}${mimeType === undefined ? '' : ` (${mimeType})`} of ${bytes(size)} left out: binary content is ` +
  `limited to ${bytes(limit)} per result. Ask for a smaller one (a lower resolution, a crop, a thumbnail, a part) or for a link to it.]`;

/** The decoded size of base64 data, without decoding it. */
export const base64Size = (data: string): number => {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
};

/** Counts what one result may still carry; one per result. */
export class Budget {
  #textLeft: number;
  #binaryLeft: number;
  #keptText = 0;
  #omittedText = 0;
  /** Writes the final note into the text that was cut (the count is known only once every block is seen). */
  #noteAt: ((note: string) => void) | undefined;

  constructor(
    readonly maxText: number,
    readonly maxBinary: number,
  ) {
    this.#textLeft = maxText;
    this.#binaryLeft = maxBinary;
  }

  /** How much of a raw text to clean at most: its cleaned form can only be shorter. */
  readAhead(text: string): string {
    if (this.#textLeft === Infinity || text.length <= this.#textLeft + READ_AHEAD) return text;
    let end = this.#textLeft + READ_AHEAD;
    const last = text.charCodeAt(end - 1);
    if (last >= 0xd800 && last <= 0xdbff) end--; // never split a surrogate pair
    return text.slice(0, end);
  }

  /**
   * Fits a cleaned text into what is left. `rawBytes` is the size of the text before cleaning, when it was read only
   * partly (the part not read counts as left out). Returns the text to send and a setter for the note, if it was cut.
   */
  fitText(cleaned: string, rawBytes: number | undefined, setNote: (note: string) => void): string {
    const size = Buffer.byteLength(cleaned, 'utf8');
    if (size <= this.#textLeft && rawBytes === undefined) {
      this.#textLeft -= size;
      this.#keptText += size;
      return cleaned;
    }
    const total = rawBytes ?? size;
    if (this.#textLeft <= 0) {
      this.#omittedText += total;
      return '';
    }
    const buffer = new Uint8Array(Math.min(this.#textLeft, size));
    const { read, written } = new TextEncoder().encodeInto(cleaned, buffer);
    this.#keptText += written;
    this.#omittedText += total - written;
    this.#textLeft = 0;
    this.#noteAt ??= setNote;
    return cleaned.slice(0, read);
  }

  /** Whether a binary block of `size` decoded bytes may go; counts it if so. */
  takeBinary(size: number): boolean {
    if (size > this.#binaryLeft) return false;
    this.#binaryLeft -= size;
    return true;
  }

  /** Whether any text was cut. */
  get truncated(): boolean {
    return this.#omittedText > 0;
  }

  /** Writes the note into the cut text, once every block has been seen. */
  finish(): void {
    if (this.#omittedText > 0) this.#noteAt?.(truncationNote(this.#keptText, this.#omittedText));
  }
}
