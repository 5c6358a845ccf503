// A small tool loop: ask the model, run the tools it calls through toolwire's client, answer, repeat, until it
// stops calling tools or maxSteps is reached. Works with the official `openai` and `@anthropic-ai/sdk` clients.

import type { CallOptions } from '../client/index.js';
import type { JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, ToolAnnotations } from '../protocol/index.js';
import { ToolBridge } from './bridge.js';
import type { PreparedCall, ToolClient } from './calls.js';
import {
  anthropicDialect,
  chatDialect,
  responsesDialect,
  type AnthropicLike,
  type Dialect,
  type ModelCall,
  type OpenAILike,
} from './dialects.js';
import { profile as profileFor, type ProfileId } from './profiles.js';
import type { CompileReport } from './report.js';

export interface RunApprovalRequest {
  /** The MCP tool's name, and the name the model used. */
  tool: string;
  providerName: string;
  arguments: JsonObject;
  annotations: ToolAnnotations | undefined;
}

export interface RunToolsOptions {
  /** toolwire's MCP client (McpClient): lists and calls the tools, with its own approval hook and audit. */
  client: ToolClient;
  /** An `openai` or `@anthropic-ai/sdk` client, or anything with the same create() methods. */
  provider: OpenAILike | AnthropicLike;
  /** Which API and mode. Default: 'openai-chat' for an OpenAI client, 'anthropic' for an Anthropic one. */
  profile?: ProfileId;
  model: string;
  /** The conversation so far, in the API's own shape (Chat/Messages messages, or Responses input items). */
  messages: readonly unknown[];
  /** Model requests at most (each followed by the tool calls it asked for). Default 8. */
  maxSteps?: number;
  /** Asked before each call; false answers the model that the call was not approved. */
  approve?: (request: RunApprovalRequest) => boolean | Promise<boolean>;
  signal?: AbortSignal;
  /** Anthropic's max_tokens. Default 1024. */
  maxTokens?: number;
  /** More request fields (system, instructions, temperature...), sent with every request. */
  params?: JsonObject;
  /** Per-call options for the client (time limit, progress). */
  callOptions?: Omit<CallOptions, 'signal'>;
  /** Tool calls run per model answer at most; the rest are answered with an error. Default 16. */
  maxCallsPerStep?: number;
}

export interface RunCallRecord {
  id: string;
  providerName: string;
  /** The MCP tool called; undefined when the call never reached a tool (unknown name, invalid arguments...). */
  tool: string | undefined;
  arguments: JsonObject | undefined;
  result: CallToolResult;
}

export interface RunToolsResult {
  /** The whole conversation: the input messages, then every message or item added, in the API's shape. */
  messages: unknown[];
  steps: number;
  /** 'done': the model answered without calling a tool; 'max-steps': it was still calling tools. */
  stopReason: 'done' | 'max-steps';
  /** The model's last text. */
  text: string;
  calls: RunCallRecord[];
  /** How the tool list was converted (the last compilation). */
  report: CompileReport;
}

/** Thrown when the signal aborts the run; the transcript so far comes with it. */
export class RunAbortedError extends Error {
  readonly transcript: unknown[];
  constructor(transcript: unknown[]) {
    super('the tool run was aborted');
    this.name = 'RunAbortedError';
    this.transcript = transcript;
  }
}

const isAnthropic = (provider: OpenAILike | AnthropicLike): provider is AnthropicLike =>
  'messages' in provider && typeof provider.messages?.create === 'function' && !('chat' in provider);

function dialectFor(options: RunToolsOptions, id: ProfileId, transcript: unknown[]): Dialect {
  const base: JsonObject = { ...options.params, model: options.model };
  const p = profileFor(id);
  const { provider } = options;
  if (p.api === 'messages') {
    if (!isAnthropic(provider))
      throw new TypeError(`profile ${id} needs an Anthropic client (messages.create)`);
    return anthropicDialect(provider, { max_tokens: options.maxTokens ?? 1024, ...base }, transcript);
  }
  if (isAnthropic(provider)) throw new TypeError(`profile ${id} needs an OpenAI client`);
  // Strict schemas hold only for calls that are not parallel (OpenAI's function-calling guide); params may differ.
  const withTools: JsonObject =
    p.strict && options.params?.parallel_tool_calls === undefined ? { parallel_tool_calls: false } : {};
  return p.api === 'chat'
    ? chatDialect(provider, base, transcript, withTools)
    : responsesDialect(provider, base, transcript, withTools);
}

