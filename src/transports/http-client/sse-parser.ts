// An incremental, bounded parser for server-sent events (the WHATWG event-stream format) over raw bytes.

const LF = 0x0a;
const CR = 0x0d;

export interface SseEvent {
  /** The `data:` lines joined with `\n`; '' for an event without data (a priming event that only carries an id). */
  data: string;
  /** The `event:` field, '' when absent. */
  event: string;
  /** The stream's last event id after this event (ids persist until the server sends a new one). */
  id: string | undefined;
}

export interface SseParserOptions {
  /** Largest event in bytes, field names and line breaks included; a larger one makes push() throw. */
  maxEventBytes: number;
  /** Called for every block of fields ended by a blank line, also when it has no data (so ids are seen). */
  onEvent(event: SseEvent): void;
  /** Called for every valid `retry:` field (an integer of milliseconds), when it is read. */
  onRetry?(ms: number): void;
}

/** The error push() throws when one event grows past maxEventBytes. */
export class SseEventTooLargeError extends Error {
  constructor(limit: number) {
    super(`an SSE event exceeds the ${limit}-byte limit`);
    this.name = 'SseEventTooLargeError';
  }
}

/**
 * Lines end with CRLF, LF or CR (a CR at the end of a chunk waits to see whether an LF follows). Lines are split
 * as bytes and decoded whole, so a UTF-8 character split between chunks decodes correctly: neither CR nor LF
 * occurs inside a multi-byte sequence. Only the current event is held, never more than maxEventBytes of it.
 */
export class SseParser {
  readonly #maxEventBytes: number;
  readonly #onEvent: (event: SseEvent) => void;
  readonly #onRetry: ((ms: number) => void) | undefined;
  // A decoder that keeps U+FEFF: only the one at the very start of the stream is a byte order mark.
  readonly #decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  #partial: Uint8Array[] = [];
  #partialBytes = 0;
  /** Bytes of the complete lines of the current event. */
  #eventBytes = 0;
  #afterCr = false;
  #firstLine = true;
  #data: string[] = [];
  #eventType = '';
  #hasFields = false;
  #idBuffer: string | undefined;
  #lastEventId: string | undefined;

  constructor(options: SseParserOptions) {
    if (!Number.isSafeInteger(options.maxEventBytes) || options.maxEventBytes < 1) {
      throw new RangeError(`maxEventBytes must be a positive integer, got ${options.maxEventBytes}`);
    }
    this.#maxEventBytes = options.maxEventBytes;
    this.#onEvent = options.onEvent;
    this.#onRetry = options.onRetry;
  }

  /** The id of the last complete event (an id field only counts once its event's blank line arrived). */
  get lastEventId(): string | undefined {
    return this.#lastEventId;
  }

  push(chunk: Uint8Array): void {
    let start = 0;
    if (this.#afterCr) {
      this.#afterCr = false;
      if (chunk[0] === LF) start = 1;
    }
    let nextLf = -2;
    let nextCr = -2;
    while (start < chunk.length) {
      // Each search runs again only once its last hit is behind us, so a chunk is scanned about twice in all.
      if (nextLf !== -1 && nextLf < start) nextLf = chunk.indexOf(LF, start);
      if (nextCr !== -1 && nextCr < start) nextCr = chunk.indexOf(CR, start);
      const end = nextLf === -1 ? nextCr : nextCr === -1 ? nextLf : Math.min(nextLf, nextCr);
      if (end === -1) {
        this.#keep(chunk.subarray(start));
        return;
      }
      this.#keep(chunk.subarray(start, end));
      let next = end + 1;
      if (chunk[end] === CR) {
        if (next === chunk.length) this.#afterCr = true;
        else if (chunk[next] === LF) next++;
      }
      this.#eventBytes += next - end;
      this.#line();
      start = next;
    }
  }

  /** The stream ended: an event without its closing blank line is dropped, as the format requires. */
  end(): void {
    this.#partial = [];
    this.#partialBytes = 0;
    this.#resetEvent();
  }

  #keep(piece: Uint8Array): void {
    if (piece.length === 0) return;
    this.#partial.push(piece);
    this.#partialBytes += piece.length;
    if (this.#eventBytes + this.#partialBytes > this.#maxEventBytes) {
      throw new SseEventTooLargeError(this.#maxEventBytes);
    }
  }

  #line(): void {
    const bytes = this.#partialBytes;
    let line = bytes === 0 ? '' : this.#decodePartial();
    this.#eventBytes += bytes;
    if (this.#firstLine) {
      this.#firstLine = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (line === '') {
      this.#dispatch();
      return;
    }
    if (line.charCodeAt(0) === 0x3a /* : */) return; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 0x20) value = value.slice(1);
    switch (field) {
      case 'data':
        this.#data.push(value);
        this.#hasFields = true;
        break;
      case 'event':
        this.#eventType = value;
        this.#hasFields = true;
        break;
      case 'id':
        if (!value.includes('\0')) this.#idBuffer = value;
        this.#hasFields = true;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.#onRetry?.(Number(value));
        break;
      default:
        // Unknown fields are ignored.
        break;
    }
  }

  #decodePartial(): string {
    const pieces = this.#partial;
    this.#partial = [];
    const total = this.#partialBytes;
    this.#partialBytes = 0;
    if (pieces.length === 1 && pieces[0] !== undefined) return this.#decoder.decode(pieces[0]);
    const joined = new Uint8Array(total);
    let offset = 0;
    for (const piece of pieces) {
      joined.set(piece, offset);
      offset += piece.length;
    }
    return this.#decoder.decode(joined);
  }

  #dispatch(): void {
    this.#lastEventId = this.#idBuffer;
    const hadFields = this.#hasFields;
    const event: SseEvent = { data: this.#data.join('\n'), event: this.#eventType, id: this.#lastEventId };
    this.#resetEvent();
    if (hadFields) this.#onEvent(event);
  }

  #resetEvent(): void {
    this.#data = [];
    this.#eventType = '';
    this.#hasFields = false;
    this.#eventBytes = 0;
  }
}
