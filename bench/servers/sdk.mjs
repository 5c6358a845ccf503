// The official SDK v2 (@modelcontextprotocol/server), served its documented stateless way: createMcpHandler with a
// server factory (2026-07-28 per request; 2025 clients get its stateless legacy serving) mounted on node:http via
// @modelcontextprotocol/node, or serveStdio from @modelcontextprotocol/server/stdio.

import { createServer } from 'node:http';
import { toNodeHandler } from '@modelcontextprotocol/node';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';
import {
  SUM_DESCRIPTION,
  announce,
  dummyDescription,
  dummyName,
  serverArgs,
  exitOnSignal,
} from './tool-set.mjs';

const { transport, tools, port } = serverArgs();
exitOnSignal();

function createSdkServer() {
  const server = new McpServer({ name: 'bench-sdk', version: '1.0.0' });
  server.registerTool(
    'calculate_sum',
    { description: SUM_DESCRIPTION, inputSchema: z.object({ a: z.number(), b: z.number() }) },
    async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }),
  );
  for (let index = 0; index < tools; index++) {
    server.registerTool(
      dummyName(index),
      { description: dummyDescription(index), inputSchema: z.object({ text: z.string() }) },
      async ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
  }
  return server;
}

if (transport === 'stdio') {
  serveStdio(() => createSdkServer());
} else {
  const node = toNodeHandler(createMcpHandler(() => createSdkServer()));
  const http = createServer((req, res) => void node(req, res));
  http.listen(port, '127.0.0.1', () => announce(http));
}
