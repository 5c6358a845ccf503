// Splits an expression into tokens on demand, so that the first mistake in reading order is the one reported.

import { CALC_LIMITS, CalcError } from './calc-error.js';

export type Operator = '+' | '-' | '*' | '/' | '%' | '**';

/** `position` counts characters from 1, as the messages do. */
export type Token =
  | { type: 'number'; value: number; text: string; position: number }
  | { type: 'name'; text: string; position: number }
  | { type: 'operator'; text: Operator; position: number }
  | { type: '(' | ')'; text: string; position: number }
  | { type: 'end'; text: string; position: number };

const OVERFLOW = 'overflows (exceeds ±1.8e308)';

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
const isNameStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isNamePart = (c: number): boolean => isNameStart(c) || isDigit(c);
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;
const DOT = 46;

/** What a character the calculator does not know most likely meant, when there is a usual answer. */
const HINTS: Readonly<Record<string, string>> = {
  '^': 'for powers write ** (2**3 = 8)',
  ',': 'every function takes one argument; write decimals with a point (1.5) and numbers without thousands separators',
  '×': 'for multiplication write *',
  '÷': 'for division write /',
  '=': 'give only the expression to calculate, without "="',
};

export class Tokenizer {
  readonly #source: string;
  #index = 0;
  #count = 0;
  #peeked: Token | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  peek(): Token {
    this.#peeked ??= this.#read();
    return this.#peeked;
  }

  next(): Token {
    const token = this.peek();
    this.#peeked = undefined;
    return token;
  }

  #read(): Token {
    const source = this.#source;
    while (this.#index < source.length && isSpace(source.charCodeAt(this.#index))) this.#index++;
    const start = this.#index;
    const position = start + 1;
    if (start >= source.length) return { type: 'end', text: '', position };
    if (++this.#count > CALC_LIMITS.maxTokens) {
      throw new CalcError(
        `the expression has more than ${CALC_LIMITS.maxTokens} tokens (numbers, names, operators and parentheses) at position ${position}; split it into smaller calculations`,
        position,
      );
    }
    const c = source.charCodeAt(start);
    if (isDigit(c) || (c === DOT && isDigit(source.charCodeAt(start + 1)))) return this.#number(start);
    if (isNameStart(c)) {
      let end = start + 1;
      while (end < source.length && isNamePart(source.charCodeAt(end))) end++;
      this.#index = end;
      return { type: 'name', text: source.slice(start, end), position };
    }
    const char = String.fromCodePoint(source.codePointAt(start) ?? c);
    this.#index = start + char.length;
    switch (char) {
      case '(':
      case ')':
        return { type: char, text: char, position };
      case '*':
        if (source.charCodeAt(start + 1) === 42) {
          this.#index++;
          return { type: 'operator', text: '**', position };
        }
        return { type: 'operator', text: '*', position };
      case '+':
      case '-':
      case '/':
      case '%':
        return { type: 'operator', text: char, position };
    }
    const hint = HINTS[char] ?? 'use numbers, + - * / % ** and parentheses';
    throw new CalcError(
      `unexpected character ${JSON.stringify(char)} at position ${position}; ${hint}`,
      position,
    );
  }

  /** 42, 3.14, 5., .5, 1e3, 2.5E-3. Anything glued on (2pi, 1.2.3, 1e) makes the whole run a malformed number. */
  #number(start: number): Token {
    const source = this.#source;
    let end = start;
    while (isDigit(source.charCodeAt(end))) end++;
    if (source.charCodeAt(end) === DOT) {
      end++;
      while (isDigit(source.charCodeAt(end))) end++;
    }
    const e = source.charCodeAt(end);
    if (e === 101 || e === 69) {
      let digits = end + 1;
      const sign = source.charCodeAt(digits);
      if (sign === 43 || sign === 45) digits++;
      if (isDigit(source.charCodeAt(digits))) {
        end = digits;
        while (isDigit(source.charCodeAt(end))) end++;
      }
    }
    const position = start + 1;
    const after = source.charCodeAt(end);
    if (isNamePart(after) || after === DOT) {
      let stop = end;
      while (stop < source.length && (isNamePart(source.charCodeAt(stop)) || source.charCodeAt(stop) === DOT))
        stop++;
      throw new CalcError(
        `malformed number ${JSON.stringify(source.slice(start, stop))} at position ${position}; numbers look like 42, 3.14, .5 or 1e3, and multiplication needs * (2*pi)`,
        position,
      );
    }
    const text = source.slice(start, end);
    const value = Number(text);
    if (!Number.isFinite(value)) {
      throw new CalcError(`the number ${text} at position ${position} ${OVERFLOW}`, position);
    }
    this.#index = end;
    return { type: 'number', value, text, position };
  }
}
