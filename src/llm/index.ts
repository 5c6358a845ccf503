// toolwire/llm: MCP tools for model APIs (OpenAI Chat Completions and Responses, Anthropic Messages), and back.

export {
  PROFILE_IDS,
  profile,
  isProfileId,
  OPENAI_STRICT_LIMITS,
  ANTHROPIC_STRICT_LIMITS,
  type Profile,
  type ProfileId,
  type Provider,
  type Api,
} from './profiles.js';
export { mapNames, providerName, PREFIX_SEPARATOR, type NameMapping, type RefusedName } from './names.js';
export { compileInputSchema, WRAP_KEY, type CompiledInputSchema } from './schema-compile.js';
export { SchemaRefusal } from './refusal.js';
export { restoreArguments, type Shape } from './shape.js';
export { checkTool, checkToolSet, strictBudgetOf, type RuleViolation, type ToolUnderTest } from './rules.js';
export { compileTools, type CompiledTool, type CompiledTools } from './compile-tools.js';
export { ToolBridge } from './bridge.js';
export type {
  AnthropicInputSchema,
  AnthropicToolDefinition,
  ChatToolDefinition,
  DefinitionFor,
  ResponsesToolDefinition,
  ToolDefinition,
} from './definitions.js';
export { formatReport, type CompileReport, type ToolReport, type ToolStatus } from './report.js';
export {
  callPrepared,
  fromAnthropic,
  fromOpenAI,
  MAX_ARGUMENT_CHARS,
  type AnthropicToolUse,
  type OpenAIToolCall,
  type PreparedCall,
  type ToolClient,
} from './calls.js';
export {
  chatAttachmentsMessage,
  toOpenAIChatResult,
  toOpenAIResponsesResult,
  type ChatAttachment,
  type ChatAttachmentsMessage,
  type ChatToolMessage,
  type ChatToolResult,
  type ResponsesOutputPart,
  type ResponsesToolOutput,
} from './results-openai.js';
export {
  toAnthropicResult,
  type AnthropicResultBlock,
  type AnthropicToolResult,
} from './results-anthropic.js';
export { ANTHROPIC_MAX_BINARY_BYTES, ERROR_PREFIX, OPENAI_MAX_BINARY_BYTES } from './result-parts.js';
export { ModelApiError, type AnthropicLike, type OpenAILike } from './dialects.js';
export {
  runTools,
  RunAbortedError,
  type RunApprovalRequest,
  type RunCallRecord,
  type RunToolsOptions,
  type RunToolsResult,
} from './run-tools.js';
export { startFakeModelApi, type FakeModelApi, type FakeReply } from './fake-model-api.js';
