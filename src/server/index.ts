// The server: tool definitions, the registry, the per-era dispatcher, the call pipeline and connections.

export {
  McpServer,
  type Middleware,
  type Outcome,
  type RegisteredTool,
  type RequestHandler,
} from './server.js';
export type { CacheHints, ServerOptions } from './options.js';
export { ServerConnection, type ConnectionOptions, type LegacySession } from './connection.js';
export { ToolContext } from './context.js';
export { ToolError, DefinitionError, stderrLogger, silentLogger, type Logger } from './errors.js';
export { checkTimeout, defineTool, type ToolConfig, type ToolReturn } from './tool-definition.js';
export {
  audio,
  embeddedResource,
  image,
  resourceLink,
  text,
  toolResult,
  type BlockOptions,
  type EmbeddedResourceInput,
} from './content.js';
export { RequestScope, type Era } from './request-scope.js';
export { RequestStateCodec } from './request-state.js';
