// The `calculate` tool: one arithmetic expression in, its value out, as structured content and as text.

import { ToolError, defineTool, text, toolResult } from '../../server/index.js';
import { CALC_LIMITS, CalcError } from './calc-error.js';
import { calculate } from './evaluate.js';
import { ALLOWED_NAMES } from './names.js';

const DESCRIPTION = [
  'Evaluates an arithmetic expression exactly as written and returns its value as a number.',
  'Operators: + - * / % (remainder, with the sign of the dividend) and ** (power, right-associative;',
  '-2**2 is -4 as in mathematics); parentheses; numbers such as 42, 3.14, .5, 1e3.',
  `Names: ${ALLOWED_NAMES} (log is base 10, ln is natural; angles are in radians; round sends halves away from zero).`,
  `Limits: ${CALC_LIMITS.maxLength} characters, ${CALC_LIMITS.maxTokens} tokens, ${CALC_LIMITS.maxDepth} levels of nested parentheses and calls.`,
  'Errors (division by zero, overflow beyond ±1.8e308, sqrt of a negative number…) name the position, counted in characters from 1.',
  'Example: {"expression": "2*(3+4)"} returns {"expression": "2*(3+4)", "result": 14} and the text "2*(3+4) = 14".',
].join(' ');

/** The `calculate` tool, with its time limit (the work is bounded, so a few seconds is plenty). */
export const calculateTool = (timeoutMs: number) =>
  defineTool({
    name: 'calculate',
    title: 'Calculator',
    description: DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: {
        expression: {
          type: 'string',
          minLength: 1,
          maxLength: CALC_LIMITS.maxLength,
          description: 'The expression to evaluate, for example "sqrt(2)/2 + sin(pi/4)"',
        },
      },
      required: ['expression'],
      additionalProperties: false,
    },
    outputSchema: {
      type: 'object',
      properties: {
        expression: { type: 'string', description: 'The expression, as given (without surrounding spaces)' },
        result: { type: 'number', description: 'Its value, a finite number' },
      },
      required: ['expression', 'result'],
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs,
    handler: (args) => {
      const expression = (args.expression as string).trim(); // a string of bounded length: checked by the schema
      let result: number;
      try {
        result = calculate(expression);
      } catch (error) {
        if (error instanceof CalcError) throw new ToolError(error.message);
        throw error;
      }
      return toolResult({
        content: [text(`${expression} = ${String(result)}`)],
        structuredContent: { expression, result },
      });
    },
  });
