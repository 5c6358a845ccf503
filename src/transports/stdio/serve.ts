// One call to serve an McpServer on this process's stdin/stdout, with a clean shutdown.

import type { McpServer, ServerConnection } from '../../server/index.js';
import { attachSignalHandlers } from './signals.js';
import { StdioServerTransport, type StdioServerTransportOptions } from './server-transport.js';

export interface StdioServing {
  connection: ServerConnection;
  /** Resolves when the session ends: stdin closed, a signal, or close(). */
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Serves `server` over stdio. Ends on stdin EOF, SIGTERM or SIGINT: in-flight calls are aborted, subscriptions end
 * gracefully. It never calls process.exit; the process exits by itself once nothing else keeps it alive.
 */
export async function serveStdio(
  server: McpServer,
  options: StdioServerTransportOptions = {},
): Promise<StdioServing> {
  const transport = new StdioServerTransport(options);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  const close = async (): Promise<void> => {
    detach();
    await server.close();
    await transport.close();
    resolveClosed();
  };
  const detach = attachSignalHandlers(() => void close());
  const connection = await server.connect(transport);
  connection.onclose = () => void close();
  return { connection, closed, close };
}
