// One upstream tool registered on the gateway's server: the call forwarded as it came (arguments, cancellation,
// progress, log messages, input requests, tasks) and the upstream's result handed back as it is.

import type { CallOptions, McpClient } from '../client/index.js';
import type { JsonObject } from '../jsonrpc/index.js';
import {
  isLegacyRevision,
  isLoggingLevel,
  MetaKey,
  type LoggingLevel,
  type Tool,
} from '../protocol/index.js';
import type { ToolConfig, ToolContext } from '../server/index.js';
import type { CallLogs } from './call-logs.js';
import { forwardInput } from './forward-input.js';
import { toGatewayUri } from './naming/index.js';
import { upstreamFailure } from './upstream-errors.js';
import { upstreamResult } from './upstream-result.js';

/** How a proxied request reaches its upstream: the Upstream's `call` (circuit breaker, the live client). */
export type UpstreamRunner = <T>(run: (client: McpClient) => Promise<T>) => Promise<T>;

export interface ProxyToolOptions {
  /** The name gateway clients see (server___tool, or its alias). */
  exposed: string;
  /** The upstream's server name (its key in mcpServers). */
  server: string;
  /** The definition to list (after scanning and overrides); its `name` is the upstream's. */
  tool: Tool;
  run: UpstreamRunner;
  logs: CallLogs;
  /** The upstream's time limit for a call (ms). */
  timeoutMs: number;
}

/**
 * The tool as the gateway registers it. Its schemas are the upstream's raw JSON Schema, so the gateway checks
 * arguments before they leave (and structuredContent on the way back) with the upstream's own contract. A tool that
 * supports tasks upstream is 'optional' here: a client that declares tasks gets a gateway task that follows the
 * upstream call (and the upstream's task, when it runs as one) to its end; others get the result directly.
 */
export function proxyTool(options: ProxyToolOptions): ToolConfig {
  const { tool } = options;
  const config: ToolConfig = {
    name: options.exposed,
    inputSchema: tool.inputSchema as JsonObject, // a raw JSON Schema: the upstream's, checked by scan first
    timeoutMs: options.timeoutMs,
    handler: (args, ctx) => forwardCall(options, args, ctx),
  };
  if (tool.title !== undefined) config.title = tool.title;
  if (tool.description !== undefined) config.description = tool.description;
  if (tool.outputSchema !== undefined) config.outputSchema = tool.outputSchema as JsonObject;
  if (tool.annotations !== undefined) config.annotations = tool.annotations;
  if (tool.icons !== undefined) config.icons = tool.icons;
  const support = tool.execution?.taskSupport;
  if (support === 'optional' || support === 'required') config.task = 'optional';
  return config;
}

async function forwardCall(options: ProxyToolOptions, args: unknown, ctx: ToolContext): Promise<unknown> {
  const input = forwardInput(ctx);
  const support = options.tool.execution?.taskSupport;
  const call: CallOptions = {
    signal: input.signal,
    handlers: input.handlers,
    timeoutMs: options.timeoutMs,
    // A gateway task (the inbound client declared tasks) asks the upstream for one too, where the upstream lets it.
    task: ctx.isTask && (support === 'optional' || support === 'required'),
  };
  const level = inboundLogLevel(ctx);
  if (level !== undefined) call.logLevel = level;
  if (ctx.meta?.progressToken !== undefined)
    call.onProgress = (progress) => ctx.progress(progress.progress, progress.total, progress.message);
  try {
    const result = await options.run(async (client) => {
      const stopLogs = options.logs.open(client, ctx);
      try {
        return await client.callTool(options.tool.name, args as JsonObject, call); // checked against inputSchema
      } finally {
        stopLogs();
      }
    });
    input.rethrow();
    const rewrite = (uri: string): string => toGatewayUri(options.server, uri);
    return upstreamResult(result as unknown as JsonObject, rewrite); // a CallToolResult is a JSON object
  } catch (error) {
    input.rethrow();
    throw upstreamFailure(options.server, error);
  }
}

/**
 * The level to ask a modern upstream for: what a modern inbound request asked (its _meta); for a legacy caller, whose
 * level is its session's, "info" (what legacy upstreams are asked too) — ctx.log then applies the caller's own level.
 */
export function inboundLogLevel(ctx: ToolContext): LoggingLevel | undefined {
  const asked = ctx.meta?.[MetaKey.LogLevel];
  if (isLoggingLevel(asked)) return asked;
  return isLegacyRevision(ctx.protocolVersion) ? 'info' : undefined;
}
