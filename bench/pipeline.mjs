#!/usr/bin/env node
// The in-process cost of one tools/call through toolwire's pipeline (parse, envelope, dispatch, validation, handler,
// result encoding), with no transport and no load generator: the number to watch when changing the server's hot path.
// Needs a build (npm run build). Usage: node bench/pipeline.mjs [calls=300000] [inFlight=64]

import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { McpServer } from 'toolwire';
import { modernCallBody } from './lib/workloads.mjs';

const calls = Number(process.argv[2] ?? 300_000);
const inFlight = Number(process.argv[3] ?? 64);
if (!Number.isInteger(calls) || calls < 1 || !Number.isInteger(inFlight) || inFlight < 1) {
  throw new Error('usage: node bench/pipeline.mjs [calls ≥ 1] [inFlight ≥ 1]');
}

const server = new McpServer({ name: 'pipeline', version: '1.0.0' });
server.tool({
  name: 'calculate_sum',
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  handler: async ({ a, b }) => String(a + b),
});
// The stateless HTTP path's connection: many requests at once, each answered through its own reply function.
const connection = server.createConnection(undefined, { legacy: false, shared: true });
const line = modernCallBody(1);

function round() {
  return new Promise((resolve, reject) => {
    let sent = 0;
    let answered = 0;
    const extra = {
      reply: (message, options) => {
        if (options.final !== true) return;
        if (!message.includes('"text":"42"')) reject(new Error(`wrong answer: ${message}`));
        else if (++answered === calls) resolve();
        else if (sent < calls) {
          sent++;
          connection.receive(line, extra);
        }
      },
    };
    for (; sent < Math.min(inFlight, calls);) {
      sent++;
      connection.receive(line, extra);
    }
  });
}

await round(); // warm-up: the JIT settles
const started = performance.now();
await round();
const ms = performance.now() - started;
process.stdout.write(
  `${((ms * 1000) / calls).toFixed(2)} µs per tools/call, ${Math.round((calls / ms) * 1000).toLocaleString('en-US')} calls/s (${inFlight} in flight)\n`,
);
