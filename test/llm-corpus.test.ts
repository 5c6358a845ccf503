// Every corpus schema (server-everything's real list, filesystem-like, FastMCP, GitHub-like, hostile) compiled for
// every profile and checked against the providers' rules; what had to change or be left out is asserted too.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient } from '../src/client/index.js';
import type { Tool } from '../src/protocol/index.js';
import { compileSchema } from '../src/schema/index.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';
import {
  PROFILE_IDS,
  checkToolSet,
  compileTools,
  fromAnthropic,
  fromOpenAI,
  type CompiledTools,
  type ProfileId,
  type ToolDefinition,
  type ToolUnderTest,
} from '../src/llm/index.js';
import { FASTMCP, FILESYSTEM, GITHUB, HOSTILE } from './llm-corpus.js';

const TEST_MS = 60_000;

function underTest(definition: ToolDefinition): ToolUnderTest {
  if ('function' in definition) {
    return {
      name: definition.function.name,
      schema: definition.function.parameters,
      strict: definition.function.strict,
    };
  }
  if ('input_schema' in definition) {
    return { name: definition.name, schema: definition.input_schema, strict: definition.strict === true };
  }
  return { name: definition.name, schema: definition.parameters, strict: definition.strict };
}

/**
 * A value a strict model could send for a compiled schema: null wherever null is allowed (the most a strict model
 * can leave out), the first enum value or branch, the smallest number and array the schema allows.
 */
function sample(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return null;
  const node = schema as Record<string, unknown>;
  const types =
    typeof node.type === 'string' ? [node.type] : Array.isArray(node.type) ? (node.type as string[]) : [];
  if (types.includes('null')) return null;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum)) return node.enum[0];
  if (Array.isArray(node.anyOf)) {
    const branches = node.anyOf as Array<Record<string, unknown>>;
    return branches.some((branch) => branch.type === 'null') ? null : sample(branches[0]);
  }
  const formats: Record<string, string> = {
    'date-time': '2026-01-01T00:00:00Z',
    date: '2026-01-01',
    email: 'a@b.co',
    uri: 'https://a.example',
  };
  switch (types[0]) {
    case 'object':
      return Object.fromEntries(
        Object.entries((node.properties ?? {}) as Record<string, unknown>).map(([key, child]) => [
          key,
          sample(child),
        ]),
      );
    case 'array':
      return Array.from({ length: Number(node.minItems ?? 0) }, () => sample(node.items));
    case 'string':
      return formats[String(node.format)] ?? 'x';
    case 'integer':
    case 'number':
      return Number(node.minimum ?? 1);
    case 'boolean':
      return true;
    default:
      return null;
  }
}

const statusOf = (compiled: CompiledTools, tool: string): string | undefined =>
  compiled.report.tools.find((entry) => entry.tool === tool)?.status;

let everything: Tool[] = [];
let client: McpClient | undefined;
before(async () => {
  client = new McpClient({ name: 'llm-corpus', version: '1' }, { logger: { warn: () => undefined } });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: ['node_modules/@modelcontextprotocol/server-everything/dist/index.js', 'stdio'],
    }),
  );
  everything = await client.listTools();
});
after(async () => {
  await client?.close();
});

describe('the corpus, compiled for every profile, passes the provider rules', () => {
  for (const id of PROFILE_IDS) {
    it(
      `${id}: every definition sent passes the rules, and every schema sent is valid JSON Schema`,
      { timeout: TEST_MS },
      () => {
        assert.ok(everything.length >= 10, `server-everything listed ${everything.length} tools`);
        const corpus = [...everything, ...FILESYSTEM, ...FASTMCP, ...GITHUB, ...HOSTILE];
        const compiled = compileTools(corpus, id);
        const tools = compiled.definitions.map(underTest);
        assert.deepEqual(checkToolSet(tools, compiled.profile.provider), []);
        for (const tool of tools)
          compileSchema(tool.schema, { role: 'input', owner: `compiled tool "${tool.name}"` });
        // The real server's tools all make it.
        for (const tool of everything) assert.notEqual(statusOf(compiled, tool.name), 'left-out', tool.name);
        // Well-formed schemas are sent strict when the profile is, unless Anthropic's per-request budget is spent.
        for (const tool of [...FILESYSTEM, ...FASTMCP, ...GITHUB]) {
          const entry = compiled.report.tools.find((e) => e.tool === tool.name);
          if (entry?.status === 'not-strict' && id === 'anthropic-strict') {
            assert.match(entry.reason ?? '', /^Anthropic takes at most \d+ /);
          } else assert.ok(['unchanged', 'changed'].includes(entry?.status ?? ''), `${id}: ${tool.name}`);
        }
      },
    );
  }
});

