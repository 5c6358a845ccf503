// Telling text from binary and finding a file's encoding from its first bytes, and decoding it chunk by chunk.

import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';

/** The encodings a read can end up with; UTF-16BE is only ever found through its byte order mark. */
export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';
/** What a caller may ask for. */
export type EncodingChoice = 'auto' | 'utf-8' | 'utf-16le' | 'latin1';
export const ENCODING_CHOICES: readonly EncodingChoice[] = ['auto', 'utf-8', 'utf-16le', 'latin1'];

/** How many leading bytes decide encoding and binary-ness. */
export const SNIFF_BYTES = 8192;
/** Above this share of control characters (other than the usual whitespace and ESC), a file is binary. */
const CONTROL_RATIO = 0.1;

export interface DetectedEncoding {
  encoding: TextEncodingName;
  /** Bytes of byte order mark to skip (0 when there is none, or when the caller chose latin1). */
  bomLength: number;
}

const startsWith = (bytes: Uint8Array, ...prefix: number[]): boolean =>
  prefix.every((byte, index) => bytes[index] === byte);

/**
 * Decides the encoding from the first bytes. `auto`: a BOM (UTF-8, UTF-16LE, UTF-16BE), else UTF-8 when the sample is
 * valid UTF-8, else latin1. `complete` says the sample is the whole file (otherwise a multi-byte character may be cut
 * at its end). An explicit choice is kept, and its own BOM is still skipped.
 */
export function detectEncoding(
  sample: Uint8Array,
  choice: EncodingChoice,
  complete: boolean,
): DetectedEncoding {
  const utf8Bom = startsWith(sample, 0xef, 0xbb, 0xbf);
  const leBom = startsWith(sample, 0xff, 0xfe);
  switch (choice) {
    case 'utf-8':
      return { encoding: 'utf-8', bomLength: utf8Bom ? 3 : 0 };
    case 'utf-16le':
      return { encoding: 'utf-16le', bomLength: leBom ? 2 : 0 };
    case 'latin1':
      return { encoding: 'latin1', bomLength: 0 };
    case 'auto':
      if (utf8Bom) return { encoding: 'utf-8', bomLength: 3 };
      if (leBom) return { encoding: 'utf-16le', bomLength: 2 };
      if (startsWith(sample, 0xfe, 0xff)) return { encoding: 'utf-16be', bomLength: 2 };
      return { encoding: looksLikeUtf8(sample, complete) ? 'utf-8' : 'latin1', bomLength: 0 };
  }
}

/** Valid UTF-8, allowing a sample that was cut inside its last character (up to 3 bytes short). */
function looksLikeUtf8(sample: Uint8Array, complete: boolean): boolean {
  if (isUtf8(sample)) return true;
  if (complete) return false;
  for (let cut = 1; cut <= 3 && cut < sample.length; cut++) {
    const lead = sample[sample.length - cut] as number;
    if (lead >= 0xc0) return isUtf8(sample.subarray(0, sample.length - cut)); // start of the cut character
    if ((lead & 0xc0) !== 0x80) return false; // an ASCII byte: nothing was cut
  }
  return false;
}

/** Backspace, tab, line feed, vertical tab, form feed, carriage return and ESC (logs, terminal captures) are text. */
const TEXT_CONTROLS: ReadonlySet<number> = new Set([0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1b]);
const isControl = (code: number): boolean => (code < 0x20 || code === 0x7f) && !TEXT_CONTROLS.has(code);

/**
 * Why the sample looks binary, as a parenthesis for a message, or undefined for text. UTF-16 is judged on its
 * characters (its ASCII text is full of NUL bytes), everything else on its bytes.
 */
export function binaryReason(sample: Uint8Array, detected: DetectedEncoding): string | undefined {
  const body = sample.subarray(detected.bomLength);
  const codes: ArrayLike<number> =
    detected.encoding === 'utf-16le' || detected.encoding === 'utf-16be'
      ? codeUnits(body, detected.encoding)
      : body;
  let controls = 0;
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index] as number;
    if (code === 0) return 'NUL bytes in its first 8 KiB';
    if (isControl(code)) controls++;
  }
  if (codes.length > 0 && controls / codes.length > CONTROL_RATIO) {
    return `${Math.round((controls / codes.length) * 100)}% control characters in its first 8 KiB`;
  }
  return undefined;
}

