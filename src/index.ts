// The public API of toolwire (the server side; transports have their own subpaths: toolwire/stdio, toolwire/http).

export {
  McpServer,
  ToolContext,
  ToolError,
  DefinitionError,
  Denial,
  defineTool,
  text,
  image,
  audio,
  resourceLink,
  embeddedResource,
  toolResult,
  silentLogger,
  stderrLogger,
  type CacheHints,
  type DenialOptions,
  type Logger,
  type Middleware,
  type Next,
  type Outcome,
  type PromptTarget,
  type ReadonlyJson,
  type RequestView,
  type ResourceTarget,
  type ResourceTemplateTarget,
  type Target,
  type ToolTarget,
  type VisibilityRule,
  type RegisteredTool,
  type ServerOptions,
  type ToolConfig,
  type ToolReturn,
} from './server/index.js';
export { createLinkedPair } from './transports/memory/index.js';
export { ErrorCode, RpcError } from './jsonrpc/index.js';
export {
  MODERN_REVISION,
  LEGACY_REVISIONS,
  LOCAL_CALLER,
  ANONYMOUS_CALLER,
  type Caller,
  type TransportFacts,
  type Transport,
  type SendOptions,
  type MessageExtra,
} from './protocol/index.js';
export type * from './protocol/types.js';
export { SchemaError, formatIssues, type SchemaInput, type InferSchema } from './schema/index.js';
