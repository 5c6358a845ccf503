// Text a server chose, made safe for a terminal (threat E1): escapes, controls, bidi overrides and invisible characters
// are replaced by visible stand-ins, so nothing can retitle the window, write the clipboard, hide or reorder text.
//
// The convention, one rule per kind of character:
//   C0 controls and DEL  → their Unicode "control pictures": ESC → ␛, BEL → ␇, CR → ␍, NUL → ␀, DEL → ␡
//                          (so `\x1b]0;title\x07` prints as `␛]0;title␇`: visible and inert)
//   everything else      → `<U+XXXX>`: C1 controls U+0080–U+009F, bidi controls (U+061C, U+200E, U+200F,
//                          U+202A–U+202E, U+2066–U+2069), zero-width and other format characters (Unicode Cf:
//                          U+200B–U+200D, U+2060–U+2064, U+FEFF, soft hyphen, tags…), U+2028/U+2029, lone
//                          surrogates, and the blank "filler" letters used to fake empty names (U+115F, U+1160,
//                          U+3164, U+FFA0, U+034F, U+17B4, U+17B5)
// Kept as they are: newline and tab (in multi-line text), CR before LF (dropped: a CRLF line end is a line end), a
// zero-width joiner between two emoji (👩‍💻) and an emoji flag's tag sequence (🏴󠁧󠁢󠁳󠁣󠁴󠁿), and all printable text (CJK, emoji).
// In JSON the same characters become \u escapes instead: the data survives a round trip, the terminal sees only ASCII.
// The character classes are the output cleaner's (src/policy/sanitise/characters.ts): one table, two treatments.

import { FLAG_TAG_SEQUENCE, UNSAFE_CHARACTER, joinsEmoji } from '../policy/sanitise/characters.js';

const TERMINAL_PATTERN = new RegExp(`${FLAG_TAG_SEQUENCE}|\\r\\n|${UNSAFE_CHARACTER}`, 'gu');
/** The same set in JSON text, where the only raw control is the newline of indentation (stringify escapes the rest). */
const JSON_PATTERN = new RegExp(UNSAFE_CHARACTER, 'gu');

/** How one unsafe character is shown. */
function standIn(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '\u2421';
  return `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
}

function neutralise(text: string, oneLine: boolean): string {
  return text.replace(TERMINAL_PATTERN, (match: string, offset: number, whole: string): string => {
    if (match.startsWith('\u{1F3F4}')) return match; // a flag's tag sequence
    if (match === '\r\n') return oneLine ? '\u2424' : '\n';
    if (match === '\n') return oneLine ? '\u2424' : match;
    if (match === '\t') return oneLine ? '\u2409' : match;
    if (match === '\u200D' && joinsEmoji(whole, offset)) return match; // joins an emoji sequence such as 👩‍💻
    return standIn(match);
  });
}

/** Multi-line text for a terminal (results, error messages): newlines and tabs kept, everything unsafe made visible. */
export function terminalText(text: string): string {
  return neutralise(text, false);
}

/**
 * One line for a terminal (a name in a sentence, a table cell, a progress message): as terminalText, and newline
 * and tab are shown as ␤ and ␉ too, so a server cannot start a line of its own inside ours.
 */
export function terminalLine(text: string): string {
  return neutralise(text, true);
}

/** JSON.stringify whose text holds no character a terminal acts on or hides: the value parses back unchanged. */
export function inertJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) ?? 'null';
  return text.replace(JSON_PATTERN, (match) => {
    if (match === '\n') return match;
    let escaped = '';
    for (let i = 0; i < match.length; i++)
      escaped += `\\u${match.charCodeAt(i).toString(16).padStart(4, '0')}`;
    return escaped;
  });
}
