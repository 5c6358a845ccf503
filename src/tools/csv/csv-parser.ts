// A streaming RFC 4180 reader: text goes in chunk by chunk, records come out one by one, memory stays bounded.
//
// Beyond the RFC, as most readers do: any one-character delimiter; CRLF, LF and CR line ends (mixed if need be);
// blank lines skipped and counted; a stray quote read literally and counted. A record longer than the limit is an
// error rather than a buffer that grows without end, and a quote left open at the end of the input is reported.

import { CsvError } from './csv-error.js';

const QUOTE = 34;
const CR = 13;
const LF = 10;

/** Where the reader is: between fields, inside an unquoted field, inside quotes, just after a quote, after a closing quote. */
const State = { FieldStart: 0, Unquoted: 1, Quoted: 2, QuoteInQuoted: 3, AfterQuoted: 4 } as const;
type State = (typeof State)[keyof typeof State];

/** How many line numbers each kind of irregularity keeps for the report. */
export const LINES_KEPT = 10;

export interface CsvParserOptions {
  /** One UTF-16 code unit, not a quote, CR or LF. */
  delimiter: string;
  /** Longest record, in characters (UTF-16 code units), separators included. */
  maxRecordChars: number;
  /** Receives each record with the line (from 1) it starts on. The array is the receiver's to keep. */
  onRecord(fields: string[], line: number): void;
}

export class CsvParser {
  readonly #delimiter: number;
  readonly #maxRecordChars: number;
  readonly #onRecord: (fields: string[], line: number) => void;
  #state: State = State.FieldStart;
  #fields: string[] = [];
  /** The current field's text so far, when it spans chunks or holds an escaped quote. */
  #field = '';
  /** Characters of the current record in its finished fields. */
  #recordChars = 0;
  #line = 1;
  #recordLine = 1;
  #quoteLine = 1;
  /** The last chunk ended with CR outside quotes: an LF opening the next one belongs to it. */
  #skipLF = false;
  /** The last character read inside quotes was CR (so a following LF is the same line break). */
  #quotedCR = false;

  blankLines = 0;
  readonly blankLineNumbers: number[] = [];
  strayQuotes = 0;
  readonly strayQuoteLines: number[] = [];
  /** The line of a quote still open at the end of the input, whose record was therefore not emitted. */
  unterminatedQuoteLine: number | undefined;

