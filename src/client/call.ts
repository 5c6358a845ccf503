// Calling one tool: approval, the MRTR loop (input requests answered, then a retry with a new id and the state
// echoed as it came), task results followed to the end, output validation, and one audit entry per call.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { Method, type CallToolResult } from '../protocol/index.js';
import { formatIssues } from '../schema/index.js';
import type { Progress } from './channel.js';
import {
  ApprovalDeniedError,
  McpError,
  OutputValidationError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
} from './errors.js';
import { paramHeaders } from './headers.js';
import { answerAll } from './input.js';
import { effectiveAnnotations, type CallOutcomeKind } from './policy.js';
import type { ClientSession } from './session.js';
import type { KnownTool, ToolCache } from './tools.js';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (progress: Progress) => void;
  /** Time limit for each request of the call. Default: the client's (60 s). */
  timeoutMs?: number;
  resetTimeoutOnProgress?: boolean;
  maxTotalTimeoutMs?: number;
  /** Rounds of input requests answered before giving up. Default 10. */
  maxInputRounds?: number;
}

/** The tool's result, plus how it was produced. */
export interface CallToolOutcome extends CallToolResult {
  /** Set when the call ran as a task (tasks extension). */
  taskId?: string;
}

/** What a call needs of the client: the session, and the tool cache that shapes the call and checks its output. */
export interface ToolCaller extends ClientSession {
  readonly tools: ToolCache;
}

const sleep = (ms: number, signal: AbortSignal | undefined): Promise<void> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(new RequestAbortedError('tools/call'));
      },
      { once: true },
    );
  });

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
  };
  const maxRounds = options.maxInputRounds ?? 10;
  let params: JsonObject = { name, arguments: args };
  for (let round = 0; ; round++) {
    const result = await client.request(Method.ToolsCall, params, requestOptions);
    const kind = result.resultType ?? 'complete';
    if (kind === 'complete') return finish(client, name, known, result);
    if (kind === 'input_required') {
      if (round >= maxRounds)
        throw new ProtocolError(`tool "${name}" kept asking for input after ${maxRounds} rounds`);
      // The retry is the same call plus the answers, with the state echoed exactly; never reused by other calls.
      params = {
        name,
        arguments: args,
        inputResponses: await answerAll(
          client.options.handlers,
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
      return followTask(client, name, known, result.taskId, options.signal);
    }
    throw new ProtocolError(`tools/call answered with an unknown resultType ${JSON.stringify(kind)}`);
  }
}

/** Polls tasks/get (as often as the server suggests) until the task ends; answers its input requests on the way. */
async function followTask(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  taskId: string,
  signal: AbortSignal | undefined,
): Promise<CallToolOutcome> {
  const answered = new Set<string>();
  try {
    for (;;) {
      const task = await client.request('tasks/get', { taskId }, signal === undefined ? {} : { signal });
      switch (task.status) {
        case 'completed':
          if (!isJsonObject(task.result))
            throw new ProtocolError(`task ${taskId} completed without a result`);
          return { ...(await finish(client, name, known, task.result)), taskId };
        case 'failed': {
          const error = isJsonObject(task.error) ? task.error : { code: -32603, message: 'the task failed' };
          throw new McpError({ code: Number(error.code), message: String(error.message), data: error.data });
        }
        case 'cancelled':
          throw new RequestAbortedError(`task ${taskId} of tool "${name}"`);
        case 'input_required': {
          const pending = isJsonObject(task.inputRequests) ? task.inputRequests : {};
          const fresh = Object.fromEntries(Object.entries(pending).filter(([key]) => !answered.has(key)));
          if (Object.keys(fresh).length > 0) {
            const responses = await answerAll(client.options.handlers, client.serverInfo, fresh, signal);
            for (const key of Object.keys(responses)) answered.add(key);
            await client.request('tasks/update', { taskId, inputResponses: responses });
            continue;
          }
          break;
        }
        case 'working':
          break;
        default:
          throw new ProtocolError(`task ${taskId} has an unknown status ${JSON.stringify(task.status)}`);
      }
      const interval = typeof task.pollIntervalMs === 'number' ? task.pollIntervalMs : 1000;
      await sleep(Math.min(Math.max(interval, 50), 30_000), signal);
    }
  } catch (error) {
    if (error instanceof RequestAbortedError && signal?.aborted === true) {
      await client.request('tasks/cancel', { taskId }).catch(() => undefined);
    }
    throw error;
  }
}

async function finish(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  result: JsonObject,
): Promise<CallToolOutcome> {
  if (!Array.isArray(result.content))
    throw new ProtocolError(`tools/call of "${name}" answered without a content array`);
  const { resultType: _type, ...rest } = result;
  const outcome = rest as unknown as CallToolOutcome; // content checked above; the rest is the server's
  if (client.options.validateOutput === 'off' || known === undefined || outcome.isError === true)
    return outcome;
  const validator = client.tools.outputValidator(known);
  if (validator === null) return outcome;
  if (outcome.structuredContent === undefined) {
    throw new OutputValidationError(
      name,
      `tool "${name}" declares an outputSchema but returned no structuredContent`,
      outcome,
    );
  }
  const checked = await validator.validate(outcome.structuredContent);
  if (!checked.ok) {
    throw new OutputValidationError(
      name,
      formatIssues(checked.issues, `structuredContent of tool "${name}" does not match its outputSchema`),
      outcome,
    );
  }
  return outcome;
}
