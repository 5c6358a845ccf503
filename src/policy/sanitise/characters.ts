// The character classes of threat E1, in one table for everything that shows a server's text: the output cleaner
// removes these characters, the CLI's terminal text shows them as visible stand-ins (src/cli/terminal-text.ts).

/** A whole emoji tag sequence (a subdivision flag such as 🏴󠁧󠁢󠁳󠁣󠁴󠁿): kept, so the tag characters inside it are spared. */
export const FLAG_TAG_SEQUENCE = String.raw`\u{1F3F4}[\u{E0020}-\u{E007E}]+\u{E007F}`;

/**
 * One character that must not reach a terminal or a model as it is: C0 and C1 controls and DEL (Cc: newline and tab
 * are for callers to spare), format characters (Cf: bidi overrides and isolates, zero-width space, joiners, word
 * joiner, BOM, soft hyphen, invisible tags that can spell out hidden instructions…), lone surrogates (Cs), the line
 * and paragraph separators, and the blank "filler" letters used to fake empty text.
 */
export const UNSAFE_CHARACTER = String.raw`[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]|\u034F|\u17B4|\u17B5`;

/** The same set as one class without newline and tab: a quick test whether a text needs any work at all. */
export const UNSAFE_EXCEPT_NEWLINE_TAB = String.raw`[\x00-\x08\x0B-\x1F\x7F-\x9F\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0\u034F\u17B4\u17B5]`;

/**
 * Terminal escape sequences, removed whole so their parameters do not linger as noise: CSI (`ESC [ … final`, colours,
 * cursor moves, screen clears), OSC (`ESC ] … BEL|ST`: window titles, OSC 8 hyperlinks, OSC 52 clipboard writes),
 * DCS/SOS/PM/APC strings, their 8-bit C1 forms (U+009B, U+009D, U+0090…), and two-character escapes (`ESC c`,
 * `ESC ( B`). An unterminated string loses only its introducer: what follows is inert text then. A string's body stops
 * at its terminator, ESC, or (8-bit forms) the next introducer, so no character is scanned twice by one kind of
 * attempt and matching stays linear (a body that ran on over other introducers was quadratic: see characters.test).
 */
export const ESCAPE_SEQUENCE =
  String.raw`\x1B\[[0-?]*[ -/]*[@-~]` +
  String.raw`|\x1B[\]PX^_][^\x07\x1B\x9C]*(?:\x07|\x1B\\|\x9C)` +
  String.raw`|\x9B[0-?]*[ -/]*[@-~]` +
  String.raw`|[\x90\x98\x9D\x9E\x9F][^\x07\x1B\x90\x98\x9C-\x9F]*(?:\x07|\x1B\\|\x9C)` +
  String.raw`|\x1B[ -/]*[0-~]`;

const EMOJI_BEFORE = /(?:\p{Extended_Pictographic}|\uFE0F|\p{Emoji_Modifier})$/u;
const EMOJI_AFTER = /^\p{Extended_Pictographic}/u;

/**
 * Whether the zero-width joiner at `offset` joins two emoji (👩‍💻, 🏳️‍🌈): kept there, as it is part of one picture.
 * Elsewhere it is an invisible character like any other and goes.
 */
export function joinsEmoji(whole: string, offset: number): boolean {
  return (
    EMOJI_BEFORE.test(whole.slice(Math.max(0, offset - 2), offset)) &&
    EMOJI_AFTER.test(whole.slice(offset + 1, offset + 3))
  );
}
