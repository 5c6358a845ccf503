// runTools' contract, through the official OpenAI client and a fake model API: maxSteps, abort, a tool list that
// changes mid-run, the approval hooks (runTools' and the client's), and calls the model gets wrong.

import assert from 'node:assert/strict';
import { after, afterEach, describe, it } from 'node:test';
import OpenAI from 'openai';
import {
  RunAbortedError,
  runTools,
  startFakeModelApi,
  type FakeModelApi,
  type FakeReply,
} from '../src/llm/index.js';
import { startShop, type Shop } from './llm-shop.js';

const TEST_MS = 30_000;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});
after(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function setup(
  script: FakeReply[] | (() => FakeReply),
  approveAll = true,
): Promise<{ shop: Shop; api: FakeModelApi; openai: OpenAI }> {
  const shop = await startShop({}, approveAll);
  const api = await startFakeModelApi(script);
  closers.push(
    () => shop.close(),
    () => api.close(),
  );
  return { shop, api, openai: new OpenAI({ baseURL: `${api.url}/v1`, apiKey: 'test', maxRetries: 0 }) };
}

const user = [{ role: 'user', content: 'go' }];
const toolMessages = (body: Record<string, unknown> | undefined): unknown[] =>
  (body?.messages as Array<{ role: string }>).filter((message) => message.role === 'tool');

describe('runTools', () => {
  it(
    'stops after maxSteps while the model still calls tools, with a transcript that can go on',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup(() => ({
        toolCalls: [{ name: 'add', arguments: { a: 1, b: 1 } }],
      }));
      const run = await runTools({
        client: shop.client,
        provider: openai,
        model: 'm',
        messages: user,
        maxSteps: 2,
      });
      assert.equal(run.stopReason, 'max-steps');
      assert.equal(run.steps, 2);
      assert.equal(api.requests.length, 2);
      assert.equal(shop.received.length, 2);
      assert.deepEqual(run.messages.at(-1), { role: 'tool', tool_call_id: 'call_2_1', content: '{"sum":2}' });
      await assert.rejects(
        runTools({ client: shop.client, provider: openai, model: 'm', messages: user, maxSteps: 0 }),
        {
          name: 'RangeError',
          message: 'maxSteps must be a positive integer, got 0',
        },
      );
    },
  );

  it(
    'an abort during a tool call stops the run with RunAbortedError and the transcript so far',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup([
        { toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 } }] },
        { text: 'never' },
      ]);
      const controller = new AbortController();
      const run = runTools({
        client: shop.client,
        provider: openai,
        model: 'm',
        messages: user,
        signal: controller.signal,
        approve: () => {
          controller.abort();
          return true;
        },
      });
      const error = await run.then(
        () => assert.fail('the run should have been aborted'),
        (caught: unknown) => caught,
      );
      assert.ok(error instanceof RunAbortedError);
      assert.equal(error.message, 'the tool run was aborted');
      assert.equal(error.transcript.length, 2, 'the user message and the model’s tool call');
      assert.equal(api.requests.length, 1);
      assert.deepEqual(shop.received, []);
    },
  );

  it(
    'an abort while the model API is answering rejects with RunAbortedError',
    { timeout: TEST_MS },
    async () => {
      const controller = new AbortController();
      const { shop, api, openai } = await setup(() => {
        controller.abort(); // the request is in flight: the SDK's fetch is cancelled before this reply is written
        return { text: 'too late' };
      });
      await assert.rejects(
        runTools({
          client: shop.client,
          provider: openai,
          model: 'm',
          messages: user,
          signal: controller.signal,
        }),
        (error: unknown) => error instanceof RunAbortedError && error.transcript.length === 1,
      );
      assert.equal(api.requests.length, 1);
    },
  );

  it(
    'a profile for the other provider’s client is refused before anything is sent',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup([{ text: 'never' }]);
      await assert.rejects(
        runTools({ client: shop.client, provider: openai, profile: 'anthropic', model: 'm', messages: user }),
        {
          name: 'TypeError',
          message: 'profile anthropic needs an Anthropic client (messages.create)',
        },
      );
      await assert.rejects(
        runTools({
          client: shop.client,
          provider: openai,
          profile: 'gemini' as 'anthropic',
          model: 'm',
          messages: user,
        }),
        {
          name: 'TypeError',
          message:
            'unknown model API profile "gemini"; use one of openai-chat, openai-chat-strict, openai-responses, openai-responses-strict, anthropic, anthropic-strict',
        },
      );
      assert.equal(api.requests.length, 0);
    },
  );

  it('an already aborted signal sends nothing', { timeout: TEST_MS }, async () => {
    const { shop, api, openai } = await setup([{ text: 'never' }]);
    await assert.rejects(
      runTools({
        client: shop.client,
        provider: openai,
        model: 'm',
        messages: user,
        signal: AbortSignal.abort(),
      }),
      { name: 'RunAbortedError' },
    );
    assert.equal(api.requests.length, 0);
  });

  it(
    'a tool list that changes during the run is listed again before the next request',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup([
        { toolCalls: [{ name: 'unlock', arguments: {} }] },
        { toolCalls: [{ name: 'secret', arguments: {} }] },
        { text: 'done' },
      ]);
      const changed = new Promise<void>((resolve) => shop.client.onToolsChanged(resolve));
      shop.server.tool({
        name: 'unlock',
        inputSchema: { type: 'object' },
        handler: async () => {
          shop.server.tool({
            name: 'secret',
            inputSchema: { type: 'object' },
            handler: () => 'the secret is 42',
          });
          await changed; // the client has heard of the new tool before this call returns
          return 'unlocked';
        },
      });
      const run = await runTools({ client: shop.client, provider: openai, model: 'm', messages: user });
      const names = api.requests.map((request) =>
        (request.body.tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name),
      );
      assert.ok(!names[0]?.includes('secret'));
      assert.ok(names[1]?.includes('secret'));
      assert.deepEqual(
        run.calls.map((call) => [call.tool, call.result.content]),
        [
          ['unlock', [{ type: 'text', text: 'unlocked' }]],
          ['secret', [{ type: 'text', text: 'the secret is 42' }]],
        ],
      );
    },
  );

  it(
    'a call runTools’ approve hook refuses is answered as an error and never reaches the tool',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup([
        { toolCalls: [{ name: 'fail', arguments: {} }] },
        { text: 'ok' },
      ]);
      const asked: unknown[] = [];
      await runTools({
        client: shop.client,
        provider: openai,
        model: 'm',
        messages: user,
        approve: (request) => {
          asked.push(request);
          return false;
        },
      });
      assert.deepEqual(asked, [
        { tool: 'fail', providerName: 'fail', arguments: {}, annotations: undefined },
      ]);
      assert.deepEqual(shop.received, []);
      assert.deepEqual(toolMessages(api.requests[1]?.body), [
        {
          role: 'tool',
          tool_call_id: 'call_1_1',
          content: 'Error: The call to "fail" was not approved by the user.',
        },
      ]);
    },
  );

  it(
    'the client’s own approval rules still apply (no hook: only read-only tools of a trusted server run)',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup(
        [{ toolCalls: [{ name: 'fail', arguments: {} }] }, { text: 'ok' }],
        false,
      );
      await runTools({ client: shop.client, provider: openai, model: 'm', messages: user });
      assert.deepEqual(shop.received, []);
      assert.deepEqual(toolMessages(api.requests[1]?.body), [
        {
          role: 'tool',
          tool_call_id: 'call_1_1',
          content:
            'Error: The call to "fail" failed: tool "fail" is not known to be read-only (the server is not marked trusted), and no approval hook is configured; pass approve to the client to confirm calls',
        },
      ]);
    },
  );

  it(
    'a model answer with more tool calls than maxCallsPerStep runs only the first ones',
    { timeout: TEST_MS },
    async () => {
      const many = Array.from({ length: 4 }, (_, i) => ({ name: 'add', arguments: { a: i, b: 0 } }));
      const { shop, api, openai } = await setup([{ toolCalls: many }, { text: 'ok' }]);
      await runTools({
        client: shop.client,
        provider: openai,
        model: 'm',
        messages: user,
        maxCallsPerStep: 2,
      });
      assert.equal(shop.received.length, 2);
      const refused =
        'Error: Not run: at most 2 tool calls are run per answer; call it again in the next turn.';
      assert.deepEqual(toolMessages(api.requests[1]?.body).slice(2), [
        { role: 'tool', tool_call_id: 'call_1_3', content: refused },
        { role: 'tool', tool_call_id: 'call_1_4', content: refused },
      ]);
    },
  );

  it(
    'D5 unknown tools and invalid arguments are answered so the model can fix its call; nothing runs',
    { timeout: TEST_MS },
    async () => {
      const { shop, api, openai } = await setup([
        {
          toolCalls: [
            { name: 'nope', arguments: {} },
            { name: 'add', arguments: { a: 'two', b: 2 } },
          ],
        },
        { text: 'sorry' },
      ]);
      const run = await runTools({ client: shop.client, provider: openai, model: 'm', messages: user });
      assert.deepEqual(shop.received, []);
      assert.deepEqual(toolMessages(api.requests[1]?.body), [
        {
          role: 'tool',
          tool_call_id: 'call_1_1',
          content: 'Error: There is no tool named "nope". The tools are: add, chart_render, fail.',
        },
        {
          role: 'tool',
          tool_call_id: 'call_1_2',
          content: 'Error: Invalid arguments for tool "add":\n- a: must be number, got string',
        },
      ]);
      assert.deepEqual(
        run.calls.map((call) => [call.providerName, call.tool]),
        [
          ['nope', undefined],
          ['add', undefined],
        ],
      );
    },
  );
});
