// Git-style glob patterns (as in .gitignore), matched without backtracking so hostile patterns cannot stall a walk.

type Token =
  | { kind: 'char'; char: string }
  | { kind: 'any' } // ?
  | { kind: 'class'; negated: boolean; ranges: readonly (readonly [string, string])[] } // [a-z]
  | { kind: 'star' } // *: anything but "/"
  | { kind: 'globstar' } // a trailing /**: anything, "/" included
  | { kind: 'dirs' }; // **/ : nothing, or whole directories ("a/", "a/b/")

/** POSIX bracket classes that git's wildmatch knows, as ranges. */
const POSIX_CLASSES: Readonly<Record<string, readonly (readonly [string, string])[]>> = {
  alnum: [
    ['a', 'z'],
    ['A', 'Z'],
    ['0', '9'],
  ],
  alpha: [
    ['a', 'z'],
    ['A', 'Z'],
  ],
  digit: [['0', '9']],
  lower: [['a', 'z']],
  upper: [['A', 'Z']],
  space: [
    [' ', ' '],
    ['\t', '\r'],
  ],
  xdigit: [
    ['0', '9'],
    ['a', 'f'],
    ['A', 'F'],
  ],
  punct: [
    ['!', '/'],
    [':', '@'],
    ['[', '`'],
    ['{', '~'],
  ],
};

/** Parses "[...]" starting at `start` (the "["); undefined when it is not closed (then "[" is an ordinary character). */
function parseClass(pattern: string, start: number): { token: Token; end: number } | undefined {
  let index = start + 1;
  const negated = pattern[index] === '!' || pattern[index] === '^';
  if (negated) index++;
  const ranges: (readonly [string, string])[] = [];
  let first = true;
  while (index < pattern.length) {
    const char = pattern[index] as string;
    if (char === ']' && !first) return { token: { kind: 'class', negated, ranges }, end: index + 1 };
    first = false;
    if (char === '[' && pattern[index + 1] === ':') {
      const close = pattern.indexOf(':]', index + 2);
      const named = close === -1 ? undefined : POSIX_CLASSES[pattern.slice(index + 2, close)];
      if (named !== undefined) {
        ranges.push(...named);
        index = close + 2;
        continue;
      }
    }
    let low = char;
    if (char === '\\' && index + 1 < pattern.length) low = pattern[++index] as string;
    index++;
    if (pattern[index] === '-' && index + 1 < pattern.length && pattern[index + 1] !== ']') {
      let high = pattern[index + 1] as string;
      index += 2;
      if (high === '\\' && index < pattern.length) high = pattern[index++] as string;
      ranges.push([low, high]);
    } else ranges.push([low, low]);
  }
  return undefined;
}

export class Glob {
  readonly #tokens: readonly Token[];
  /** Set when the pattern has no wildcards: matching is string equality. */
  readonly #literal: string | undefined;

  constructor(pattern: string) {
    this.#tokens = Glob.#tokenize(pattern);
    this.#literal = this.#tokens.every((token) => token.kind === 'char')
      ? this.#tokens.map((token) => (token as { char: string }).char).join('')
      : undefined;
  }

  static #tokenize(pattern: string): Token[] {
    const tokens: Token[] = [];
    let index = 0;
    while (index < pattern.length) {
      const char = pattern[index] as string;
      if (char === '\\') {
        if (index + 1 < pattern.length) tokens.push({ kind: 'char', char: pattern[index + 1] as string });
        index += 2;
      } else if (char === '*') {
        let end = index;
        while (pattern[end] === '*') end++;
        const atSegmentStart = index === 0 || pattern[index - 1] === '/';
        if (end - index >= 2 && atSegmentStart && end === pattern.length) {
          tokens.push({ kind: 'globstar' });
        } else if (end - index >= 2 && atSegmentStart && pattern[end] === '/') {
          tokens.push({ kind: 'dirs' });
          end++;
        } else if (tokens.at(-1)?.kind !== 'star') tokens.push({ kind: 'star' });
        index = end;
      } else if (char === '?') {
        tokens.push({ kind: 'any' });
        index++;
      } else if (char === '[') {
        const parsed = parseClass(pattern, index);
        if (parsed === undefined) {
          tokens.push({ kind: 'char', char });
          index++;
        } else {
          tokens.push(parsed.token);
          index = parsed.end;
        }
      } else {
        tokens.push({ kind: 'char', char });
        index++;
      }
    }
    return tokens;
  }

  /**
   * Whether the whole of `subject` matches. A set of reachable positions is carried through the tokens, so the cost
   * is (tokens × length) whatever the pattern, never exponential.
   */
  matches(subject: string): boolean {
    if (this.#literal !== undefined) return subject === this.#literal;
    const length = subject.length;
    let current = new Uint8Array(length + 1);
    let next = new Uint8Array(length + 1);
    current[0] = 1;
    for (const token of this.#tokens) {
      next.fill(0);
      let any = false;
      if (token.kind === 'star' || token.kind === 'globstar') {
        let open = false;
        for (let end = 0; end <= length; end++) {
          if (current[end] === 1) open = true;
          if (open) {
            next[end] = 1;
            any = true;
          }
          if (token.kind === 'star' && subject[end] === '/') open = false;
        }
      } else if (token.kind === 'dirs') {
        let seen = false;
        for (let end = 0; end <= length; end++) {
          if (current[end] === 1 || (seen && subject[end - 1] === '/')) {
            next[end] = 1;
            any = true;
          }
          if (current[end] === 1) seen = true;
        }
      } else {
        for (let at = 0; at < length; at++) {
          if (current[at] === 1 && Glob.#single(token, subject[at] as string)) {
            next[at + 1] = 1;
            any = true;
          }
        }
      }
      if (!any) return false;
      [current, next] = [next, current];
    }
    return current[length] === 1;
  }

  static #single(token: Token, char: string): boolean {
    switch (token.kind) {
      case 'char':
        return char === token.char;
      case 'any':
        return char !== '/';
      case 'class':
        return (
          char !== '/' && token.ranges.some(([low, high]) => char >= low && char <= high) !== token.negated
        );
      default:
        return false;
    }
  }
}
