// Compile-time checks of the tool definition types (typechecked by `npm run check`), plus the same tools at run time.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { z } from 'zod';
import { McpServer, silentLogger } from '../src/index.js';

test('handlers may return any value without an outputSchema, and the schema type with one', () => {
  const server = new McpServer({ name: 'typing', version: '1' }, { logger: silentLogger });
  server.tool({ name: 'array', handler: () => [1, 2, 3] });
  server.tool({ name: 'number', handler: () => 42 });
  server.tool({ name: 'typed-args', inputSchema: z.object({ n: z.number() }), handler: ({ n }) => n * 2 });
  server.tool({
    name: 'typed-output',
    inputSchema: z.object({ n: z.number() }),
    outputSchema: z.object({ r: z.number() }),
    handler: ({ n }) => ({ r: n }),
  });
  server.tool({
    name: 'wrong-output',
    outputSchema: z.object({ r: z.number() }),
    // @ts-expect-error: the structured value must match the zod outputSchema
    handler: () => ({ r: 'not a number' }),
  });
  server.tool({
    name: 'raw-array-output',
    outputSchema: { type: 'array', items: { type: 'number' } },
    handler: () => [1, 2],
  });
  server.tool({
    name: 'typed-args-misuse',
    inputSchema: z.object({ n: z.number() }),
    // @ts-expect-error: n is a number, it has no toUpperCase
    handler: ({ n }) => n.toUpperCase(),
  });
  assert.equal(server.tools.enabled().length, 7);
});
