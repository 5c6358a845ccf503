// The shared walk over a launcher's arguments (threat C8 supply-chain findings): options are skipped (with their
// values, for the options known to take one), the values of chosen options are collected, and the first positional
// word is found.

/** One word of the command line and its index in the upstream's args (-1: the command itself). */
export interface Word {
  text: string;
  index: number;
}

/** A problem with one spec: what was given and how to pin it. */
export interface Unpinned {
  word: Word;
  detail: string;
}

/** What a launcher fetches unpinned: the launcher as written (`npm exec`), the finding's rule, the specs. */
export interface Launch {
  tool: string;
  rule: 'unpinned-package' | 'unpinned-image';
  unpinned: Unpinned[];
}

export interface OptionSpec {
  /** Long and short options that take a value (`--package x`, `--package=x`, `-p x`, `-px`). */
  values: ReadonlySet<string>;
  /** Short options that take no value even where `values` lists them (a flag in one launcher, valued in another). */
  shortFlags?: ReadonlySet<string>;
  /** The options whose values are collected (spelled as in `values`). */
  collect?: ReadonlySet<string>;
}

export interface Walked {
  /** Values of the collected options, in order, with the option that gave each. */
  collected: Array<Word & { option: string }>;
  /** The first positional word (after `--` when there is one), if any, and the words after it. */
  positional: Word | undefined;
  rest: Word[];
}

/** Walks `words` as a parser of GNU-style options would, stopping at the first positional word. */
export function walkOptions(words: readonly Word[], spec: OptionSpec): Walked {
  const collected: Walked['collected'] = [];
  const keep = (option: string, word: Word | undefined): void => {
    if (word !== undefined && spec.collect?.has(option) === true) collected.push({ ...word, option });
  };
  for (let i = 0; i < words.length; i++) {
    const word = words[i] as Word; // i < length
    const text = word.text;
    if (text === '--') {
      return { collected, positional: words[i + 1], rest: words.slice(i + 2) };
    }
    if (text.startsWith('--')) {
      const equals = text.indexOf('=');
      if (equals > 0) {
        keep(text.slice(0, equals), { text: text.slice(equals + 1), index: word.index });
      } else if (spec.values.has(text)) {
        keep(text, words[i + 1]);
        i++;
      }
      continue;
    }
    if (text.startsWith('-') && text.length > 1) {
      // A cluster of short options: flags until one that takes a value, which takes the rest or the next word.
      for (let at = 1; at < text.length; at++) {
        const option = `-${text[at] ?? ''}`;
        if (spec.shortFlags?.has(option) === true || !spec.values.has(option)) continue;
        const attached = text.slice(at + 1).replace(/^=/, '');
        if (attached !== '') keep(option, { text: attached, index: word.index });
        else {
          keep(option, words[i + 1]);
          i++;
        }
        break;
      }
      continue;
    }
    return { collected, positional: word, rest: words.slice(i + 1) };
  }
  return { collected, positional: undefined, rest: [] };
}
