// `toolwire serve`: the ready server over stdio (default) or Streamable HTTP.

import { McpServer, type ToolConfig } from '../server/index.js';
import { listenHttp } from '../transports/http/index.js';
import { serveStdio } from '../transports/stdio/index.js';
import { exampleTools } from '../tools/examples.js';
import { parseAddress } from './address.js';

export interface ServeOptions {
  stdio?: boolean;
  http?: string;
}

export interface ServeIo {
  stderr: NodeJS.WritableStream;
  version: string;
}

export function createReadyServer(version: string, tools: readonly ToolConfig[] = exampleTools): McpServer {
  const server = new McpServer(
    { name: 'toolwire', version, title: 'toolwire ready server' },
    { instructions: 'Tools served by toolwire. Each tool description has an example of use.' },
  );
  for (const tool of tools) server.tool(tool);
  return server;
}

/** Runs until the transport ends (stdio) or the process is told to stop (HTTP). Returns the exit code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  if (options.stdio === true && options.http !== undefined) {
    io.stderr.write('toolwire: choose one of --stdio and --http\n');
    return 2;
  }
  const server = createReadyServer(io.version);
  if (options.http === undefined) {
    const serving = await serveStdio(server);
    await serving.closed;
    return 0;
  }
  const address = parseAddress(options.http);
  const listening = await listenHttp(server, address);
  io.stderr.write(`toolwire: listening on ${listening.url}\n`);
  io.stderr.write(
    `toolwire: tools: ${server.tools
      .enabled()
      .map((tool) => tool.name)
      .join(', ')}\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await server.close();
  await listening.close();
  return 0;
}
