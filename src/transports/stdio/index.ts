// The stdio transport: newline-delimited JSON-RPC over a child process's stdin and stdout.

export { LineSplitter, type LineSplitterOptions } from './line-splitter.js';
export {
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_QUEUED_BYTES,
  StdioServerTransport,
  type StdioServerTransportOptions,
} from './server-transport.js';
export { attachSignalHandlers, type ShutdownSignal } from './signals.js';
export { serveStdio, type StdioServing } from './serve.js';
export { parseCommandLine } from './client-command-line.js';
export { INHERITED_ENV, inheritedEnvironment } from './inherited-env.js';
export {
  DEFAULT_CLOSE_TIMEOUT_MS,
  DEFAULT_MAX_STDERR_BYTES,
  StdioClientTransport,
  type StdioClientTransportOptions,
} from './client-transport.js';