describe('what a strict model sends is what the original schema accepts', () => {
  for (const id of ['openai-chat-strict', 'anthropic-strict'] as const) {
    it(`${id}: a sampled call to every strict tool is restored and passes the original schema`, async () => {
      const compiled = compileTools([...everything, ...FILESYSTEM, ...FASTMCP, ...GITHUB, ...HOSTILE], id);
      const strict = [...compiled.byProviderName.values()].filter((tool) => tool.strict);
      assert.ok(strict.length >= (id === 'anthropic-strict' ? 5 : 25), `${strict.length} strict tools`);
      for (const tool of strict) {
        const input = sample(tool.schema);
        const call =
          id === 'anthropic-strict'
            ? await fromAnthropic(compiled, { id: 'u', name: tool.providerName, input })
            : await fromOpenAI(compiled, {
                id: 'c',
                function: { name: tool.providerName, arguments: JSON.stringify(input) },
              });
        assert.ok(call.ok, `${tool.providerName} ${JSON.stringify(input)}: ${call.ok ? '' : call.error}`);
      }
    });
  }
});

describe('hostile schemas: repaired, sent without strict mode, or left out with a reason', () => {
  const reasonOf = (compiled: CompiledTools, tool: string): string | undefined =>
    compiled.report.tools.find((entry) => entry.tool === tool)?.reason;

  it('C5 a recursive schema, an outside $ref (never fetched) and a non-object root are left out everywhere, with their reasons', () => {
    for (const id of PROFILE_IDS) {
      const compiled = compileTools(HOSTILE, id);
      assert.equal(
        reasonOf(compiled, 'tree'),
        'it is recursive: "#/$defs/node" refers back to itself, which no model API takes',
      );
      assert.equal(
        reasonOf(compiled, 'remote_ref'),
        'it refers to another document ("https://example.com/schema.json"); toolwire never fetches schemas',
      );
      assert.equal(
        reasonOf(compiled, 'not_object'),
        'its root type is "array"; MCP and every model API need an object',
      );
    }
  });

  it('only what cannot be sent at all is left out, for every profile', () => {
    for (const id of PROFILE_IDS) {
      const leftOut = compileTools(HOSTILE, id).report.tools.filter((entry) => entry.status === 'left-out');
      assert.deepEqual(
        leftOut.map((entry) => entry.tool),
        ['tree', 'remote_ref', 'not_object', 'same.name', 'same/name'],
        id,
      );
    }
  });

  it('C3 names that collide once mapped are refused; the one already valid keeps its name', () => {
    const compiled = compileTools(HOSTILE, 'openai-chat');
    assert.equal(statusOf(compiled, 'same_name'), 'unchanged');
    assert.equal(
      reasonOf(compiled, 'same.name'),
      'its model API name "same_name" would be the same as that of "same_name", "same/name"',
    );
    assert.equal(
      reasonOf(compiled, 'same/name'),
      'its model API name "same_name" would be the same as that of "same.name", "same_name"',
    );
  });

  it('C7 an 80-character name is shortened with a stable hash for OpenAI (64) and kept for Anthropic (128)', () => {
    const long = `tool_${'very_long_name_'.repeat(5)}`;
    assert.equal(long.length, 80);
    const openai = compileTools(HOSTILE, 'openai-responses').report.tools.find(
      (entry) => entry.tool === long,
    );
    assert.equal(openai?.providerName?.length, 64);
    assert.match(openai?.providerName ?? '', /^tool_very_long_name_.*_[0-9a-f]{8}$/);
    assert.equal(
      compileTools(HOSTILE, 'anthropic').report.tools.find((entry) => entry.tool === long)?.providerName,
      long,
    );
  });

  it('12 levels of nesting: sent without strict mode to OpenAI (10 at most), strict to Anthropic', () => {
    for (const id of ['openai-chat-strict', 'openai-responses-strict'] as const) {
      const compiled = compileTools(HOSTILE, id);
      assert.equal(statusOf(compiled, 'deep'), 'not-strict');
      assert.equal(
        reasonOf(compiled, 'deep'),
        'at most 10 levels of nesting (this schema has 12) at the root',
      );
    }
    assert.equal(statusOf(compileTools(HOSTILE, 'anthropic-strict'), 'deep'), 'changed');
    assert.equal(statusOf(compileTools(HOSTILE, 'openai-chat'), 'deep'), 'unchanged');
  });

  it('bracketed and 70-character property keys are renamed for Anthropic and restored on the way back', async () => {
    const compiled = compileTools(HOSTILE, 'anthropic');
    const tool = compiled.byProviderName.get('jsonapi_filter');
    const keys = Object.keys((tool?.schema.properties ?? {}) as object);
    assert.deepEqual(keys.slice(0, 3), ['filter_id_', 'filter_name_', 'page_size_']);
    assert.match(keys[3] ?? '', /^x{55}_[0-9a-f]{8}$/);
    assert.deepEqual(tool?.schema.required, ['filter_id_']);
    const call = await fromAnthropic(compiled, {
      id: 'toolu_1',
      name: 'jsonapi_filter',
      input: { filter_id_: '7', page_size_: 10, [keys[3] ?? '']: true },
    });
    assert.deepEqual(call.ok && call.arguments, {
      'filter[id]': '7',
      'page[size]': 10,
      ['x'.repeat(70)]: true,
    });
  });

  it('a root anyOf is wrapped as one argument "input" and unwrapped on the way back', async () => {
    for (const id of ['openai-chat-strict', 'anthropic'] as const satisfies readonly ProfileId[]) {
      const compiled = compileTools(HOSTILE, id);
      assert.equal(compiled.byProviderName.get('pick_target')?.schema.required?.toString(), 'input');
      const args = { input: { kind: 'file', path: '/tmp/a' } };
      const call =
        id === 'anthropic'
          ? await fromAnthropic(compiled, { id: 'u1', name: 'pick_target', input: args })
          : await fromOpenAI(compiled, {
              id: 'c1',
              function: { name: 'pick_target', arguments: JSON.stringify(args) },
            });
      assert.deepEqual(call.ok && call.arguments, { kind: 'file', path: '/tmp/a' });
    }
  });

  it('a root anyOf beside properties moves into the description; the original schema still checks the call', async () => {
    const compiled = compileTools(GITHUB, 'openai-chat-strict');
    const tool = compiled.byProviderName.get('github___search_code');
    assert.equal(tool?.schema.anyOf, undefined);
    assert.equal(tool?.schema.description, '(give at least one of: q)');
    const call = await fromOpenAI(compiled, {
      id: 'c1',
      function: { name: 'github___search_code', arguments: '{"q":"x","sort":null,"order":"desc"}' },
    });
    assert.deepEqual(call.ok && call.arguments, { q: 'x', order: 'desc' });
  });

  it('keywords strict grammars refuse go into the description, and the arguments are still checked against them', async () => {
    const compiled = compileTools(GITHUB, 'openai-chat-strict');
    const tool = compiled.byProviderName.get('github___create_issue');
    assert.deepEqual(
      tool?.schema.properties && (tool.schema.properties as Record<string, unknown>).html_url,
      {
        type: ['string', 'null'],
        description: '(format: "uri")',
      },
    );
    const call = await fromOpenAI(compiled, {
      id: 'c1',
      function: {
        name: 'github___create_issue',
        arguments: JSON.stringify({
          owner: 'o',
          repo: 'r',
          title: '',
          body: null,
          labels: null,
          milestone: null,
          html_url: null,
          due: null,
        }),
      },
    });
    assert.deepEqual(call, {
      ok: false,
      id: 'c1',
      providerName: 'github___create_issue',
      error:
        'Invalid arguments for tool "github___create_issue":\n- title: must have at least 1 character (got 0)',
    });
  });
});
