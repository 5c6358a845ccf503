// Protocol core, tool definitions and tools/list: registration checks, schemas of every kind, metadata on the
// wire, runtime changes with list_changed, deterministic order, pagination and cache hints.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { DefinitionError, toolResult } from '../src/index.js';
import {
  SERVER_INFO_META,
  connect,
  initializeLegacy,
  isNotification,
  modern,
  testServer,
  type RawClient,
  type WireMessage,
} from './support/harness.js';

const NO_ARGS = { type: 'object', additionalProperties: false };
const NAME_RULE = 'use 1–128 characters from A–Z, a–z, 0–9, "_", "-" and "."';
const LIST_TAIL = { ttlMs: 0, cacheScope: 'public', resultType: 'complete', _meta: SERVER_INFO_META };

const toolNames = (response: WireMessage): string[] => {
  const tools = response.result?.tools;
  assert.ok(Array.isArray(tools), JSON.stringify(response));
  return tools.map((tool: { name?: unknown }) => String(tool.name));
};

const listChanged = (client: RawClient): number =>
  client.notifications().filter(isNotification('notifications/tools/list_changed')).length;

describe('core tools: definitions', () => {
  for (const [label, name] of [
    ['empty', ''],
    ['129 characters long', 'x'.repeat(129)],
    ['with a space', 'get user'],
    ['with a comma', 'a,b'],
    ['non-ASCII', 'héllo'],
    ['with a slash', 'a/b'],
  ] as const) {
    it(`TL-06 a tool name that is ${label} throws a DefinitionError at registration`, () => {
      const server = testServer();
      assert.throws(() => server.tool({ name, handler: () => 'x' }), {
        name: 'DefinitionError',
        message: `Invalid tool name ${JSON.stringify(name)}: ${NAME_RULE}`,
      });
    });
  }

  it('TL-06 names of 1 and 128 characters from the allowed set are accepted', async () => {
    const server = testServer();
    server.tool({ name: 'a', handler: () => 'x' });
    server.tool({ name: 'x'.repeat(128), handler: () => 'x' });
    server.tool({ name: 'admin.tools_list-v2', handler: () => 'x' });
    const client = await connect(server);
    assert.deepEqual(toolNames(await client.request('tools/list', modern())), [
      'a',
      'x'.repeat(128),
      'admin.tools_list-v2',
    ]);
  });

  it('TL-06 a duplicate name throws a DefinitionError and the first tool stays', async () => {
    const server = testServer();
    server.tool({ name: 'dup', description: 'first', handler: () => 'x' });
    assert.throws(() => server.tool({ name: 'dup', description: 'second', handler: () => 'x' }), {
      name: 'DefinitionError',
      message: 'Tool "dup" is already registered',
    });
    const client = await connect(server);
    const { result } = await client.request('tools/list', modern());
    assert.deepEqual(result?.tools, [{ name: 'dup', description: 'first', inputSchema: NO_ARGS }]);
  });

  it('TL-06 a definition error is an instance of DefinitionError', () => {
    assert.throws(() => testServer().tool({ name: '', handler: () => 'x' }), DefinitionError);
  });

  it('TL-08 a tool without inputSchema advertises {type:"object", additionalProperties:false}', async () => {
    const server = testServer();
    server.tool({ name: 'bare', handler: () => 'x' });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result, {
      tools: [{ name: 'bare', inputSchema: NO_ARGS }],
      ...LIST_TAIL,
    });
  });

  it('TL-25 a Zod 4 schema is published as JSON Schema 2020-12 and validated', async () => {
    const server = testServer();
    server.tool({
      name: 'zod',
      inputSchema: z.object({ city: z.string(), days: z.number().int().min(1).optional() }),
      handler: ({ city, days }) => `${city}:${days ?? 1}`,
    });
    const client = await connect(server);
    const { result } = await client.request('tools/list', modern());
    assert.deepEqual(result?.tools, [
      {
        name: 'zod',
        inputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'integer', minimum: 1, maximum: 9007199254740991 },
          },
          required: ['city'],
        },
      },
    ]);
    const call = await client.request(
      'tools/call',
      modern({ name: 'zod', arguments: { city: 'Oslo', days: 3 } }),
    );
    assert.deepEqual(call.result?.content, [{ type: 'text', text: 'Oslo:3' }]);
  });

  it('TL-25 a raw JSON Schema without $schema (2020-12 by default) is published as given and validated', async () => {
    const schema = {
      type: 'object',
      properties: { tags: { type: 'array', prefixItems: [{ type: 'string' }], items: false } },
      required: ['tags'],
    };
    const server = testServer();
    server.tool({ name: 'raw', inputSchema: schema, handler: (args) => JSON.stringify(args) });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result?.tools, [
      { name: 'raw', inputSchema: schema },
    ]);
    const ok = await client.request('tools/call', modern({ name: 'raw', arguments: { tags: ['a'] } }));
    assert.deepEqual(ok.result?.content, [{ type: 'text', text: '{"tags":["a"]}' }]);
    const bad = await client.request('tools/call', modern({ name: 'raw', arguments: { tags: ['a', 'b'] } }));
    assert.equal(bad.result?.isError, true, '2020-12 prefixItems/items:false rejects a second item');
  });

  it('TL-26 a draft-07 JSON Schema ($schema names it) is published as given and validated by draft-07 rules', async () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { pair: { type: 'array', items: [{ type: 'string' }, { type: 'integer' }] } },
      required: ['pair'],
    };
    const server = testServer();
    server.tool({ name: 'd7', inputSchema: schema, handler: (args) => JSON.stringify(args) });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result?.tools, [
      { name: 'd7', inputSchema: schema },
    ]);
    const ok = await client.request('tools/call', modern({ name: 'd7', arguments: { pair: ['a', 1] } }));
    assert.deepEqual(ok.result?.content, [{ type: 'text', text: '{"pair":["a",1]}' }]);
    const bad = await client.request('tools/call', modern({ name: 'd7', arguments: { pair: ['a', 'b'] } }));
    assert.deepEqual(bad.result?.content, [
      { type: 'text', text: 'Invalid arguments for tool "d7":\n- pair[1]: must be integer, got string' },
    ]);
  });

  it('TL-08 an inputSchema whose root is not an object is a DefinitionError', () => {
    assert.throws(
      () => testServer().tool({ name: 'arr', inputSchema: { type: 'array' }, handler: () => 'x' }),
      DefinitionError,
    );
  });

  it('TL-11 outputSchema (Zod or JSON Schema) is published in tools/list', async () => {
    const server = testServer();
    server.tool({ name: 'zodOut', outputSchema: z.object({ sum: z.number() }), handler: () => ({ sum: 1 }) });
    server.tool({
      name: 'jsonOut',
      outputSchema: { type: 'array', items: { type: 'string' } },
      handler: () => toolResult({ content: [{ type: 'text', text: '["a"]' }], structuredContent: ['a'] }),
    });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result?.tools, [
      {
        name: 'zodOut',
        inputSchema: NO_ARGS,
        outputSchema: {
          $schema: 'https://json-schema.org/draft/2020-12/schema',
          type: 'object',
          properties: { sum: { type: 'number' } },
          required: ['sum'],
          additionalProperties: false,
        },
      },
      { name: 'jsonOut', inputSchema: NO_ARGS, outputSchema: { type: 'array', items: { type: 'string' } } },
    ]);
  });

  it('§3.3 title, description, icons, annotations and _meta pass through to tools/list unchanged', async () => {
    const server = testServer();
    const definition = {
      title: 'Weather',
      description: 'Current weather for a city',
      icons: [
        {
          src: 'https://example.com/w.png',
          mimeType: 'image/png',
          sizes: ['48x48'],
          theme: 'light' as const,
        },
      ],
      annotations: { title: 'Weather lookup', readOnlyHint: true, openWorldHint: true },
      _meta: { 'com.example/owner': 'team-a' },
    };
    server.tool({ name: 'weather', ...definition, handler: () => 'sunny' });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result?.tools, [
      { name: 'weather', ...definition, inputSchema: NO_ARGS },
    ]);
  });

  it('TL-10 2025-03-26 sessions get only the fields their revision knows (no title, icons, outputSchema, _meta)', async () => {
    const server = testServer();
    server.tool({
      name: 'w',
      title: 'W',
      description: 'd',
      icons: [{ src: 'https://example.com/w.png' }],
      annotations: { readOnlyHint: true },
      _meta: { 'com.example/x': 1 },
      outputSchema: { type: 'object', properties: { a: { type: 'number' } } },
      handler: () => ({ a: 1 }),
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    assert.deepEqual(await client.request('tools/list', {}, { id: 'l' }), {
      jsonrpc: '2.0',
      id: 'l',
      result: {
        tools: [{ name: 'w', description: 'd', inputSchema: NO_ARGS, annotations: { readOnlyHint: true } }],
      },
    });
  });

  it('TL-10 2025-06-18 sessions do not get an outputSchema whose root is not an object', async () => {
    const server = testServer();
    server.tool({ name: 'list', outputSchema: { type: 'array' }, handler: () => [] });
    server.tool({ name: 'obj', outputSchema: { type: 'object' }, handler: () => ({}) });
    const client = await connect(server);
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual((await client.request('tools/list', {})).result?.tools, [
      { name: 'list', inputSchema: NO_ARGS },
      { name: 'obj', inputSchema: NO_ARGS, outputSchema: { type: 'object' } },
    ]);
  });

  it('§3.3 an icon with a javascript: src is a DefinitionError', () => {
    assert.throws(
      () => testServer().tool({ name: 'i', icons: [{ src: 'javascript:alert(1)' }], handler: () => 'x' }),
      {
        name: 'DefinitionError',
        message: 'tool "i": every icon needs a src that is an https: URL or a data: URI',
      },
    );
  });
});

