// The web-standard fetch handler inside Hono (the same handler serves Deno, Bun and Workers).
// Run it: node --import tsx examples/hono.ts

import { Hono } from 'hono';
import { createFetchHandler } from '../src/transports/http/index.js';
import { createExampleServer } from './http-server.js';

const mcp = createFetchHandler(createExampleServer());

export const app = new Hono();
app.all('/mcp', (c) => mcp(c.req.raw));
app.get('/', (c) => c.text('An MCP server lives at /mcp'));

// Deno: Deno.serve(app.fetch) · Bun: export default app · Workers: export default app
