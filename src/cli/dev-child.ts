// The process `toolwire dev` starts for each version of a tool module: it loads the module exactly as
// `toolwire serve --tools FILE` does and serves its tools over stdio. A module that fails to load ends this process
// with the reason on stderr; a syntax error is left uncaught on purpose, so that Node prints its line and caret.
// Not imported by anything: it runs as `node [the parent's flags] dev-child.js FILE`.

import { pathToFileURL } from 'node:url';
import { McpServer, stderrLogger } from '../server/index.js';
import { loadServeConfig } from '../tools/index.js';
import { serveStdio } from '../transports/stdio/index.js';
import { keepStdoutForProtocol } from './stdout-guard.js';

const file = process.argv[2];
if (file === undefined) throw new Error('usage: dev-child FILE');

keepStdoutForProtocol();

// Uncaught if it throws: Node then prints a syntax error with the file, line and a caret under the mistake.
await import(pathToFileURL(file).href);

let server: McpServer | undefined;
try {
  const loaded = await loadServeConfig({ tools: [file], cwd: process.cwd(), logger: stderrLogger });
  server = new McpServer({ name: 'toolwire-dev-module', version: '0.0.0' }, { logger: stderrLogger });
  for (const tool of loaded.tools) server.tool(tool);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
}
if (server !== undefined) await serveStdio(server);