describe('core tools: runtime changes', () => {
  async function legacyWatcher(server: ReturnType<typeof testServer>): Promise<RawClient> {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    await client.flush();
    return client;
  }

  it('TL-23 adding a tool shows in tools/list and sends one notifications/tools/list_changed', async () => {
    const server = testServer();
    server.tool({ name: 'a', handler: () => 'a' });
    const client = await legacyWatcher(server);
    server.tool({ name: 'b', handler: () => 'b' });
    await client.waitFor(isNotification('notifications/tools/list_changed'));
    assert.deepEqual(toolNames(await client.request('tools/list', {})), ['a', 'b']);
    assert.deepEqual(client.notifications().filter(isNotification('notifications/tools/list_changed')), [
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
    ]);
  });

  it('TL-23 remove, disable, enable and update each change tools/list and announce it', async () => {
    const server = testServer();
    const a = server.tool({ name: 'a', description: 'old', handler: () => 'a' });
    const b = server.tool({ name: 'b', handler: () => 'b' });
    server.tool({ name: 'c', handler: () => 'c' });
    const client = await legacyWatcher(server);
    const step = async (change: () => void, expected: string[], count: number): Promise<WireMessage> => {
      change();
      await client.flush();
      const list = await client.request('tools/list', {});
      assert.deepEqual(toolNames(list), expected);
      assert.equal(listChanged(client), count);
      return list;
    };
    await step(() => b.disable(), ['a', 'c'], 1);
    await step(() => b.enable(), ['a', 'b', 'c'], 2);
    await step(() => b.remove(), ['a', 'c'], 3);
    const updated = await step(() => a.update({ description: 'new' }), ['a', 'c'], 4);
    assert.deepEqual(updated.result?.tools, [
      { name: 'a', description: 'new', inputSchema: NO_ARGS },
      { name: 'c', inputSchema: NO_ARGS },
    ]);
    await step(() => a.update({ name: 'a2' }), ['a2', 'c'], 5);
    assert.equal(a.name, 'a2');
  });

  it('TL-23 a disabled tool cannot be called: unknown tool -32602', async () => {
    const server = testServer();
    server.tool({ name: 'gone', handler: () => 'x' }).disable();
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'gone' }), { id: 1 });
    assert.deepEqual(response.error, {
      code: -32602,
      message: 'Unknown tool: "gone"',
      data: { name: 'gone' },
    });
  });

  it('TL-23 enabling a tool that is already enabled changes nothing and announces nothing', async () => {
    const server = testServer();
    const a = server.tool({ name: 'a', handler: () => 'a' });
    const client = await legacyWatcher(server);
    a.enable();
    await client.flush();
    assert.equal(listChanged(client), 0);
  });

  it('TL-23 several changes in one tick make exactly one notification', async () => {
    const server = testServer();
    const a = server.tool({ name: 'a', handler: () => 'a' });
    const client = await legacyWatcher(server);
    server.tool({ name: 'b', handler: () => 'b' });
    server.tool({ name: 'c', handler: () => 'c' });
    a.disable();
    a.update({ description: 'd' });
    await client.flush();
    await client.flush();
    assert.equal(listChanged(client), 1);
  });

  it('TL-23 only initialized legacy sessions get list_changed; modern and uninitialized connections do not', async () => {
    const server = testServer();
    const initialized = await legacyWatcher(server);
    const modernClient = await connect(server);
    const halfway = await connect(server);
    await halfway.request('initialize', { protocolVersion: '2025-11-25', capabilities: {} });
    server.tool({ name: 'new', handler: () => 'x' });
    await initialized.waitFor(isNotification('notifications/tools/list_changed'));
    await modernClient.flush();
    await halfway.flush();
    assert.equal(listChanged(modernClient), 0);
    assert.equal(listChanged(halfway), 0);
  });

  it('TL-06 update() to an invalid or taken name throws a DefinitionError and keeps the tool', async () => {
    const server = testServer();
    const a = server.tool({ name: 'a', handler: () => 'a' });
    server.tool({ name: 'b', handler: () => 'b' });
    assert.throws(() => a.update({ name: 'b' }), {
      name: 'DefinitionError',
      message: 'Tool "b" is already registered',
    });
    assert.throws(() => a.update({ name: 'no spaces' }), DefinitionError);
    const client = await connect(server);
    assert.deepEqual(toolNames(await client.request('tools/list', modern())), ['a', 'b']);
  });
});

