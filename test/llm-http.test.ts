// The same bridge over real HTTP: toolwire's client reaches a toolwire server through Streamable HTTP on loopback,
// and the official Anthropic client, in strict mode, drives runTools against the fake model API.

import assert from 'node:assert/strict';
import { after, before, it } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import { McpClient } from '../src/client/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { runTools, startFakeModelApi, type FakeModelApi } from '../src/llm/index.js';

let http: HttpListening;
let client: McpClient;
let api: FakeModelApi;
const received: unknown[] = [];

before(async () => {
  const server = new McpServer({ name: 'notes', version: '1.0.0' }, { logger: silentLogger });
  server.tool({
    name: 'notes.search',
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1 },
        limit: { type: 'integer', minimum: 1, maximum: 50 },
        'tag[]': { type: 'array', items: { type: 'string' }, maxItems: 5 },
      },
      required: ['query'],
    },
    handler: (args) => {
      received.push(args);
      return { hits: [`a note about ${String(args.query)}`] };
    },
  });
  http = await listenHttp(server, { port: 0 });
  client = new McpClient(
    { name: 'llm-http', version: '1' },
    { approve: 'always', logger: { warn: () => undefined } },
  );
  await client.connect(new HttpClientTransport(http.url));
  api = await startFakeModelApi([
    { toolCalls: [{ name: 'notes_search', arguments: { query: 'mcp', tag__: ['spec'] } }] },
    { text: 'Found one note.' },
  ]);
});
after(async () => {
  await client.close();
  await http.close();
  await api.close();
});

it(
  'anthropic-strict over HTTP: strict definitions sent, keys and names restored for the server',
  { timeout: 30_000 },
  async () => {
    const run = await runTools({
      client,
      provider: new Anthropic({ baseURL: api.url, apiKey: 'test', maxRetries: 0 }),
      profile: 'anthropic-strict',
      model: 'claude-test',
      messages: [{ role: 'user', content: 'Find notes about MCP.' }],
    });
    assert.equal(run.text, 'Found one note.');
    assert.deepEqual(received, [{ query: 'mcp', 'tag[]': ['spec'] }]);
    assert.deepEqual(api.requests[0]?.body.tools, [
      {
        name: 'notes_search',
        input_schema: {
          type: 'object',
          properties: {
            query: { type: 'string', description: '(minLength: 1)' },
            limit: { type: 'integer', description: '(minimum: 1; maximum: 50)' },
            tag__: { type: 'array', items: { type: 'string' }, description: '(maxItems: 5)' },
          },
          required: ['query'],
          additionalProperties: false,
        },
        strict: true,
      },
    ]);
    const results = (api.requests[1]?.body.messages as Array<{ content: unknown }>)[2]?.content;
    assert.deepEqual(results, [
      {
        type: 'tool_result',
        tool_use_id: 'toolu_call_1_1',
        content: [{ type: 'text', text: '{"hits":["a note about mcp"]}' }],
      },
    ]);
  },
);
