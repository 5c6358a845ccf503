// Calling one tool: approval, the MRTR loop (input requests answered, then a retry with a new id and the state
// echoed as it came), task results followed to the end, output validation, and one audit entry per call.

import type { JsonObject } from '../jsonrpc/index.js';
import { Method, MetaKey, type LoggingLevel } from '../protocol/index.js';
import { finish, type CallToolOutcome, type ToolCaller } from './call-result.js';
import type { Progress } from './channel.js';
import { ApprovalDeniedError, ProtocolError, RequestAbortedError, RequestTimeoutError } from './errors.js';
import { paramHeaders } from './headers.js';
import { answerAll, type InputHandlers } from './input.js';
import { effectiveAnnotations, type CallOutcomeKind } from './policy.js';
import { followTask, type TaskStatus } from './tasks.js';
import { callAsLegacyTask, offersToolTasks } from './tasks-legacy.js';
import type { KnownTool } from './tools.js';

export type { CallToolOutcome, ToolCaller } from './call-result.js';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Time limit for each request of the call. Default: the client's (60 s). */
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  /** Rounds of input requests answered before giving up. Default 10. */
  maxInputRounds?: number;
  /**
   * Run a tool whose execution.taskSupport is "optional" as a task (2025-11-25 servers; on the modern wire the
   * server decides, and this is ignored). "required" tools always run as tasks; asking it of a tool without task
   * support is an error.
   */
  task?: boolean;
  /** The task lifetime to ask a 2025-11-25 server for. */
  taskTtlMs?: number;
  /** Told of each change of a task's status (and status message) while the call runs as a task. */
  onTaskStatus?: (task: TaskStatus) => void;
  /**
   * This call's own answers to the server's input requests (elicitation, sampling, roots), instead of the client's
   * handlers: the MRTR rounds of the modern wire, a task's input requests, and legacy server→client requests that
   * belong to this call (Streamable HTTP says which call they belong to; on stdio a request the server sends while
   * this is the only call, prompt or read in flight). Capabilities are still the client's: declare them there.
   */
  handlers?: InputHandlers;
  /**
   * Modern wire: the least severe log level this call wants notifications/message for (the request's
   * io.modelcontextprotocol/logLevel). Legacy servers take a level per session (logging/setLevel) instead.
   */
  logLevel?: LoggingLevel;
}

async function approve(
  client: ToolCaller,
  name: string,
  args: JsonObject,
  known: KnownTool | undefined,
): Promise<void> {
  const trusted = client.options.trusted === true;
  const annotations = known?.tool.annotations;
  const { readOnly, destructive } = effectiveAnnotations(annotations, trusted);
  if (readOnly) return;
  const hook = client.options.approve;
  if (hook === 'always') return;
  if (hook === undefined) {
    throw new ApprovalDeniedError(
      name,
      `tool "${name}" is not known to be read-only${trusted ? '' : ' (the server is not marked trusted)'}, and no approval hook is configured; pass approve to the client to confirm calls`,
    );
  }
  const allowed = await hook({
    server: client.serverName,
    serverInfo: client.serverInfo,
    tool: name,
    arguments: args,
    annotations,
    trusted,
    readOnly,
    destructive,
  });
  if (allowed !== true) throw new ApprovalDeniedError(name, `the call to "${name}" was not approved`);
}

export async function callTool(
  client: ToolCaller,
  name: string,
  args: JsonObject,
  options: CallOptions,
): Promise<CallToolOutcome> {
  const started = Date.now();
  let outcome = 'error' as CallOutcomeKind; // widened: the catch block reads what the try block set
  let failure: string | undefined;
  try {
    if (options.signal?.aborted === true) throw new RequestAbortedError('tools/call');
    const known = await client.tools.get(name);
    try {
      await approve(client, name, args, known);
    } catch (error) {
      outcome = 'denied';
      throw error;
    }
    const result = await run(client, name, args, known, options);
    outcome = result.isError === true ? 'tool-error' : 'success';
    return result;
  } catch (error) {
    if (outcome !== 'denied') {
      outcome =
        error instanceof RequestTimeoutError
          ? 'timeout'
          : error instanceof RequestAbortedError
            ? 'cancelled'
            : 'error';
    }
    failure = error instanceof Error ? error.message : String(error);
    throw error;
  } finally {
    const entry = {
      server: client.serverName,
      tool: name,
      arguments: args,
      outcome,
      durationMs: Date.now() - started,
    };
    try {
      client.options.audit?.(failure === undefined ? entry : { ...entry, error: failure });
    } catch (error) {
      client.logger.warn(`audit hook threw: ${(error as Error).message}`);
    }
  }
}

