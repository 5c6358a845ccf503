// Text made safe for a model and any terminal that shows it (threat E1): escape sequences and invisible or
// controlling characters removed, everything printable left exactly as it was.

import {
  ESCAPE_SEQUENCE,
  FLAG_TAG_SEQUENCE,
  UNSAFE_CHARACTER,
  UNSAFE_EXCEPT_NEWLINE_TAB,
  joinsEmoji,
} from './characters.js';

const NEEDS_WORK = new RegExp(UNSAFE_EXCEPT_NEWLINE_TAB, 'u');
const HAS_ESCAPE = new RegExp(String.raw`[\x1B\x90\x98\x9B\x9D\x9E\x9F]`);
const ESCAPES = new RegExp(ESCAPE_SEQUENCE, 'g');
const CHARACTERS = new RegExp(`${FLAG_TAG_SEQUENCE}|\\r\\n|\\u2028|\\u2029|${UNSAFE_CHARACTER}`, 'gu');

/**
 * Removes from text: ANSI/VT escape sequences whole, C0 controls but newline and tab, a carriage return that does not
 * end a line (it lets text overwrite what came before on a terminal), DEL, C1 controls, bidi overrides and isolates,
 * zero-width characters (a joiner inside an emoji sequence stays), BOM, soft hyphen, tag characters (outside a flag),
 * lone surrogates and Hangul fillers. CRLF stays (a line end). U+2028/U+2029 become newlines.
 * Returns the same string when there was nothing to remove (the common case costs one scan).
 */
export function cleanText(text: string): string {
  if (!NEEDS_WORK.test(text)) return text;
  const unescaped = HAS_ESCAPE.test(text) ? text.replace(ESCAPES, '') : text;
  return unescaped.replace(CHARACTERS, (match: string, offset: number, whole: string): string => {
    if (match.length > 2) return match; // a flag's tag sequence
    if (match === '\r\n' || match === '\n' || match === '\t') return match;
    if (match === '\u2028' || match === '\u2029') return '\n';
    if (match === '\u200D' && joinsEmoji(whole, offset)) return match;
    return '';
  });
}
