// A parser for JavaScript regular expressions as Ajv runs them (`new RegExp(pattern, 'u')`), into the few shapes the
// backtracking check needs. It assumes the pattern already compiled (so the u-mode grammar holds) and refuses the
// constructs the check does not model.

import { ANY, DIGIT, DOT, SPACE, WORD, complement, single, union, type CharSet } from './char-set.js';

export type RegexNode =
  | { kind: 'char'; set: CharSet }
  | { kind: 'start' }
  | { kind: 'end' }
  /** \b and \B: zero width, and they may fail (so a match cannot be taken to end before one). */
  | { kind: 'boundary' }
  | { kind: 'seq'; items: RegexNode[] }
  | { kind: 'alt'; options: RegexNode[] }
  | { kind: 'repeat'; body: RegexNode; min: number; max: number }
  | { kind: 'lookahead'; body: RegexNode };

/** Thrown for what the check does not accept; the message completes "the pattern has …". */
export class RegexRefusal extends Error {}

/** Nesting of groups the parser follows (its recursion is bounded by this). */
const MAX_GROUP_DEPTH = 32;

const SYNTAX = new Set([...'^$\\.*+?()[]{}|/']);
const CONTROL_ESCAPES: Readonly<Record<string, number>> = { f: 0x0c, n: 0x0a, r: 0x0d, t: 0x09, v: 0x0b };

