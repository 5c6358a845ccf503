// A tool served over Streamable HTTP with node:http: both MCP eras on one endpoint, secure defaults.
// Run it: node --import tsx examples/http-server.ts   (then: node bin/toolwire.js list http://127.0.0.1:3000/mcp)

import { createServer } from 'node:http';
import { z } from 'zod';
import { McpServer } from '../src/index.js';
import { createNodeHandler } from '../src/transports/http/index.js';

export function createExampleServer(): McpServer {
  const server = new McpServer({ name: 'greeter', version: '1.0.0' });
  server.tool({
    name: 'greet',
    description: 'Greets someone by name. Example: {"name": "Ada"} → "Hello, Ada!"',
    inputSchema: z.object({ name: z.string().min(1).max(100) }),
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: ({ name }) => `Hello, ${name}!`,
  });
  return server;
}

// The node:http fast path: no Request/Response objects. Everything else on this HTTP server stays yours.
const handler = createNodeHandler(createExampleServer(), { path: '/mcp' });
const http = createServer((req, res) => {
  if (req.url?.startsWith('/mcp')) handler(req, res);
  else res.writeHead(404).end();
});

if (process.argv[1]?.endsWith('http-server.ts')) {
  const port = Number(process.env.PORT ?? 3000);
  http.listen(port, '127.0.0.1', () => process.stderr.write(`listening on http://127.0.0.1:${port}/mcp\n`));
}

export { http };
