// toolwire, served the way its README shows: McpServer + createNodeHandler on node:http, or serveStdio.
// Defaults stay on (input validation, timeouts, host checks, the policy hook point): the numbers are for the real pipeline.

import { createServer } from 'node:http';
import { z } from 'zod';
import { McpServer } from 'toolwire';
import { createNodeHandler } from 'toolwire/http';
import { serveStdio } from 'toolwire/stdio';
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

// One page holds every tool, so that tools/list measures listing 1,001 tools, not paging through them.
const server = new McpServer({ name: 'bench-toolwire', version: '1.0.0' }, { pageSize: 2000 });
server.tool({
  name: 'calculate_sum',
  description: SUM_DESCRIPTION,
  inputSchema: z.object({ a: z.number(), b: z.number() }),
  handler: async ({ a, b }) => String(a + b),
});
for (let index = 0; index < tools; index++) {
  server.tool({
    name: dummyName(index),
    description: dummyDescription(index),
    inputSchema: z.object({ text: z.string() }),
    handler: async ({ text }) => text,
  });
}

if (transport === 'stdio') {
  await serveStdio(server);
} else {
  const handler = createNodeHandler(server, { path: '/mcp' });
  const http = createServer(handler);
  http.listen(port, '127.0.0.1', () => announce(http));
}
