// The server: tool definitions, the registry, the per-era dispatcher, the call pipeline and connections.

export { McpServer, type RegisteredTool } from './server.js';
export type { Middleware, Next, Outcome, ReadonlyJson, RequestHandler, RequestView } from './request-view.js';
export type { PromptTarget, ResourceTarget, ResourceTemplateTarget, Target, ToolTarget } from './targets.js';
export type { VisibilityRule } from './visibility.js';
export type { CacheHints, ServerOptions } from './options.js';
export { ServerConnection, type ConnectionOptions } from './connection.js';
export type { LegacySession } from './legacy-session.js';
export { ToolContext } from './context.js';
export {
  ToolError,
  DefinitionError,
  Denial,
  stderrLogger,
  silentLogger,
  type DenialOptions,
  type Logger,
} from './errors.js';
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
export { RequestStateCodec, argumentsDigest, canonicalJson, principalDigest } from './request-state.js';
