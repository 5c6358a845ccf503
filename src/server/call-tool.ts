// The tools/call pipeline: look up, validate arguments, run the handler under its signal and time limit,
// normalise and validate the output. Policy middleware wraps this whole step (see server.ts).

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult } from '../protocol/index.js';
import { formatIssues, type ValidationResult } from '../schema/index.js';
import { ToolError, newReference } from './errors.js';
import { RunSpec, execute, type Execution } from './execute.js';
import { declaresTasks, missingTasksCapability } from './tasks/task-manager.js';
import { taskSupport } from './tool-definition.js';
import { InputRequiredSignal } from './input.js';
import type { RequestScope } from './request-scope.js';
import type { ToolRecord } from './tool-registry.js';
import { errorResult, fitToRevision, normaliseReturn } from './tool-result.js';

/** Reads name and arguments; anything structurally wrong is a protocol error (-32602). */
function readCallParams(scope: RequestScope): { record: ToolRecord; args: JsonObject } {
  const params = scope.params;
  const name = params?.name;
  if (typeof name !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: tools/call needs params.name (a string)');
  }
  const args = params?.arguments === undefined ? {} : params.arguments;
  if (!isJsonObject(args)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: params.arguments of tool "${name}" must be an object`,
    );
  }
  // Resolved by the pipeline for this caller before middleware ran: a tool it may not see is an unknown tool.
  const record = scope.resolved?.kind === 'tool' ? scope.resolved.record : undefined;
  if (record === undefined) {
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: "${name}"`, { name });
  }
  return { record, args };
}

export async function callTool(scope: RequestScope): Promise<object | undefined> {
  const { record, args } = readCallParams(scope);
  const server = scope.services;
  const revision = scope.envelope.protocolVersion;
  const support = taskSupport(record);
  const asTask =
    support !== undefined && scope.era === 'modern' && declaresTasks(scope.envelope.clientCapabilities);
  if (support?.support === 'required' && !asTask) {
    // Legacy revisions have no such capability to name; 2025-11-25 answered a task-only tool with -32601.
    if (scope.era === 'legacy') {
      throw new RpcError(
        ErrorCode.MethodNotFound,
        `Tool "${record.name}" runs only as a task (io.modelcontextprotocol/tasks), which needs protocol revision 2026-07-28`,
      );
    }
    throw missingTasksCapability();
  }
  scope.connection.track(scope); // from here a notifications/cancelled finds it (validation may take a while)
  let checked: ValidationResult<unknown>;
  try {
    // Most validators answer synchronously: no await (and no extra promise) for them.
    const outcome = record.input.validate(args);
    checked = outcome instanceof Promise ? await outcome : outcome;
  } finally {
    scope.connection.untrack(scope);
  }
  if (scope.cancelled) return undefined;
  if (!checked.ok) {
    const message = formatIssues(checked.issues, `Invalid arguments for tool "${record.name}"`);
    if (server.inputErrors === 'protocol') throw new RpcError(ErrorCode.InvalidParams, message);
    return fitToRevision(errorResult(message), revision);
  }
  const execution = await execute(
    scope,
    new RunSpec(
      `tool:${record.name}`,
      args,
      record.config.timeoutMs ?? server.defaultTimeoutMs,
      (ctx) => record.config.handler(checked.value as never, ctx),
      asTask
        ? {
            immediately: support.start === 'immediately',
            timeoutMs: record.config.timeoutMs ?? server.taskTimeoutMs,
            settle: async (ended: Execution) =>
              (await settle(scope, record, ended)) ?? errorResult('cancelled'),
          }
        : undefined,
    ),
  );
  switch (execution.kind) {
    case 'cancelled':
      return undefined; // the client cancelled or went away: no reply
    case 'input_required':
    case 'task':
      return execution.result;
    default: {
      const result = await settle(scope, record, execution);
      return result === undefined || scope.era === 'modern' ? result : fitToRevision(result, revision);
    }
  }
}

/** The tool result for how a handler ended (the synchronous reply, or a task's stored result). */
async function settle(
  scope: RequestScope,
  record: ToolRecord,
  execution: Execution,
): Promise<CallToolResult | undefined> {
  switch (execution.kind) {
    case 'cancelled':
    case 'input_required':
    case 'task':
      return undefined;
    case 'timed_out':
      return errorResult(`Tool "${record.name}" timed out after ${execution.timeoutMs} ms`);
    case 'thrown':
      return thrownResult(scope, record, execution.error);
    case 'value':
      break;
  }
  const result = normaliseReturn(execution.value, record.output !== undefined);
  if (record.output === undefined || result.isError === true) return result;
  const mismatch = await checkOutput(record, result);
  if (mismatch === undefined) return result;
  const reference = newReference();
  scope.services.logger.error(
    `tool "${record.name}" returned output that does not match its outputSchema (reference ${reference}): ${mismatch}`,
  );
  return errorResult(
    `Tool "${record.name}" produced output that does not match its declared outputSchema; this is a bug in the server (reference ${reference})`,
  );
}

function thrownResult(scope: RequestScope, record: ToolRecord, error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error;
  if (error instanceof ToolError) return errorResult(error.message);
  if (error instanceof InputRequiredSignal) {
    // Only reachable on the legacy wire if a handler fabricated the signal itself.
    return errorResult(`Tool "${record.name}" asked for input the client cannot give on this connection`);
  }
  const reference = newReference();
  scope.services.logger.error(`tool "${record.name}" threw (reference ${reference})`, error);
  return errorResult(`Tool "${record.name}" failed with an internal error (reference ${reference})`);
}

async function checkOutput(record: ToolRecord, result: CallToolResult): Promise<string | undefined> {
  if (result.structuredContent === undefined) return 'the result has no structuredContent';
  const outcome = record.output?.validate(result.structuredContent);
  const checked = outcome instanceof Promise ? await outcome : outcome;
  if (checked === undefined || checked.ok) return undefined;
  return formatIssues(checked.issues, `Output of tool "${record.name}" does not match its outputSchema`);
}
