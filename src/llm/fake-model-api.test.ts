// The fake model API itself: the three shapes, scripted in order, recorded, and clear failures for the rest.

import assert from 'node:assert/strict';
import { after, it } from 'node:test';
import { startFakeModelApi } from './fake-model-api.js';

const api = await startFakeModelApi([{ text: 'hi' }, { toolCalls: [{ name: 't', arguments: { a: 1 } }] }]);
after(() => api.close());

const post = async (path: string, body: string): Promise<{ status: number; json: unknown }> => {
  const response = await fetch(`${api.url}${path}`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json' },
  });
  return { status: response.status, json: await response.json() };
};

it('answers in order, in the shape of the endpoint asked, and records each request', async () => {
  const first = await post('/v1/chat/completions', '{"model":"m","messages":[]}');
  assert.equal(first.status, 200);
  assert.deepEqual((first.json as { choices: Array<{ message: unknown }> }).choices[0]?.message, {
    role: 'assistant',
    content: 'hi',
    refusal: null,
  });
  const second = await post('/v1/messages', '{"model":"m","messages":[]}');
  assert.deepEqual((second.json as { content: unknown; stop_reason: string }).content, [
    { type: 'tool_use', id: 'toolu_call_2_1', name: 't', input: { a: 1 } },
  ]);
  assert.deepEqual(
    api.requests.map((request) => [request.api, request.path]),
    [
      ['chat', '/v1/chat/completions'],
      ['messages', '/v1/messages'],
    ],
  );
});

it('refuses what it cannot answer: past the script, not JSON, unknown endpoints', async () => {
  assert.deepEqual(await post('/v1/responses', '{}'), {
    status: 400,
    json: {
      error: { type: 'invalid_request_error', message: 'the fake model API has no scripted reply left' },
    },
  });
  assert.deepEqual(await post('/v1/responses', 'nope'), {
    status: 400,
    json: { error: { message: 'the body is not JSON' } },
  });
  assert.deepEqual(await post('/v1/embeddings', '{}'), {
    status: 404,
    json: { error: { type: 'not_found', message: 'no fake endpoint for POST /v1/embeddings' } },
  });
});
