// The three request/response shapes the tool loop speaks (Chat Completions, Responses, Messages), read from plain
// JSON so that the official `openai` and `@anthropic-ai/sdk` clients fit without being imported.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult } from '../protocol/index.js';
import type { OpenAIToolCall, AnthropicToolUse } from './calls.js';
import type { ToolDefinition } from './definitions.js';
import { toAnthropicResult } from './results-anthropic.js';
import { chatAttachmentsMessage, toOpenAIChatResult, toOpenAIResponsesResult } from './results-openai.js';

/**
 * A create() method: a request body and options carrying the abort signal. Method syntax on purpose: its
 * parameters compare both ways, so the SDKs' precise overloads fit this loose shape.
 */
interface Creator {
  create(body: object, options?: { signal?: AbortSignal }): PromiseLike<unknown>;
}

/** The part of an `openai` client the loop uses. */
export interface OpenAILike {
  chat: { completions: Creator };
  responses: Creator;
}

/** The part of an `@anthropic-ai/sdk` client the loop uses. */
export interface AnthropicLike {
  messages: Creator;
}

export type ModelCall =
  | { api: 'openai'; call: OpenAIToolCall }
  | { api: 'anthropic'; call: AnthropicToolUse }
  /** A call the bridge cannot read (another tool type): answered with an error. */
  | { api: 'unknown'; id: string; name: string };

export interface Turn {
  calls: ModelCall[];
  text: string;
}

export interface Dialect {
  /** Sends the transcript and tools; appends the model's answer to the transcript. */
  request(tools: readonly ToolDefinition[], signal: AbortSignal | undefined): Promise<Turn>;
  /** Appends the results of one turn's calls, in order. */
  answer(results: ReadonlyArray<{ id: string; result: CallToolResult }>): void;
}

export class ModelApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelApiError';
  }
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * `withTools` goes into a request only when it has tools: OpenAI refuses `parallel_tool_calls` without them, and
 * strict schemas hold only when calls are not parallel (function-calling guide).
 */
export function chatDialect(
  sdk: OpenAILike,
  base: JsonObject,
  transcript: unknown[],
  withTools: JsonObject = {},
): Dialect {
  return {
    async request(tools, signal) {
      const body: JsonObject = {
        ...base,
        messages: transcript,
        ...(tools.length > 0 ? { ...withTools, tools } : {}),
      };
      const response = await sdk.chat.completions.create(body, signal === undefined ? {} : { signal });
      const choice = isJsonObject(response) ? asArray(response.choices)[0] : undefined;
      const message = isJsonObject(choice) ? choice.message : undefined;
      if (!isJsonObject(message))
        throw new ModelApiError('the Chat Completions answer has no choices[0].message');
      const calls: ModelCall[] = [];
      const toolCalls: JsonObject[] = [];
      for (const call of asArray(message.tool_calls)) {
        if (!isJsonObject(call)) continue;
        const fn = call.function;
        if (call.type === 'function' && isJsonObject(fn)) {
          const clean = {
            id: str(call.id),
            type: 'function',
            function: { name: str(fn.name), arguments: str(fn.arguments) },
          };
          toolCalls.push(clean);
          calls.push({ api: 'openai', call: clean });
        } else {
          toolCalls.push(call);
          calls.push({
            api: 'unknown',
            id: str(call.id),
            name: str(isJsonObject(call.custom) ? call.custom.name : ''),
          });
        }
      }
      const content = typeof message.content === 'string' ? message.content : null;
      transcript.push({
        role: 'assistant',
        content,
        ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
      });
      return { calls, text: content ?? '' };
    },
    answer(results) {
      const mapped = results.map(({ id, result }) => toOpenAIChatResult(result, id));
      for (const entry of mapped) transcript.push(entry.message);
      const attachments = chatAttachmentsMessage(mapped);
      if (attachments !== undefined) transcript.push(attachments);
    },
  };
}

export function responsesDialect(
  sdk: OpenAILike,
  base: JsonObject,
  transcript: unknown[],
  withTools: JsonObject = {},
): Dialect {
  return {
    async request(tools, signal) {
      const body: JsonObject = {
        ...base,
        input: transcript,
        ...(tools.length > 0 ? { ...withTools, tools } : {}),
      };
      const response = await sdk.responses.create(body, signal === undefined ? {} : { signal });
      if (!isJsonObject(response) || !Array.isArray(response.output)) {
        throw new ModelApiError('the Responses answer has no output list');
      }
      const calls: ModelCall[] = [];
      const texts: string[] = [];
      for (const item of response.output) {
        if (!isJsonObject(item)) continue;
        transcript.push(item); // every output item goes back as input, reasoning items included
        if (item.type === 'function_call') {
          calls.push({
            api: 'openai',
            call: {
              type: 'function_call',
              call_id: str(item.call_id),
              name: str(item.name),
              arguments: str(item.arguments),
            },
          });
        } else if (item.type === 'custom_tool_call') {
          calls.push({ api: 'unknown', id: str(item.call_id), name: str(item.name) });
        } else if (item.type === 'message') {
          for (const part of asArray(item.content)) {
            if (isJsonObject(part) && part.type === 'output_text') texts.push(str(part.text));
          }
        }
      }
      return { calls, text: texts.join('') };
    },
    answer(results) {
      for (const { id, result } of results) transcript.push(toOpenAIResponsesResult(result, id));
    },
  };
}

export function anthropicDialect(sdk: AnthropicLike, base: JsonObject, transcript: unknown[]): Dialect {
  return {
    async request(tools, signal) {
      const body: JsonObject = { ...base, messages: transcript, ...(tools.length > 0 ? { tools } : {}) };
      const response = await sdk.messages.create(body, signal === undefined ? {} : { signal });
      if (!isJsonObject(response) || !Array.isArray(response.content)) {
        throw new ModelApiError('the Messages answer has no content list');
      }
      transcript.push({ role: 'assistant', content: response.content });
      const calls: ModelCall[] = [];
      const texts: string[] = [];
      for (const block of response.content) {
        if (!isJsonObject(block)) continue;
        if (block.type === 'tool_use') {
          calls.push({
            api: 'anthropic',
            call: { id: str(block.id), name: str(block.name), input: block.input },
          });
        } else if (block.type === 'text') texts.push(str(block.text));
      }
      return { calls, text: texts.join('') };
    },
    answer(results) {
      if (results.length === 0) return;
      transcript.push({
        role: 'user',
        content: results.map(({ id, result }) => toAnthropicResult(result, id)),
      });
    },
  };
}
