// Type checks against the official SDKs (devDependencies): what the bridge produces is accepted by `openai` and
// `@anthropic-ai/sdk` request types, and what they return is accepted by the bridge. `tsc --noEmit` is the test;
// the run-time part only confirms the values are what the types say.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import {
  chatAttachmentsMessage,
  compileTools,
  fromAnthropic,
  fromOpenAI,
  toAnthropicResult,
  toOpenAIChatResult,
  toOpenAIResponsesResult,
  type AnthropicLike,
  type OpenAILike,
} from '../src/llm/index.js';
import type { CallToolResult, Tool } from '../src/protocol/index.js';
import { PNG } from './llm-shop.js';

const tools: Tool[] = [
  {
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' } }, required: ['a'] },
  },
];
const result: CallToolResult = {
  content: [
    { type: 'text', text: 'ok' },
    { type: 'image', mimeType: 'image/png', data: PNG },
    { type: 'resource', resource: { uri: 'file:///a.pdf', mimeType: 'application/pdf', blob: 'JVBERi0=' } },
    { type: 'resource', resource: { uri: 'file:///a.txt', mimeType: 'text/plain', text: 'hello' } },
  ],
  structuredContent: { ok: true },
};

it('compiled definitions are the SDKs’ tool types', () => {
  const chat: OpenAI.Chat.Completions.ChatCompletionTool[] = compileTools(tools, 'openai-chat').definitions;
  const chatStrict: OpenAI.Chat.Completions.ChatCompletionTool[] = compileTools(
    tools,
    'openai-chat-strict',
  ).definitions;
  const responses: OpenAI.Responses.Tool[] = compileTools(tools, 'openai-responses').definitions;
  const responsesStrict: OpenAI.Responses.FunctionTool[] = compileTools(
    tools,
    'openai-responses-strict',
  ).definitions;
  const messages: Anthropic.Messages.Tool[] = compileTools(tools, 'anthropic').definitions;
  const messagesStrict: Anthropic.Messages.ToolUnion[] = compileTools(tools, 'anthropic-strict').definitions;
  assert.equal(chat.length + chatStrict.length + responses.length + responsesStrict.length, 4);
  assert.equal(messages.length + messagesStrict.length, 2);
});

it('mapped results are the SDKs’ tool-result message types', () => {
  const chat = toOpenAIChatResult(result, 'call_1');
  const toolMessage: OpenAI.Chat.Completions.ChatCompletionToolMessageParam = chat.message;
  const attachments: OpenAI.Chat.Completions.ChatCompletionUserMessageParam | undefined =
    chatAttachmentsMessage([chat]);
  const history: OpenAI.Chat.Completions.ChatCompletionMessageParam[] = [
    toolMessage,
    ...(attachments ? [attachments] : []),
  ];
  const output: OpenAI.Responses.ResponseInputItem.FunctionCallOutput = toOpenAIResponsesResult(
    result,
    'call_1',
  );
  const input: OpenAI.Responses.ResponseInput = [output];
  const block: Anthropic.Messages.ToolResultBlockParam = toAnthropicResult(result, 'toolu_1');
  const turn: Anthropic.Messages.MessageParam = { role: 'user', content: [block] };
  assert.equal(history.length, 2);
  assert.equal(input.length, 1);
  assert.equal(turn.role, 'user');
});

it('the SDKs’ tool calls are what fromOpenAI and fromAnthropic read, and the clients fit runTools', async () => {
  const chatCall: OpenAI.Chat.Completions.ChatCompletionMessageFunctionToolCall = {
    id: 'call_1',
    type: 'function',
    function: { name: 'add', arguments: '{"a":1}' },
  };
  const responsesCall: OpenAI.Responses.ResponseFunctionToolCall = {
    type: 'function_call',
    call_id: 'call_2',
    name: 'add',
    arguments: '{"a":2}',
  };
  const toolUse: Anthropic.Messages.ToolUseBlock = {
    type: 'tool_use',
    id: 'toolu_1',
    name: 'add',
    input: { a: 3 },
    caller: { type: 'direct' },
  };
  const openai = compileTools(tools, 'openai-chat');
  const prepared = [
    await fromOpenAI(openai, chatCall),
    await fromOpenAI(openai, responsesCall),
    await fromAnthropic(compileTools(tools, 'anthropic'), toolUse),
  ];
  assert.deepEqual(
    prepared.map((call) => call.ok && call.arguments),
    [{ a: 1 }, { a: 2 }, { a: 3 }],
  );
  const clients = (openaiClient: OpenAI, anthropicClient: Anthropic): [OpenAILike, AnthropicLike] => [
    openaiClient,
    anthropicClient,
  ];
  assert.equal(typeof clients, 'function');
});
