// Server pins shown to an admin (threat C8 consent): a command line quoted as a POSIX shell needs it, with every
// control or invisible character escaped ($'\x1b', $'\u202e'), so what is approved is what is read; and inert JSON.

import { UNSAFE_CHARACTER } from '../../policy/sanitise/characters.js';

const UNSAFE = new RegExp(UNSAFE_CHARACTER, 'u');
const UNSAFE_ALL = new RegExp(UNSAFE_CHARACTER, 'gu');
const BARE = /^[\w./:=@%+,-]+$/;

const hex = (code: number, width: number): string => code.toString(16).padStart(width, '0');

/** One character inside $'…' as bash and zsh read it back. */
function ansiC(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\\') return '\\\\';
  if (char === "'") return "\\'";
  if (char === '\n') return '\\n';
  if (char === '\t') return '\\t';
  if (char === '\r') return '\\r';
  if (code < 0x20 || code === 0x7f) return `\\x${hex(code, 2)}`;
  if (!UNSAFE.test(char)) return char;
  return code > 0xffff ? `\\U${hex(code, 8)}` : `\\u${hex(code, 4)}`;
}

/**
 * One word as a POSIX shell reads it back: bare when it is only safe characters, '…' otherwise, and $'…' (with every
 * control and invisible character escaped) when it holds any. `first`: the command word, where NAME=VALUE would be
 * read as an assignment, so '=' is quoted there.
 */
export function shellWord(word: string, first = false): string {
  if (BARE.test(word) && !(first && word.includes('='))) return word;
  if (UNSAFE.test(word)) return `$'${Array.from(word, ansiC).join('')}'`;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line of words, each quoted as needed. */
export function shellLine(words: readonly string[]): string {
  return words.map((word, index) => shellWord(word, index === 0)).join(' ');
}

/** Text for one log line: every control or invisible character as \xHH, \uHHHH or \U{…}, newlines included. */
export function visibleLine(text: string): string {
  return text.replace(UNSAFE_ALL, (char) => {
    const code = char.codePointAt(0) ?? 0;
    return code < 0x100
      ? `\\x${hex(code, 2)}`
      : code > 0xffff
        ? `\\U{${hex(code, 6)}}`
        : `\\u${hex(code, 4)}`;
  });
}

/** JSON.stringify whose text holds no control or invisible character raw (only indentation newlines): parses back unchanged. */
export function inertJson(value: unknown, space?: number): string {
  const text = JSON.stringify(value, null, space) ?? 'null';
  return text.replace(UNSAFE_ALL, (match) => {
    if (match === '\n') return match;
    let escaped = '';
    for (let i = 0; i < match.length; i++) escaped += `\\u${hex(match.charCodeAt(i), 4)}`;
    return escaped;
  });
}
