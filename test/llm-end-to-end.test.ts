// The bridge end to end without network: the official `openai` and `@anthropic-ai/sdk` clients, pointed at a fake
// model API on loopback that scripts tool calls, drive runTools, which calls real toolwire tools in process.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { runTools, startFakeModelApi, type FakeModelApi } from '../src/llm/index.js';
import { PNG, startShop, type Shop } from './llm-shop.js';

const TEST_MS = 30_000;
const DATA_URL = `data:image/png;base64,${PNG}`;

let shop: Shop;
const fakes: FakeModelApi[] = [];
before(async () => {
  shop = await startShop();
});
after(async () => {
  await shop.close();
  await Promise.all(fakes.map((fake) => fake.close()));
});

const openai = (fake: FakeModelApi): OpenAI =>
  new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: 'test', maxRetries: 0 });
const anthropic = (fake: FakeModelApi): Anthropic =>
  new Anthropic({ baseURL: fake.url, apiKey: 'test', maxRetries: 0 });
async function fake(script: Parameters<typeof startFakeModelApi>[0]): Promise<FakeModelApi> {
  const api = await startFakeModelApi(script);
  fakes.push(api);
  return api;
}

describe('runTools through the official OpenAI client, Chat Completions (strict)', () => {
  it(
    'calls the tools, carries the image and the error back, and stops when the model answers',
    { timeout: TEST_MS },
    async () => {
      shop.received.length = 0;
      const api = await fake([
        { toolCalls: [{ name: 'add', arguments: { a: 2, b: 3, 'round[to]': null } }] },
        {
          toolCalls: [
            { name: 'chart_render', arguments: { title: null } },
            { name: 'fail', arguments: {} },
          ],
        },
        { text: 'The sum is 5.' },
      ]);
      const run = await runTools({
        client: shop.client,
        provider: openai(api),
        profile: 'openai-chat-strict',
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Add 2 and 3, then draw it.' }],
      });
      assert.equal(run.stopReason, 'done');
      assert.equal(run.steps, 3);
      assert.equal(run.text, 'The sum is 5.');
      // The nulls strict mode added are gone before the server sees the call.
      assert.deepEqual(shop.received, [
        { tool: 'add', arguments: { a: 2, b: 3 } },
        { tool: 'chart.render', arguments: {} },
        { tool: 'fail', arguments: {} },
      ]);
      const [first, second, third] = api.requests.map((request) => request.body);
      const add = (
        first?.tools as Array<{ function: { name: string; strict: boolean; parameters: unknown } }>
      ).find((tool) => tool.function.name === 'add');
      assert.deepEqual(add?.function.parameters, {
        type: 'object',
        properties: {
          a: { type: 'number' },
          b: { type: 'number' },
          'round[to]': { type: ['integer', 'null'], minimum: 0, description: 'Decimals to keep' },
        },
        required: ['a', 'b', 'round[to]'],
        additionalProperties: false,
      });
      assert.equal(add?.function.strict, true);
      assert.equal(
        first?.parallel_tool_calls,
        false,
        'strict schemas hold only for calls that are not parallel',
      );
      assert.deepEqual((second?.messages as unknown[]).slice(1), [
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1_1',
              type: 'function',
              function: { name: 'add', arguments: '{"a":2,"b":3,"round[to]":null}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1_1', content: '{"sum":5}' },
      ]);
      assert.deepEqual((third?.messages as unknown[]).slice(4), [
        {
          role: 'tool',
          tool_call_id: 'call_2_1',
          content: 'Here is the chart.\n\n[image 1 (image/png) follows in the next user message]',
        },
        { role: 'tool', tool_call_id: 'call_2_2', content: 'Error: the disk is full' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Attachments returned by tool call call_2_1:' },
            { type: 'image_url', image_url: { url: DATA_URL } },
          ],
        },
      ]);
      assert.deepEqual(run.messages, [
        ...(third?.messages as unknown[]),
        { role: 'assistant', content: 'The sum is 5.' },
      ]);
    },
  );
});

describe('runTools through the official OpenAI client, Responses', () => {
  it(
    'sends flat tools with strict false, and images as input_image data URLs',
    { timeout: TEST_MS },
    async () => {
      const api = await fake([
        {
          toolCalls: [
            { name: 'chart_render', arguments: { title: 'Sales' } },
            { name: 'fail', arguments: {} },
          ],
        },
        { text: 'Done.' },
      ]);
      const run = await runTools({
        client: shop.client,
        provider: openai(api),
        profile: 'openai-responses',
        model: 'gpt-test',
        messages: [{ role: 'user', content: 'Draw the sales chart.' }],
      });
      assert.equal(run.text, 'Done.');
      const [first, second] = api.requests;
      assert.equal(first?.path, '/v1/responses');
      assert.equal(first?.body.parallel_tool_calls, undefined, 'not strict: the API default stands');
      const tools = first?.body.tools as Array<{ type: string; name: string; strict: boolean }>;
      assert.deepEqual(
        tools.map((tool) => [tool.type, tool.name, tool.strict]),
        [
          ['function', 'add', false],
          ['function', 'chart_render', false],
          ['function', 'fail', false],
        ],
      );
      const input = second?.body.input as Array<{ type?: string }>;
      assert.deepEqual(
        input.filter((item) => item.type === 'function_call_output'),
        [
          {
            type: 'function_call_output',
            call_id: 'call_1_1',
            output: [
              { type: 'input_text', text: 'Here is the chart.' },
              { type: 'input_image', image_url: DATA_URL, detail: 'auto' },
            ],
          },
          { type: 'function_call_output', call_id: 'call_1_2', output: 'Error: the disk is full' },
        ],
      );
    },
  );
});

describe('runTools through the official Anthropic client, Messages', () => {
  it(
    'renames bracketed keys, restores them for the server, and sends image blocks and is_error',
    { timeout: TEST_MS },
    async () => {
      shop.received.length = 0;
      const api = await fake([
        {
          text: 'Let me compute.',
          toolCalls: [
            { name: 'add', arguments: { a: 1.25, b: 2, round_to_: 1 } },
            { name: 'chart_render', arguments: {} },
            { name: 'fail', arguments: {} },
          ],
        },
        { text: 'All done.' },
      ]);
      const run = await runTools({
        client: shop.client,
        provider: anthropic(api),
        model: 'claude-test',
        messages: [{ role: 'user', content: 'Go.' }],
      });
      assert.equal(run.text, 'All done.');
      assert.deepEqual(shop.received[0], { tool: 'add', arguments: { a: 1.25, b: 2, 'round[to]': 1 } });
      const [first, second] = api.requests;
      assert.equal(first?.path, '/v1/messages');
      assert.equal(first?.body.max_tokens, 1024);
      const add = (first?.body.tools as Array<{ name: string; input_schema: { properties: object } }>)[0];
      assert.deepEqual(Object.keys(add?.input_schema.properties ?? {}), ['a', 'b', 'round_to_']);
      const messages = second?.body.messages as Array<{ role: string; content: unknown }>;
      assert.deepEqual(messages[2], {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'toolu_call_1_1',
            content: [{ type: 'text', text: '{"sum":3.25}' }],
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_call_1_2',
            content: [
              { type: 'text', text: 'Here is the chart.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
          {
            type: 'tool_result',
            tool_use_id: 'toolu_call_1_3',
            content: [{ type: 'text', text: 'the disk is full' }],
            is_error: true,
          },
        ],
      });
    },
  );
});
