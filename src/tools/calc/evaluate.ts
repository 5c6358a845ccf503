// Evaluates a parsed expression, refusing every step whose result is not a finite real number.

import { CalcError } from './calc-error.js';
import type { FunctionName } from './names.js';
import { FUNCTIONS } from './names.js';
import { parse, type Node } from './parser.js';

const OVERFLOW = 'the result overflows (exceeds ±1.8e308)';

/** Numbers as messages show them: -0 is 0. */
const show = (value: number): string => String(value === 0 ? 0 : value);

/** Parses and evaluates an expression. Throws CalcError with a message the model can act on. */
export function calculate(expression: string): number {
  const result = evaluate(parse(expression));
  return result === 0 ? 0 : result; // no -0 in results
}

// Recursion is bounded by the tree's depth, which the token limit keeps at a few hundred.
export function evaluate(node: Node): number {
  switch (node.kind) {
    case 'number':
      return node.value;
    case 'negate':
      return -evaluate(node.operand);
    case 'call':
      return call(node.name, evaluate(node.argument), node.position);
    case 'binary':
      return binary(node.operator, evaluate(node.left), evaluate(node.right), node.position);
  }
}

function binary(operator: string, left: number, right: number, position: number): number {
  let result: number;
  switch (operator) {
    case '+':
      result = left + right;
      break;
    case '-':
      result = left - right;
      break;
    case '*':
      result = left * right;
      break;
    case '/':
    case '%':
      if (right === 0) throw new CalcError(`division by zero at position ${position}`, position);
      result = operator === '/' ? left / right : left % right;
      break;
    default:
      if (left === 0 && right < 0) {
        throw new CalcError(
          `division by zero at position ${position} (0 raised to a negative power)`,
          position,
        );
      }
      result = left ** right;
      if (Number.isNaN(result)) {
        throw new CalcError(
          `(${show(left)}) ** ${show(right)} at position ${position} is not a real number: a negative base needs a whole-number exponent`,
          position,
        );
      }
  }
  if (!Number.isFinite(result)) throw new CalcError(`${OVERFLOW} at position ${position}`, position);
  return result;
}

function call(name: FunctionName, x: number, position: number): number {
  const where = `at position ${position}`;
  switch (name) {
    case 'sqrt':
      if (x < 0)
        throw new CalcError(
          `sqrt of a negative number (${show(x)}) ${where}; sqrt needs a value ≥ 0`,
          position,
        );
      break;
    case 'log':
    case 'ln':
      if (x < 0) {
        throw new CalcError(
          `${name} of a negative number (${show(x)}) ${where}; ${name} needs a value > 0`,
          position,
        );
      }
      if (x === 0)
        throw new CalcError(`${name} of zero ${where} is -Infinity; ${name} needs a value > 0`, position);
      break;
    case 'asin':
    case 'acos':
      if (x < -1 || x > 1) {
        throw new CalcError(
          `${name} of ${show(x)} ${where} is undefined; ${name} needs a value from -1 to 1`,
          position,
        );
      }
      break;
    default:
      break;
  }
  const result = FUNCTIONS[name](x);
  if (!Number.isFinite(result)) throw new CalcError(`${OVERFLOW} ${where}`, position);
  return result;
}
