// ToolBridge, for applications that write their own loop, against server-everything (a real server nobody here
// wrote, over stdio): its real image, resource-link and embedded-resource results carried into each provider's shape.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';
import { ToolBridge, toAnthropicResult, toOpenAIResponsesResult } from '../src/llm/index.js';

const TEST_MS = 60_000;
let client: McpClient;
before(async () => {
  client = new McpClient(
    { name: 'llm-bridge', version: '1' },
    { approve: 'always', logger: { warn: () => undefined } },
  );
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'],
    }),
  );
});
after(async () => {
  await client.close();
});

describe('ToolBridge with server-everything', () => {
  it(
    'names mapped, calls read back and run, the real image result as an Anthropic image block',
    { timeout: TEST_MS },
    async () => {
      const bridge = await ToolBridge.create(client, 'anthropic-strict');
      try {
        const names = bridge.definitions.map((tool) => tool.name);
        assert.ok(names.includes('get-tiny-image'));
        assert.ok(names.includes('get-sum'));
        const sum = await bridge.run(
          await bridge.fromAnthropic({ id: 'toolu_1', name: 'get-sum', input: { a: 2, b: 40 } }),
        );
        assert.match(JSON.stringify(sum.content), /42/);
        const prepared = await bridge.fromAnthropic({ id: 'toolu_2', name: 'get-tiny-image', input: {} });
        const mapped = toAnthropicResult(await bridge.run(prepared), 'toolu_2');
        const image = mapped.content.find((block) => block.type === 'image');
        assert.ok(image !== undefined && image.type === 'image');
        assert.equal(image.source.media_type, 'image/png');
        assert.ok(image.source.data.length > 100);
      } finally {
        bridge.close();
      }
    },
  );

  it(
    'resource links and embedded resources become text the model can read (Responses)',
    { timeout: TEST_MS },
    async () => {
      const bridge = await ToolBridge.create(client, 'openai-responses-strict');
      try {
        const links = await bridge.run(
          await bridge.fromOpenAI({
            type: 'function_call',
            call_id: 'c1',
            name: 'get-resource-links',
            arguments: '{"count":2}',
          }),
        );
        const linkOutput = toOpenAIResponsesResult(links, 'c1').output;
        assert.equal(typeof linkOutput, 'string');
        assert.equal((linkOutput as string).match(/^Resource link: /gm)?.length, 2);
        const reference = await bridge.run(
          await bridge.fromOpenAI({
            type: 'function_call',
            call_id: 'c2',
            name: 'get-resource-reference',
            arguments: '{"resourceType":"Text","resourceId":1}',
          }),
        );
        assert.match(String(toOpenAIResponsesResult(reference, 'c2').output), /^Resource [a-z]+:\/\/\S+:\n/m);
      } finally {
        bridge.close();
      }
    },
  );
});