async function run(
  client: ToolCaller,
  name: string,
  args: JsonObject,
  known: KnownTool | undefined,
  options: CallOptions,
): Promise<CallToolOutcome> {
  const headers: Record<string, string> = {};
  if (client.era === 'modern' && known !== undefined) paramHeaders(known.mcpHeaders, args, headers);
  // Sent again after a transient failure only when a trusted server says repeating it does no harm.
  const hints = client.options.trusted === true ? known?.tool.annotations : undefined;
  const requestOptions = {
    headers,
    idempotent: hints?.readOnlyHint === true || hints?.idempotentHint === true,
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
    ...(options.timeoutMs !== undefined && { timeoutMs: options.timeoutMs }),
    resetTimeoutOnProgress: options.resetTimeoutOnProgress ?? client.options.resetTimeoutOnProgress ?? false,
    maxTotalTimeoutMs: options.maxTotalTimeoutMs ?? client.options.maxTotalTimeoutMs ?? 600_000,
    input: { handlers: options.handlers, signal: options.signal },
  };
  const maxRounds = options.maxInputRounds ?? 10;
  const following = {
    maxTotalTimeoutMs: requestOptions.maxTotalTimeoutMs,
    ...(options.signal !== undefined && { signal: options.signal }),
    ...(options.onTaskStatus !== undefined && { onTaskStatus: options.onTaskStatus }),
    ...(options.handlers !== undefined && { handlers: options.handlers }),
  };
  if (asLegacyTask(client, name, known, options)) {
    const call = {
      ...following,
      ...(options.onProgress !== undefined && { onProgress: options.onProgress }),
      ...(options.taskTtlMs !== undefined && { ttlMs: options.taskTtlMs }),
    };
    return callAsLegacyTask(client, name, args, known, call, requestOptions);
  }
  const base: JsonObject = { name, arguments: args };
  if (options.logLevel !== undefined && client.era === 'modern')
    base._meta = { [MetaKey.LogLevel]: options.logLevel };
  let params = base;
  for (let round = 0; ; round++) {
    const result = await client.request(Method.ToolsCall, params, requestOptions);
    const kind = result.resultType ?? 'complete';
    if (kind === 'complete') return finish(client, name, known, result);
    if (kind === 'input_required') {
      if (round >= maxRounds)
        throw new ProtocolError(`tool "${name}" kept asking for input after ${maxRounds} rounds`);
      // The retry is the same call plus the answers, with the state echoed exactly; never reused by other calls.
      params = {
        ...base,
        inputResponses: await answerAll(
          options.handlers ?? client.options.handlers,
          client.serverInfo,
          result.inputRequests,
          options.signal,
        ),
      };
      if (typeof result.requestState === 'string') params.requestState = result.requestState;
      else if (result.requestState !== undefined) throw new ProtocolError('requestState must be a string');
      continue;
    }
    if (kind === 'task' && client.options.tasks !== false && typeof result.taskId === 'string') {
      return followTask(client, name, known, result, following);
    }
    throw new ProtocolError(`tools/call answered with an unknown resultType ${JSON.stringify(kind)}`);
  }
}

/**
 * Whether this call goes out as a 2025-11-25 task: a legacy server that offers task-augmented calls, and a tool
 * that requires it, or allows it and the caller asked. (The modern wire has no such choice: the server decides.)
 */
function asLegacyTask(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  options: CallOptions,
): boolean {
  if (client.era !== 'legacy' || client.options.tasks === false) return false; // the server decides
  const support = known?.tool.execution?.taskSupport ?? 'forbidden';
  if (options.task === true && support === 'forbidden') {
    throw new ProtocolError(
      `tool "${name}" does not run as a task (its execution.taskSupport is "forbidden")`,
    );
  }
  if (!offersToolTasks(client.serverCapabilities)) return false;
  return support === 'required' || (support === 'optional' && options.task === true);
}