async function prepare(bridge: ToolBridge, call: ModelCall): Promise<PreparedCall> {
  switch (call.api) {
    case 'openai':
      return bridge.fromOpenAI(call.call);
    case 'anthropic':
      return bridge.fromAnthropic(call.call);
    case 'unknown':
      return {
        ok: false,
        id: call.id,
        providerName: call.name,
        error: `"${call.name}" is not one of the MCP tools.`,
      };
  }
}

/** The result for one call: refused by `approve`, or run through the client. */
async function answer(
  bridge: ToolBridge,
  prepared: PreparedCall,
  options: RunToolsOptions,
): Promise<CallToolResult> {
  const callOptions = {
    ...options.callOptions,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  };
  if (prepared.ok && options.approve !== undefined) {
    const allowed = await options.approve({
      tool: prepared.tool,
      providerName: prepared.providerName,
      arguments: prepared.arguments,
      annotations: prepared.compiled.tool.annotations,
    });
    if (!allowed) {
      const text = `The call to "${prepared.providerName}" was not approved by the user.`;
      return { content: [{ type: 'text', text }], isError: true };
    }
  }
  return bridge.run(prepared, callOptions);
}

export async function runTools(options: RunToolsOptions): Promise<RunToolsResult> {
  const id = options.profile ?? (isAnthropic(options.provider) ? 'anthropic' : 'openai-chat');
  const maxSteps = options.maxSteps ?? 8;
  if (!Number.isInteger(maxSteps) || maxSteps < 1)
    throw new RangeError(`maxSteps must be a positive integer, got ${maxSteps}`);
  const maxCalls = options.maxCallsPerStep ?? 16;
  const { client, signal } = options;
  const transcript: unknown[] = [...options.messages];
  const dialect = dialectFor(options, id, transcript);
  const calls: RunCallRecord[] = [];
  const aborted = (): boolean => signal?.aborted === true;
  let bridge: ToolBridge | undefined;
  const finish = (
    step: number,
    stopReason: RunToolsResult['stopReason'],
    text: string,
    report: CompileReport,
  ): RunToolsResult => ({
    messages: transcript,
    steps: step,
    stopReason,
    text,
    calls,
    report,
  });
  try {
    if (aborted()) throw new RunAbortedError(transcript);
    bridge = await ToolBridge.create(client, id, signal === undefined ? {} : { signal });
    for (let step = 1; ; step++) {
      if (aborted()) throw new RunAbortedError(transcript);
      if (bridge.stale) await bridge.refresh(signal === undefined ? {} : { signal }); // list_changed since the last turn
      const turn = await dialect.request(bridge.definitions, signal);
      if (turn.calls.length === 0) return finish(step, 'done', turn.text, bridge.report);
      const answers: Array<{ id: string; result: CallToolResult }> = [];
      for (const [index, call] of turn.calls.entries()) {
        if (aborted()) throw new RunAbortedError(transcript);
        let prepared = await prepare(bridge, call);
        if (index >= maxCalls) {
          // A model answer is untrusted input: it does not get to run an unbounded number of tools at once.
          const error = `Not run: at most ${maxCalls} tool calls are run per answer; call it again in the next turn.`;
          prepared = { ok: false, id: prepared.id, providerName: prepared.providerName, error };
        }
        const result = await answer(bridge, prepared, options);
        answers.push({ id: prepared.id, result });
        calls.push({
          id: prepared.id,
          providerName: prepared.providerName,
          tool: prepared.ok ? prepared.tool : undefined,
          arguments: prepared.ok ? prepared.arguments : undefined,
          result,
        });
      }
      dialect.answer(answers);
      if (step >= maxSteps) return finish(step, 'max-steps', turn.text, bridge.report);
    }
  } catch (error) {
    if (aborted() && !(error instanceof RunAbortedError)) throw new RunAbortedError(transcript);
    throw error;
  } finally {
    bridge?.close();
  }
}
