// The percent-encoding of the gateway's escaped URI form: reversible for any JavaScript string, lone surrogates too.

/** One character of RFC 3986 (unreserved or reserved). */
const URI_CHARACTER = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]$/;
/** URI characters and well-formed %HH only: what any URI, and any RFC 6570 expansion, is made of. */
const URI_CHARACTERS = /^(?:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})*$/;

/** Whether a string is made of URI characters only (it is then kept verbatim inside a gateway URI). */
export const hasUriCharactersOnly = (text: string): boolean => URI_CHARACTERS.test(text);

/** Kept as they are by escape(): allowed anywhere in a path or query, so the escaped form is always a valid URI. */
const KEPT = /[A-Za-z0-9\-._~!$&'()*+,;=:@/?]/;

const hex = (byte: number): string => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;

/** UTF-8 bytes of one code point; a lone surrogate gets the 3-byte form it would have (WTF-8), so nothing is lost. */
function utf8(code: number): number[] {
  if (code < 0x80) return [code];
  if (code < 0x800) return [0xc0 | (code >> 6), 0x80 | (code & 0x3f)];
  if (code < 0x10000) return [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)];
  return [
    0xf0 | (code >> 18),
    0x80 | ((code >> 12) & 0x3f),
    0x80 | ((code >> 6) & 0x3f),
    0x80 | (code & 0x3f),
  ];
}

/** Percent-encodes everything but the KEPT characters ("%" included, so decoding is exact), upper-case hex. */
export function escapeUri(text: string): string {
  let out = '';
  for (const char of text) {
    if (KEPT.test(char)) out += char;
    else for (const byte of utf8(char.codePointAt(0) ?? 0)) out += hex(byte);
  }
  return out;
}

/**
 * A URI template with the characters of its literal parts that RFC 6570 would percent-encode on expansion (space,
 * non-ASCII, controls, quotes, angle brackets, a "%" not starting %HH) encoded already. A conforming expander gives the same URI for
 * both; an expander that copies literals as they are (the official SDK's does) now gives a valid URI too.
 * Expressions, and an unclosed "{" with what follows, are kept exactly.
 */
export function escapeTemplateLiterals(template: string): string {
  let out = '';
  let literal = true;
  const lastClose = template.lastIndexOf('}'); // one scan, so a run of "{" costs linear time
  for (let i = 0; i < template.length;) {
    const char = String.fromCodePoint(template.codePointAt(i) ?? 0);
    if (char === '{' && i < lastClose) literal = false;
    if (!literal || char === '{' || char === '}' || URI_CHARACTER.test(char)) out += char;
    else if (char === '%' && /^[0-9A-Fa-f]{2}$/.test(template.slice(i + 1, i + 3))) out += char;
    else for (const byte of utf8(char.codePointAt(0) ?? 0)) out += hex(byte);
    if (char === '}') literal = true;
    i += char.length;
  }
  return out;
}

/** Decodes %HH (and bare ASCII) back to a string; undefined when it is not well-formed. Callers re-escape to check. */
export function unescapeUri(text: string): string | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x25) {
      const pair = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(pair)) return undefined;
      bytes.push(Number.parseInt(pair, 16));
      i += 2;
    } else if (code < 0x80) bytes.push(code);
    else return undefined;
  }
  let out = '';
  for (let i = 0; i < bytes.length;) {
    const lead = bytes[i] as number;
    // Lead byte → sequence length; a stray continuation byte or 0xF8..0xFF starts nothing.
    const size = lead < 0x80 ? 1 : lead < 0xc0 || lead >= 0xf8 ? 0 : lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
    if (size === 0 || i + size > bytes.length) return undefined;
    let code = size === 1 ? lead : lead & (0xff >> (size + 1));
    for (let k = 1; k < size; k++) {
      const next = bytes[i + k] as number;
      if ((next & 0xc0) !== 0x80) return undefined;
      code = (code << 6) | (next & 0x3f);
    }
    if (code > 0x10ffff) return undefined;
    out += String.fromCodePoint(code);
    i += size;
  }
  return out;
}