export function parseRegex(pattern: string): RegexNode {
  const chars = [...pattern];
  let at = 0;
  const peek = (offset = 0): string | undefined => chars[at + offset];
  const next = (): string => {
    const char = chars[at++];
    if (char === undefined) throw new RegexRefusal('an unexpected end');
    return char;
  };
  const eat = (text: string): boolean => {
    if (chars.slice(at, at + text.length).join('') !== text) return false;
    at += text.length;
    return true;
  };
  const hex = (count: number): number => {
    let text = '';
    for (let i = 0; i < count; i++) text += next();
    return Number.parseInt(text, 16);
  };

  /** After a backslash: a character escape (shared by classes and atoms). */
  const characterEscape = (char: string): number => {
    const control = CONTROL_ESCAPES[char];
    if (control !== undefined) return control;
    if (char === 'c') return (next().codePointAt(0) ?? 0) % 32;
    if (char === '0') return 0;
    if (char === 'x') return hex(2);
    if (char === 'u') {
      if (eat('{')) {
        let text = '';
        while (peek() !== '}') text += next();
        next();
        return Number.parseInt(text, 16);
      }
      const high = hex(4);
      if (high >= 0xd800 && high <= 0xdbff && peek() === '\\' && peek(1) === 'u' && peek(2) !== '{') {
        const save = at;
        at += 2;
        const low = hex(4);
        if (low >= 0xdc00 && low <= 0xdfff) return (high - 0xd800) * 0x400 + (low - 0xdc00) + 0x10000;
        at = save;
      }
      return high;
    }
    return char.codePointAt(0) ?? 0; // an identity escape of a syntax character or '/', or '-' in a class
  };

  /** \d \D \s \S \w \W \p{…} \P{…}, or undefined for another escape. */
  const classEscape = (char: string): CharSet | undefined => {
    switch (char) {
      case 'd':
        return DIGIT;
      case 'D':
        return complement(DIGIT);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD);
      case 'p':
      case 'P':
        // A Unicode property: its exact set is not needed, "any character" only over-estimates overlaps.
        while (next() !== '}');
        return ANY;
      default:
        return undefined;
    }
  };

  const classAtom = (): CharSet => {
    const char = next();
    if (char !== '\\') return single(char.codePointAt(0) ?? 0);
    const escaped = next();
    if (escaped === 'b') return single(0x08);
    return classEscape(escaped) ?? single(characterEscape(escaped));
  };

  const characterClass = (): CharSet => {
    const negated = eat('^');
    const parts: CharSet[] = [];
    while (peek() !== ']') {
      const from = classAtom();
      if (peek() === '-' && peek(1) !== ']' && peek(1) !== undefined) {
        next();
        const to = classAtom();
        const lo = from[0]?.[0] ?? 0;
        const hi = to[0]?.[1] ?? 0;
        parts.push(from.length === 1 && to.length === 1 ? [[lo, hi]] : union(from, to, single(0x2d)));
      } else parts.push(from);
    }
    next();
    const set = union(...parts);
    return negated ? complement(set) : set;
  };

  const quantifier = (): { min: number; max: number } | undefined => {
    const char = peek();
    let bounds: { min: number; max: number } | undefined;
    if (char === '*') bounds = { min: 0, max: Infinity };
    else if (char === '+') bounds = { min: 1, max: Infinity };
    else if (char === '?') bounds = { min: 0, max: 1 };
    else if (char === '{') {
      const match = /^\{(\d+)(,(\d*))?\}/.exec(chars.slice(at, at + 24).join(''));
      if (match === null) return undefined;
      const min = Number(match[1]);
      const max = match[2] === undefined ? min : match[3] === '' ? Infinity : Number(match[3]);
      at += match[0].length - 1;
      bounds = { min, max };
    }
    if (bounds === undefined) return undefined;
    next();
    eat('?'); // lazy or greedy: the same choices, tried in another order
    return bounds;
  };

  const group = (depth: number): RegexNode => {
    if (depth > MAX_GROUP_DEPTH) throw new RegexRefusal(`groups nested deeper than ${MAX_GROUP_DEPTH}`);
    if (eat('?:')) return disjunction(depth);
    if (eat('?=') || eat('?!')) return { kind: 'lookahead', body: disjunction(depth) };
    if (eat('?<=') || eat('?<!')) throw new RegexRefusal('a lookbehind');
    if (eat('?<')) while (next() !== '>');
    else if (peek() === '?') throw new RegexRefusal('a group syntax the check does not know');
    return disjunction(depth);
  };

  const atom = (depth: number): RegexNode => {
    const char = next();
    switch (char) {
      case '^':
        return { kind: 'start' };
      case '$':
        return { kind: 'end' };
      case '.':
        return { kind: 'char', set: DOT };
      case '[':
        return { kind: 'char', set: characterClass() };
      case '(': {
        const body = group(depth + 1);
        next(); // ')'
        return body;
      }
      case '\\': {
        const escaped = next();
        if (escaped === 'b' || escaped === 'B') return { kind: 'boundary' };
        if (escaped === 'k' || /[1-9]/.test(escaped)) throw new RegexRefusal('a backreference');
        const set = classEscape(escaped);
        return { kind: 'char', set: set ?? single(characterEscape(escaped)) };
      }
      default:
        if (SYNTAX.has(char) && char !== '/' && char !== ']' && char !== '}')
          throw new RegexRefusal(`an unexpected ${JSON.stringify(char)}`);
        return { kind: 'char', set: single(char.codePointAt(0) ?? 0) };
    }
  };

  const alternative = (depth: number): RegexNode => {
    const items: RegexNode[] = [];
    while (peek() !== undefined && peek() !== '|' && peek() !== ')') {
      const body = atom(depth);
      const bounds = quantifier();
      items.push(bounds === undefined ? body : { kind: 'repeat', body, ...bounds });
    }
    return items.length === 1 && items[0] !== undefined ? items[0] : { kind: 'seq', items };
  };

  function disjunction(depth: number): RegexNode {
    const options = [alternative(depth)];
    while (eat('|')) options.push(alternative(depth));
    return options.length === 1 && options[0] !== undefined ? options[0] : { kind: 'alt', options };
  }

  const root = disjunction(0);
  if (at !== chars.length) throw new RegexRefusal(`an unexpected ${JSON.stringify(peek())}`);
  return root;
}