describe('core tools/list: order, pagination and caching', () => {
  function fiveTools(pageSize = 2) {
    const server = testServer({ pageSize });
    for (const name of ['echo', 'alpha', 'zulu', 'mike', 'bravo']) server.tool({ name, handler: () => name });
    return server;
  }

  it('TL-04 tools/list keeps registration order, not alphabetical or hash order, and keeps it stable', async () => {
    const client = await connect(fiveTools(100));
    const first = toolNames(await client.request('tools/list', modern()));
    assert.deepEqual(first, ['echo', 'alpha', 'zulu', 'mike', 'bravo']);
    assert.deepEqual(toolNames(await client.request('tools/list', modern())), first);
  });

  it('TL-04 a tool disabled and enabled again comes back at its own position', async () => {
    const server = fiveTools(100);
    const client = await connect(server);
    server.tools.setEnabled('alpha', false);
    server.tools.setEnabled('alpha', true);
    assert.deepEqual(toolNames(await client.request('tools/list', modern())), [
      'echo',
      'alpha',
      'zulu',
      'mike',
      'bravo',
    ]);
  });

  it('P-06 pageSize 2 over 5 tools: three pages with opaque cursors, the last without nextCursor', async () => {
    const client = await connect(fiveTools());
    const pages: WireMessage[] = [];
    let cursor: unknown;
    do {
      const page = await client.request(
        'tools/list',
        modern(cursor === undefined ? {} : { cursor: cursor as string }),
      );
      pages.push(page);
      cursor = page.result?.nextCursor;
      if (cursor !== undefined) {
        assert.equal(typeof cursor, 'string');
        assert.ok((cursor as string).length > 0);
        assert.doesNotMatch(cursor as string, /^\d+$/, 'a cursor is not a bare offset');
      }
    } while (cursor !== undefined && pages.length < 10);
    assert.deepEqual(pages.map(toolNames), [['echo', 'alpha'], ['zulu', 'mike'], ['bravo']]);
    assert.ok(pages[0]?.result?.nextCursor !== pages[1]?.result?.nextCursor);
    assert.deepEqual(Object.keys(pages[2]?.result ?? {}), [
      'tools',
      'ttlMs',
      'cacheScope',
      'resultType',
      '_meta',
    ]);
    for (const page of pages) {
      assert.equal(page.result?.cacheScope, 'public', 'CH-04: every page has the same cacheScope');
      assert.equal(page.result?.ttlMs, 0);
    }
  });

  it('P-04 the same cursor gives the same page again (stable cursors)', async () => {
    const client = await connect(fiveTools());
    const cursor = (await client.request('tools/list', modern())).result?.nextCursor as string;
    const again = await client.request('tools/list', modern({ cursor }), { id: 'a' });
    const twice = await client.request('tools/list', modern({ cursor }), { id: 'a' });
    assert.deepEqual(again, twice);
    assert.deepEqual(toolNames(again), ['zulu', 'mike']);
  });

  it('P-05 a legacy session pages the same way, without cache hints', async () => {
    const client = await connect(fiveTools());
    await initializeLegacy(client, '2025-11-25');
    const first = await client.request('tools/list', {});
    const cursor = first.result?.nextCursor as string;
    assert.deepEqual(Object.keys(first.result ?? {}), ['tools', 'nextCursor']);
    assert.deepEqual(toolNames(await client.request('tools/list', { cursor })), ['zulu', 'mike']);
  });

  const INVALID_CURSOR = {
    code: -32602,
    message: 'Invalid params: invalid or expired cursor; list again without a cursor',
  };

  for (const [label, cursor] of [
    ['garbage', 'not-a-cursor!'],
    ['an empty string', ''],
    ['a number', 2],
    ['null', null],
    ['very long', 'A'.repeat(1000)],
  ] as const) {
    it(`P-05 a ${label} cursor gets -32602`, async () => {
      const client = await connect(fiveTools());
      assert.deepEqual((await client.request('tools/list', modern({ cursor }))).error, INVALID_CURSOR);
    });
  }

  it('P-05 a tampered cursor (one character changed) gets -32602', async () => {
    const client = await connect(fiveTools());
    const cursor = (await client.request('tools/list', modern())).result?.nextCursor as string;
    const tampered = (cursor.startsWith('A') ? 'B' : 'A') + cursor.slice(1);
    assert.notEqual(tampered, cursor);
    assert.deepEqual(
      (await client.request('tools/list', modern({ cursor: tampered }))).error,
      INVALID_CURSOR,
    );
  });

  it('P-05 a cursor past the end of the list gets -32602', async () => {
    const client = await connect(fiveTools());
    const past = Buffer.from('p6').toString('base64url'); // what the server would issue for offset 6 of 5
    assert.deepEqual((await client.request('tools/list', modern({ cursor: past }))).error, INVALID_CURSOR);
  });

  it('P-05 a cursor off a page boundary gets -32602', async () => {
    const client = await connect(fiveTools());
    const offBoundary = Buffer.from('p3').toString('base64url');
    assert.deepEqual(
      (await client.request('tools/list', modern({ cursor: offBoundary }))).error,
      INVALID_CURSOR,
    );
  });

  it('CH-01 modern tools/list carries ttlMs, cacheScope, resultType and serverInfo; legacy carries none', async () => {
    const server = testServer({ listCache: { ttlMs: 300_000, cacheScope: 'private' } });
    server.tool({ name: 't', handler: () => 't' });
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/list', modern())).result, {
      tools: [{ name: 't', inputSchema: NO_ARGS }],
      ttlMs: 300_000,
      cacheScope: 'private',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual((await client.request('tools/list', {})).result, {
      tools: [{ name: 't', inputSchema: NO_ARGS }],
    });
  });

  it('CH-02 a negative ttlMs or an unknown cacheScope is a DefinitionError', () => {
    assert.throws(() => testServer({ listCache: { ttlMs: -1, cacheScope: 'public' } }), {
      name: 'DefinitionError',
      message: 'listCache.ttlMs must be an integer ≥ 0',
    });
  });

  it('TL-03 with 1,000 tools the tools/list bytes are identical across calls and connections', async () => {
    const server = testServer();
    for (let i = 0; i < 1000; i++) {
      server.tool({
        name: `tool_${String(i).padStart(4, '0')}`,
        description: `Tool number ${i}`,
        inputSchema: { type: 'object', properties: { n: { type: 'integer' } } },
        handler: () => String(i),
      });
    }
    const one = await connect(server);
    const two = await connect(server);
    const bytes = async (client: RawClient, cursor?: string): Promise<string[]> => {
      const before = client.traffic.length;
      const response = await client.request('tools/list', modern(cursor === undefined ? {} : { cursor }), {
        id: 'list',
      });
      const texts = client.traffic
        .slice(before)
        .filter((t) => t.direction === 'server->client')
        .map((t) => t.text);
      const next = response.result?.nextCursor;
      return typeof next === 'string' ? [...texts, ...(await bytes(client, next))] : texts;
    };
    const first = await bytes(one);
    assert.equal(first.length, 2, 'default pageSize 500: two pages');
    assert.deepEqual(await bytes(one), first);
    assert.deepEqual(await bytes(two), first);
    const names = first.flatMap((text) => toolNames(JSON.parse(text) as WireMessage));
    assert.equal(names.length, 1000);
    assert.equal(names[999], 'tool_0999');
  });
});
