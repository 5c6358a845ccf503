// How many terminal columns text takes, and cutting it to fit: CJK and emoji take two, combining marks none.
// Errs wide (an emoji sequence counts each part), because a line one column too long wraps and leaves a stale row.

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\uFE00-\uFE0F\u200D]$/u;
const WIDE =
  /^[\p{Emoji_Presentation}\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F300}-\u{1F64F}\u{1F900}-\u{1F9FF}\u{20000}-\u{3FFFD}]$/u;

/** Columns one character (a code point) takes. Expects text already passed through terminalLine. */
function charWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/** `text` cut to at most `width` columns, ending in … when something was cut. */
export function fitWidth(text: string, width: number): string {
  if (width <= 0) return '';
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return `${out}…`;
}

/** `text` padded with spaces to `width` columns (never cut). */
export function padWidth(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}