  constructor(options: CsvParserOptions) {
    if (options.delimiter.length !== 1 || /["\r\n]/.test(options.delimiter)) {
      throw new RangeError('the delimiter must be one character other than a quote, CR or LF');
    }
    this.#delimiter = options.delimiter.charCodeAt(0);
    this.#maxRecordChars = options.maxRecordChars;
    this.#onRecord = options.onRecord;
  }

  /** Reads the next piece of text. Throws CsvError when the current record grows past the limit. */
  push(chunk: string): void {
    const n = chunk.length;
    const delimiter = this.#delimiter;
    let i = 0;
    if (this.#skipLF && n > 0) {
      this.#skipLF = false;
      if (chunk.charCodeAt(0) === LF) i = 1;
    }
    let state: State = this.#state;
    let start = i;
    while (i < n) {
      if (state === State.FieldStart) {
        const c = chunk.charCodeAt(i);
        if (c === QUOTE) {
          state = State.Quoted;
          this.#quoteLine = this.#line;
          this.#quotedCR = false;
          i++;
          continue;
        }
        if (c === delimiter) {
          this.#endField('');
          i++;
          continue;
        }
        if (c === CR || c === LF) {
          if (this.#fields.length === 0) {
            this.blankLines++;
            if (this.blankLineNumbers.length < LINES_KEPT) this.blankLineNumbers.push(this.#line);
          } else {
            this.#endField('');
            this.#emit();
          }
          i = this.#lineBreak(chunk, i);
          continue;
        }
        state = State.Unquoted;
        start = i;
      }
      if (state === State.Unquoted) {
        let j = i;
        let c = 0;
        for (; j < n; j++) {
          c = chunk.charCodeAt(j);
          if (c === delimiter || c === CR || c === LF) break;
          if (c === QUOTE) this.#strayQuote();
        }
        if (j === n) break; // the field goes on in the next chunk
        const piece = chunk.slice(start, j);
        this.#endField(this.#field.length === 0 ? piece : this.#field + piece);
        this.#field = '';
        state = State.FieldStart;
        if (c === delimiter) {
          i = j + 1;
        } else {
          this.#emit();
          i = this.#lineBreak(chunk, j);
        }
        continue;
      }
      if (state === State.Quoted) {
        const quote = chunk.indexOf('"', i);
        const stop = quote === -1 ? n : quote;
        this.#countQuotedLines(chunk, i, stop);
        if (stop > i) this.#field += chunk.slice(i, stop);
        if (quote === -1) break; // the quotes go on in the next chunk
        i = quote + 1;
        state = State.QuoteInQuoted;
        continue;
      }
      if (state === State.QuoteInQuoted) {
        if (chunk.charCodeAt(i) === QUOTE) {
          this.#field += '"';
          this.#quotedCR = false;
          i++;
          state = State.Quoted;
          continue;
        }
        // Not a doubled quote: it closed the field, and the next character is read as after a closing quote.
      }
      // State.AfterQuoted
      const c = chunk.charCodeAt(i);
      if (c === delimiter || c === CR || c === LF) {
        this.#endField(this.#field);
        this.#field = '';
        state = State.FieldStart;
        if (c === delimiter) {
          i++;
        } else {
          this.#emit();
          i = this.#lineBreak(chunk, i);
        }
        continue;
      }
      // Text after a closing quote ("ab"c): kept as part of the field, and counted.
      this.#strayQuote();
      state = State.Unquoted;
      start = i;
    }
    if (state === State.Unquoted && start < n) this.#field += chunk.slice(start, n);
    this.#state = state;
    // Here the current field's separator is not counted yet, so this is the exact length of the record so far.
    if (this.#recordChars + this.#field.length > this.#maxRecordChars) {
      this.#tooLong(state === State.Quoted || state === State.QuoteInQuoted);
    }
  }

  /** Ends the input: emits a last record without a line break; a quote still open is recorded, not emitted. */
  end(): void {
    switch (this.#state) {
      case State.Quoted:
        this.unterminatedQuoteLine = this.#quoteLine;
        break;
      case State.FieldStart:
        if (this.#fields.length > 0) {
          this.#endField('');
          this.#emit();
        }
        break;
      default:
        this.#endField(this.#field);
        this.#emit();
    }
    this.#state = State.FieldStart;
    this.#field = '';
    this.#fields = [];
  }

  #endField(value: string): void {
    // Each field counts one separator (a delimiter or the line end), hence the + 1 on both sides.
    this.#recordChars += value.length + 1;
    if (this.#recordChars > this.#maxRecordChars + 1) this.#tooLong(false);
    this.#fields.push(value);
  }

  #emit(): void {
    const fields = this.#fields;
    this.#fields = [];
    this.#recordChars = 0;
    this.#onRecord(fields, this.#recordLine);
  }

  /** Steps over the line break at `i` (CRLF, LF or CR) and returns the index after it. */
  #lineBreak(chunk: string, i: number): number {
    this.#line++;
    this.#recordLine = this.#line;
    if (chunk.charCodeAt(i) === LF) return i + 1;
    if (i + 1 === chunk.length) {
      this.#skipLF = true;
      return i + 1;
    }
    return chunk.charCodeAt(i + 1) === LF ? i + 2 : i + 1;
  }

  /** Line breaks inside quotes are data, but the line numbers in reports still count them. */
  #countQuotedLines(chunk: string, from: number, to: number): void {
    let line = this.#line;
    let afterCR = this.#quotedCR;
    for (let k = from; k < to; k++) {
      const c = chunk.charCodeAt(k);
      if (c === LF) {
        if (!afterCR) line++;
        afterCR = false;
      } else if (c === CR) {
        line++;
        afterCR = true;
      } else {
        afterCR = false;
      }
    }
    this.#line = line;
    this.#quotedCR = afterCR;
  }

  #strayQuote(): void {
    this.strayQuotes++;
    const lines = this.strayQuoteLines;
    if (lines.length < LINES_KEPT && lines.at(-1) !== this.#line) lines.push(this.#line);
  }

  #tooLong(open: boolean): never {
    throw new CsvError(
      `the record that starts on line ${this.#recordLine} is longer than ${this.#maxRecordChars} characters (the maxRecordBytes limit of the csv pack); ` +
        (open
          ? `the quoted field opened on line ${this.#quoteLine} is probably never closed: check its quotes`
          : 'check the delimiter and the line ends'),
    );
  }
}
