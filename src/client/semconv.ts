// The names the OpenTelemetry semantic conventions for MCP give to spans, attributes and metrics (docs/gen-ai/mcp.md,
// "Development" status), in one table shared by the client's and the server's instrumentation.

export const Attr = {
  McpMethodName: 'mcp.method.name',
  McpProtocolVersion: 'mcp.protocol.version',
  McpSessionId: 'mcp.session.id',
  McpResourceUri: 'mcp.resource.uri',
  JsonRpcRequestId: 'jsonrpc.request.id',
  RpcResponseStatusCode: 'rpc.response.status_code',
  ErrorType: 'error.type',
  GenAiToolName: 'gen_ai.tool.name',
  GenAiPromptName: 'gen_ai.prompt.name',
  GenAiOperationName: 'gen_ai.operation.name',
  GenAiToolCallArguments: 'gen_ai.tool.call.arguments',
  GenAiToolCallResult: 'gen_ai.tool.call.result',
  NetworkTransport: 'network.transport',
  NetworkProtocolName: 'network.protocol.name',
  ClientAddress: 'client.address',
  ServerAddress: 'server.address',
  ServerPort: 'server.port',
} as const;

/** gen_ai.operation.name for tools/call, and only for it. */
export const EXECUTE_TOOL = 'execute_tool';
/** error.type when a tools/call result says isError. */
export const TOOL_ERROR = 'tool_error';
/** error.type when the request ran out of time (the convention's example value). */
export const TIMEOUT = 'timeout';
/** error.type when the request was cancelled or its peer went away before an answer (a custom value). */
export const CANCELLED = 'cancelled';
/** error.type when no better class is known (the convention's fallback). */
export const OTHER = '_OTHER';

export const Metric = {
  ServerOperationDuration: 'mcp.server.operation.duration',
  ClientOperationDuration: 'mcp.client.operation.duration',
} as const;

/** The ExplicitBucketBoundaries the convention gives both operation-duration histograms, in seconds. */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300,
]);

/** The instrumentation scope both sides report under. */
export const INSTRUMENTATION_NAME = 'toolwire';

/** A span name: `{mcp.method.name} {target}`, or the method alone when there is no low-cardinality target. */
export const spanName = (method: string, target: string | undefined): string =>
  target === undefined ? method : `${method} ${target}`;
