// The client: connect to any MCP server (either era), list and call its tools safely.

export { McpClient } from './client.js';
export type { ClientOptions, Era, ToolPins, ToolPinVerdict } from './options.js';
export type { CallOptions, CallToolOutcome } from './call.js';
export type { TaskStatus } from './tasks.js';
export type { RetryEvent, RetryOptions } from './retry.js';
export type {
  GetPromptResult,
  Prompt,
  PromptArgument,
  PromptMessage,
  ReadResourceResult,
  Resource,
  ResourceTemplate,
} from '../protocol/index.js';
export type { FeatureRequestOptions } from './resources-prompts.js';
export type { Progress } from './channel.js';
export {
  ApprovalDeniedError,
  ConnectionClosedError,
  McpError,
  OutputValidationError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
} from './errors.js';
export { applyElicitationDefaults, type InputContext, type InputHandlers } from './input.js';
export type { ApprovalHook, ApprovalRequest, AuditEntry, AuditHook, CallOutcomeKind } from './policy.js';
export { encodeHeaderValue } from './headers.js';
export * from './oauth/index.js';
export type {
  ClientTelemetryOptions,
  ClientTelemetrySetting,
  MeterProviderLike,
  TracerProviderLike,
} from './telemetry-options.js';
