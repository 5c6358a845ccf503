// `toolwire serve`: the ready server with its tool packs, over stdio (default) or Streamable HTTP.

import { McpServer, stderrLogger, type ToolConfig } from '../server/index.js';
import { ConfigError, loadServeConfig } from '../tools/index.js';
import { listenHttp } from '../transports/http/index.js';
import { serveStdio } from '../transports/stdio/index.js';
import { parseAddress } from './address.js';
import { ExitCode } from './errors.js';

export interface ServeOptions {
  stdio?: boolean;
  http?: string;
  tools?: string[];
  root?: string[];
  config?: string;
}

export interface ServeIo {
  stderr: NodeJS.WritableStream;
  version: string;
  cwd: string;
}

export function createReadyServer(version: string, tools: readonly ToolConfig[]): McpServer {
  const server = new McpServer(
    { name: 'toolwire', version, title: 'toolwire ready server' },
    { instructions: 'Tools served by toolwire. Each tool description has an example of use.' },
  );
  for (const tool of tools) server.tool(tool);
  return server;
}

const waitForSignal = (): Promise<void> =>
  new Promise<void>((resolve) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });

/** Runs until the transport ends (stdio) or the process is told to stop (HTTP). Returns the exit code. */
export async function serve(options: ServeOptions, io: ServeIo): Promise<number> {
  if (options.stdio === true && options.http !== undefined) {
    io.stderr.write('toolwire: choose one of --stdio and --http\n');
    return ExitCode.Usage;
  }
  let server: McpServer;
  try {
    const address = options.http === undefined ? undefined : parseAddress(options.http);
    const loaded = await loadServeConfig({
      ...(options.tools !== undefined && { tools: options.tools }),
      ...(options.root !== undefined && { roots: options.root }),
      ...(options.config !== undefined && { config: options.config }),
      cwd: io.cwd,
      logger: stderrLogger,
    });
    server = createReadyServer(io.version, loaded.tools);
    if (address === undefined) {
      const serving = await serveStdio(server);
      await serving.closed;
      return ExitCode.Success;
    }
    const listening = await listenHttp(server, address);
    io.stderr.write(`toolwire: listening on ${listening.url}\n`);
    io.stderr.write(`toolwire: roots: ${loaded.roots.list.join(', ')}\n`);
    io.stderr.write(
      `toolwire: tools: ${
        server.tools
          .enabled()
          .map((tool) => tool.name)
          .join(', ') || '(none)'
      }\n`,
    );
    await waitForSignal();
    await server.close();
    await listening.close();
    return ExitCode.Success;
  } catch (error) {
    const usage =
      error instanceof ConfigError || (error instanceof Error && error.message.startsWith('--http'));
    io.stderr.write(`toolwire: ${error instanceof Error ? error.message : String(error)}\n`);
    return usage ? ExitCode.Usage : ExitCode.Connection;
  }
}
