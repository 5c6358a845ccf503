// A one-tool MCP server over stdio: `calculate_sum` with typed arguments, an outputSchema and progress.
// Run it: node --import tsx examples/calculator.ts   (or point any MCP client at that command)

import { z } from 'zod';
import { McpServer } from '../src/index.js';
import { serveStdio } from '../src/transports/stdio/index.js';

const server = new McpServer({ name: 'calculator', version: '1.0.0' });

server.tool({
  name: 'calculate_sum',
  title: 'Add two numbers',
  description: 'Adds two numbers and returns their sum. Example: {"a": 2, "b": 3} → 5.',
  inputSchema: z.object({
    a: z.number().describe('The first addend'),
    b: z.number().describe('The second addend'),
  }),
  outputSchema: z.object({ sum: z.number() }),
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  handler: async ({ a, b }, ctx) => {
    ctx.progress(0, 2, 'adding');
    const sum = a + b;
    ctx.progress(1, 2, 'checking');
    if (!Number.isFinite(sum)) throw new Error('the sum is not a finite number');
    ctx.progress(2, 2, 'done');
    return { sum };
  },
});

await serveStdio(server);
