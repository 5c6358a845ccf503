// The example tools `toolwire serve` offers until tool packs are chosen: small, safe and deterministic.
// Built-in tools use raw JSON Schema, so zod stays a choice of the user rather than a runtime dependency.

import { defineTool, type ToolConfig } from '../server/index.js';

export const calculateSum = defineTool({
  name: 'calculate_sum',
  title: 'Add two numbers',
  description: 'Adds two numbers and returns their sum. Example: {"a": 2, "b": 3} returns {"sum": 5}.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'The first addend' },
      b: { type: 'number', description: 'The second addend' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  outputSchema: {
    type: 'object',
    properties: { sum: { type: 'number' } },
    required: ['sum'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => {
    const sum = (args.a as number) + (args.b as number); // validated against the schema above
    if (!Number.isFinite(sum)) throw new RangeError('the sum is not a finite number');
    return { sum };
  },
});

export const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'Returns the given text unchanged. Example: {"text": "hello"} returns "hello".',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string', maxLength: 65_536, description: 'The text to return' } },
    required: ['text'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: (args) => args.text as string, // validated against the schema above
});

export const exampleTools: readonly ToolConfig[] = [calculateSum, echo] as unknown as readonly ToolConfig[]; // erase argument types for the list
