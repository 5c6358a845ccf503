// Splits a server command line into words the way a POSIX shell does, without running or expanding anything.

/**
 * Splits `line` into words with POSIX shell quoting: whitespace separates words; `'…'` keeps everything literal;
 * `"…"` keeps everything literal except `\` before `\ " $` and a backquote (which is dropped) and `\` before a
 * newline (both dropped); outside quotes `\x` is a literal `x` and `\` + newline joins lines. Nothing is expanded:
 * `$HOME`, `~`, `*.js`, `#`, `;`, `|` and `&&` are ordinary characters of a word. `''` and `""` make an empty
 * word. Throws on an unterminated quote, because guessing where the user meant it to end starts the wrong program.
 */
export function parseCommandLine(line: string): string[] {
  const words: string[] = [];
  let word = '';
  /** True once the current word has begun, even if it is still empty (`''` is a word). */
  let inWord = false;
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === ' ' || c === '\t' || c === '\n') {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i++;
      continue;
    }
    if (c === '\\' && line.charAt(i + 1) === '\n') {
      // Backslash-newline is a line continuation: both characters vanish and the word (if any) goes on.
      i += 2;
      continue;
    }
    inWord = true;
    if (c === "'") {
      const end = line.indexOf("'", i + 1);
      if (end === -1) throw new Error(unterminated("'", i));
      word += line.slice(i + 1, end);
      i = end + 1;
    } else if (c === '"') {
      const [text, next] = readDoubleQuoted(line, i);
      word += text;
      i = next;
    } else if (c === '\\') {
      // A backslash at the very end has nothing to escape; a shell keeps it.
      word += i + 1 < line.length ? line.charAt(i + 1) : '\\';
      i += 2;
    } else {
      word += c;
      i++;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** Reads a `"…"` section starting at the opening quote; returns its text and the index after the closing quote. */
function readDoubleQuoted(line: string, open: number): [string, number] {
  let text = '';
  let i = open + 1;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === '"') return [text, i + 1];
    if (c === '\\' && i + 1 < line.length) {
      const next = line.charAt(i + 1);
      if (next === '\\' || next === '"' || next === '$' || next === '`') {
        text += next;
        i += 2;
        continue;
      }
      if (next === '\n') {
        i += 2;
        continue;
      }
    }
    text += c;
    i++;
  }
  throw new Error(unterminated('"', open));
}

const unterminated = (quote: string, at: number): string =>
  `invalid command line: the ${quote === "'" ? 'single' : 'double'} quote at position ${at + 1} is never closed`;
