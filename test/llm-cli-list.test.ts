// `toolwire list TARGET --format ...` as a real process against toolwire's fixture server over HTTP: converted
// definitions on stdout (and they pass the provider rules), the repair report on stderr, a bad format refused.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { checkToolSet, type ToolUnderTest } from '../src/llm/index.js';
import { listenToolwireHttp, runCli } from './fixtures/client/harness.js';

const TEST_MS = 120_000;

describe('toolwire list --format', () => {
  const http = listenToolwireHttp();
  let url = '';
  before(async () => {
    url = (await http).url;
  });
  after(async () => (await http).close());

  it('openai: Chat Completions tools on stdout, the report on stderr', { timeout: TEST_MS }, async () => {
    const run = await runCli(['list', url, '--format', 'openai']);
    assert.equal(run.code, 0, run.stderr);
    const tools = JSON.parse(run.stdout) as Array<{
      type: string;
      function: { name: string; parameters: object; strict: boolean };
    }>;
    assert.ok(tools.length > 5);
    assert.ok(tools.every((tool) => tool.type === 'function' && tool.function.strict === false));
    const checked: ToolUnderTest[] = tools.map((tool) => ({
      name: tool.function.name,
      schema: tool.function.parameters as ToolUnderTest['schema'],
      strict: false,
    }));
    assert.deepEqual(checkToolSet(checked, 'openai'), []);
    assert.match(run.stderr, new RegExp(`^openai-chat: ${tools.length} tools converted, 0 left out\\n`));
  });

  it(
    'anthropic-strict: Messages tools, strict where they can be, and what changed',
    { timeout: TEST_MS },
    async () => {
      const run = await runCli(['list', url, '--format', 'anthropic-strict']);
      assert.equal(run.code, 0, run.stderr);
      const tools = JSON.parse(run.stdout) as Array<{
        name: string;
        input_schema: ToolUnderTest['schema'];
        strict?: boolean;
      }>;
      assert.ok(tools.some((tool) => tool.strict === true));
      const checked = tools.map((tool) => ({
        name: tool.name,
        schema: tool.input_schema,
        strict: tool.strict === true,
      }));
      assert.deepEqual(checkToolSet(checked, 'anthropic'), []);
      assert.match(run.stderr, /^anthropic-strict: \d+ tools converted, 0 left out\n/);
      assert.match(run.stderr, /\(additionalProperties: false\)/);
    },
  );

  it('openai-responses: flat function tools with strict written out', { timeout: TEST_MS }, async () => {
    const run = await runCli(['list', url, '--format', 'openai-responses']);
    assert.equal(run.code, 0, run.stderr);
    const tools = JSON.parse(run.stdout) as Array<{ type: string; name: string; strict: boolean }>;
    assert.ok(
      tools.every(
        (tool) => tool.type === 'function' && typeof tool.name === 'string' && tool.strict === false,
      ),
    );
  });

  it('an unknown format is a usage error, before connecting', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['list', 'http://127.0.0.1:9/mcp', '--format', 'gemini']), {
      code: 2,
      stdout: '',
      stderr:
        'toolwire: --format expects one of openai, openai-strict, openai-responses, openai-responses-strict, anthropic, anthropic-strict; got "gemini"\nrun "toolwire --help" for usage\n',
    });
  });
});
