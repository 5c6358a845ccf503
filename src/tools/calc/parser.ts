// A recursive-descent parser from tokens to a small syntax tree; it never evaluates and never calls eval.
//
//   expression := term (("+" | "-") term)*
//   term       := unary (("*" | "/" | "%") unary)*
//   unary      := ("+" | "-") unary | power          -2**2 is -(2**2), as in mathematics
//   power      := primary ("**" unary)?              right-associative: 2**3**2 is 2**(3**2)
//   primary    := number | constant | function "(" expression ")" | "(" expression ")"

import { CALC_LIMITS, CalcError } from './calc-error.js';
import { ALLOWED_NAMES, CONSTANTS, isConstantName, isFunctionName, type FunctionName } from './names.js';
import { Tokenizer, type Operator, type Token } from './tokenizer.js';

export type Node =
  | { kind: 'number'; value: number; position: number }
  | { kind: 'negate'; operand: Node; position: number }
  | { kind: 'binary'; operator: Operator; left: Node; right: Node; position: number }
  | { kind: 'call'; name: FunctionName; argument: Node; position: number };

const EXPECT_OPERAND = 'expected a number, a function, a constant or "("';
const EXPECT_OPERATOR = 'expected an operator (+ - * / % **), ")" or the end of the expression';

const describe = (token: Token): string => {
  switch (token.type) {
    case 'number':
      return `number ${token.text}`;
    case 'name':
      return `name "${token.text}"`;
    case 'end':
      return 'end of the expression';
    default:
      return `"${token.text}"`;
  }
};

/** Parses a whole expression; throws CalcError naming the first problem and its position. */
export function parse(source: string): Node {
  if (source.length > CALC_LIMITS.maxLength) {
    throw new CalcError(
      `the expression is ${source.length} characters long; the limit is ${CALC_LIMITS.maxLength}, so split it into smaller calculations`,
    );
  }
  return new Parser(source).parse();
}

class Parser {
  readonly #tokens: Tokenizer;
  #depth = 0;

  constructor(source: string) {
    this.#tokens = new Tokenizer(source);
  }

  parse(): Node {
    if (this.#tokens.peek().type === 'end') {
      throw new CalcError('the expression is empty; give an arithmetic expression such as 2*(3+4)', 1);
    }
    const node = this.#expression();
    const extra = this.#tokens.next();
    if (extra.type === ')') {
      throw new CalcError(
        `unexpected ")" at position ${extra.position}: there is no "(" to close`,
        extra.position,
      );
    }
    if (extra.type !== 'end') {
      throw new CalcError(
        `unexpected ${describe(extra)} at position ${extra.position}; ${EXPECT_OPERATOR} (multiplication needs *)`,
        extra.position,
      );
    }
    return node;
  }

  #expression(): Node {
    let left = this.#term();
    for (let token = this.#tokens.peek(); isOperator(token, '+', '-'); token = this.#tokens.peek()) {
      this.#tokens.next();
      left = { kind: 'binary', operator: token.text, left, right: this.#term(), position: token.position };
    }
    return left;
  }

  #term(): Node {
    let left = this.#unary();
    for (let token = this.#tokens.peek(); isOperator(token, '*', '/', '%'); token = this.#tokens.peek()) {
      this.#tokens.next();
      left = { kind: 'binary', operator: token.text, left, right: this.#unary(), position: token.position };
    }
    return left;
  }

  // Recursion through unary and power is bounded by the token limit (at most 500 levels).
  #unary(): Node {
    const token = this.#tokens.peek();
    if (isOperator(token, '+', '-')) {
      this.#tokens.next();
      const operand = this.#unary();
      return token.text === '-' ? { kind: 'negate', operand, position: token.position } : operand;
    }
    return this.#power();
  }

  #power(): Node {
    const base = this.#primary();
    const token = this.#tokens.peek();
    if (!isOperator(token, '**')) return base;
    this.#tokens.next();
    return { kind: 'binary', operator: '**', left: base, right: this.#unary(), position: token.position };
  }

  #primary(): Node {
    const token = this.#tokens.next();
    switch (token.type) {
      case 'number':
        return { kind: 'number', value: token.value, position: token.position };
      case 'name':
        return this.#name(token);
      case '(': {
        this.#enter(token);
        const inner = this.#inside(token, '(', token.position);
        this.#depth--;
        return inner;
      }
      case ')':
        throw new CalcError(
          `unexpected ")" at position ${token.position}; ${EXPECT_OPERAND}`,
          token.position,
        );
      case 'end':
        throw new CalcError(
          `the expression ends too early at position ${token.position}; ${EXPECT_OPERAND}`,
          token.position,
        );
      case 'operator':
        throw new CalcError(
          `unexpected "${token.text}" at position ${token.position}; ${EXPECT_OPERAND}`,
          token.position,
        );
    }
  }

  #name(token: Token & { type: 'name' }): Node {
    const name = token.text;
    if (!isConstantName(name) && !isFunctionName(name)) {
      throw new CalcError(
        `unknown name "${name}" at position ${token.position}; allowed ${ALLOWED_NAMES}`,
        token.position,
      );
    }
    const next = this.#tokens.peek();
    if (isConstantName(name)) {
      if (next.type === '(') {
        throw new CalcError(
          `"${name}" at position ${token.position} is a constant, not a function; to multiply write ${name}*(…)`,
          token.position,
        );
      }
      return { kind: 'number', value: CONSTANTS[name], position: token.position };
    }
    if (next.type !== '(') {
      throw new CalcError(
        `function "${name}" at position ${token.position} needs its argument in parentheses, for example ${name}(0.5)`,
        token.position,
      );
    }
    this.#tokens.next();
    this.#enter(token);
    const argument = this.#inside(next, `${name}(`, token.position);
    this.#depth--;
    return { kind: 'call', name, argument, position: token.position };
  }

  /** The expression inside an opened parenthesis, and the ")" that closes it; `opener` starts at `at`. */
  #inside(open: Token, opener: string, at: number): Node {
    if (this.#tokens.peek().type === ')') {
      throw new CalcError(
        `empty parentheses at position ${open.position}; put an expression inside`,
        open.position,
      );
    }
    const inner = this.#expression();
    const close = this.#tokens.next();
    if (close.type === ')') return inner;
    if (close.type === 'end') {
      throw new CalcError(`missing ")" to close "${opener}" at position ${at}`, at);
    }
    throw new CalcError(
      `unexpected ${describe(close)} at position ${close.position}; ${EXPECT_OPERATOR} (multiplication needs *)`,
      close.position,
    );
  }

  #enter(token: Token): void {
    if (++this.#depth > CALC_LIMITS.maxDepth) {
      throw new CalcError(
        `the expression nests parentheses and function calls deeper than ${CALC_LIMITS.maxDepth} levels at position ${token.position}; simplify it`,
        token.position,
      );
    }
  }
}

function isOperator<const O extends Operator>(
  token: Token,
  ...operators: O[]
): token is Token & { type: 'operator'; text: O } {
  return token.type === 'operator' && (operators as Operator[]).includes(token.text);
}