/** ASCII-range UTF-16LE text without a BOM: nearly every second byte is NUL and the others are not. */
export function looksLikeUtf16le(sample: Uint8Array): boolean {
  const pairs = sample.length >> 1;
  if (pairs < 4) return false;
  let ascii = 0;
  for (let index = 0; index < pairs; index++) {
    if (sample[2 * index] !== 0 && sample[2 * index + 1] === 0) ascii++;
  }
  return ascii >= pairs * 0.9;
}

function codeUnits(bytes: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): Uint16Array {
  const units = new Uint16Array(bytes.length >> 1);
  for (let index = 0; index < units.length; index++) {
    const a = bytes[2 * index] as number;
    const b = bytes[2 * index + 1] as number;
    units[index] = encoding === 'utf-16le' ? a | (b << 8) : (a << 8) | b;
  }
  return units;
}

/** Thrown by a strict UTF-8 decoder when the bytes turn out not to be UTF-8 after all. */
export class NotUtf8Error extends Error {
  constructor() {
    super('the bytes are not valid UTF-8');
    this.name = 'NotUtf8Error';
  }
}

/** Decodes a stream of chunks; `strict` UTF-8 throws NotUtf8Error on invalid bytes (auto-detection falls back). */
export class ChunkDecoder {
  readonly #encoding: TextEncodingName;
  readonly #decoder: TextDecoder | undefined;
  readonly #strict: boolean;
  #oddByte: number | undefined; // UTF-16BE: a byte waiting for its pair

  constructor(encoding: TextEncodingName, strict: boolean) {
    this.#encoding = encoding;
    this.#strict = strict;
    this.#decoder =
      encoding === 'latin1'
        ? undefined // TextDecoder's "latin1" is windows-1252; Buffer's is ISO-8859-1
        : new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'utf-16le', { fatal: strict, ignoreBOM: true });
  }

  write(chunk: Uint8Array): string {
    return this.#decode(chunk, true);
  }

  end(): string {
    return this.#decode(new Uint8Array(0), false);
  }

  #decode(chunk: Uint8Array, stream: boolean): string {
    if (this.#decoder === undefined) return Buffer.from(chunk).toString('latin1');
    const bytes = this.#encoding === 'utf-16be' ? this.#swap(chunk, stream) : chunk;
    try {
      return this.#decoder.decode(bytes, { stream });
    } catch (error) {
      if (this.#strict && error instanceof TypeError) throw new NotUtf8Error();
      throw error;
    }
  }

  /** UTF-16BE → UTF-16LE, carrying an odd trailing byte to the next chunk. */
  #swap(chunk: Uint8Array, stream: boolean): Uint8Array {
    const input = this.#oddByte === undefined ? chunk : Buffer.concat([Uint8Array.of(this.#oddByte), chunk]);
    const even = input.length & ~1;
    this.#oddByte = even < input.length ? (input[even] as number) : undefined;
    const output = new Uint8Array(stream || this.#oddByte === undefined ? even : even + 2);
    for (let index = 0; index < even; index += 2) {
      output[index] = input[index + 1] as number;
      output[index + 1] = input[index] as number;
    }
    if (!stream && this.#oddByte !== undefined) {
      output[even] = 0xfd; // a lone final byte: U+FFFD, as a decoder would give
      output[even + 1] = 0xff;
      this.#oddByte = undefined;
    }
    return output;
  }
}

/**
 * Decodes a whole buffer (after its BOM) at once, faster than the chunked path; `strict` UTF-8 returns undefined for
 * bytes that are not UTF-8, so the caller can fall back to latin1.
 */
export function decodeWhole(body: Buffer, encoding: TextEncodingName, strict: boolean): string | undefined {
  switch (encoding) {
    case 'utf-8':
      return strict && !isUtf8(body) ? undefined : body.toString('utf8');
    case 'utf-16le':
      return body.toString('utf16le');
    case 'utf-16be': {
      const swapped = Buffer.from(body.subarray(0, body.length & ~1));
      return swapped.swap16().toString('utf16le');
    }
    case 'latin1':
      return body.toString('latin1');
  }
}
