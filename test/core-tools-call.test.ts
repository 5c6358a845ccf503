// Protocol core, tools/call: malformed calls, argument validation messages, every return shape, content helpers,
// output validation, and what errors reveal (to the client) versus record (in the server log).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ToolError, audio, embeddedResource, image, resourceLink, text, toolResult } from '../src/index.js';
import {
  SERVER_INFO_META,
  capturingLogger,
  connect,
  firstText,
  initializeLegacy,
  modern,
  testServer,
  type RawClient,
} from './support/harness.js';

/** The result of a modern call as the client sees it, without the fields every modern result has. */
async function call(client: RawClient, name: string, args?: unknown): Promise<Record<string, unknown>> {
  const params = args === undefined ? { name } : { name, arguments: args };
  const response = await client.request('tools/call', modern(params));
  assert.equal(response.error, undefined, JSON.stringify(response.error));
  const { resultType, _meta, ...rest } = response.result ?? {};
  assert.equal(resultType, 'complete');
  assert.deepEqual(_meta, SERVER_INFO_META);
  return rest;
}

const failure = (message: string) => ({ content: [{ type: 'text', text: message }], isError: true });

describe('core tools/call: malformed calls are protocol errors', () => {
  const server = testServer();
  server.tool({ name: 'echo', inputSchema: z.object({ a: z.string() }), handler: ({ a }) => a });

  it('TL-18 an unknown tool gets -32602 naming it', async () => {
    const client = await connect(server);
    assert.deepEqual(await client.request('tools/call', modern({ name: 'nope' }), { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Unknown tool: "nope"', data: { name: 'nope' } },
    });
  });

  it('TL-18 an unknown tool in a legacy session gets the same -32602', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const response = await client.request('tools/call', { name: 'nope' });
    assert.deepEqual(response.error, {
      code: -32602,
      message: 'Unknown tool: "nope"',
      data: { name: 'nope' },
    });
  });

  for (const [label, params] of [
    ['a missing name', {}],
    ['a numeric name', { name: 7 }],
    ['a null name', { name: null }],
  ] as const) {
    it(`TL-18 ${label} gets -32602`, async () => {
      const client = await connect(server);
      assert.deepEqual((await client.request('tools/call', modern(params))).error, {
        code: -32602,
        message: 'Invalid params: tools/call needs params.name (a string)',
      });
    });
  }

  for (const [label, args] of [
    ['an array', [1]],
    ['a string', 'a=1'],
    ['a number', 5],
    ['true', true],
  ] as const) {
    it(`TL-18 arguments that are ${label} get -32602`, async () => {
      const client = await connect(server);
      assert.deepEqual(
        (await client.request('tools/call', modern({ name: 'echo', arguments: args }))).error,
        {
          code: -32602,
          message: 'Invalid params: params.arguments of tool "echo" must be an object',
        },
      );
    });
  }

  it('TL-18 arguments: null get -32602 too (regression: null was taken for "no arguments")', async () => {
    const client = await connect(server);
    assert.deepEqual((await client.request('tools/call', modern({ name: 'echo', arguments: null }))).error, {
      code: -32602,
      message: 'Invalid params: params.arguments of tool "echo" must be an object',
    });
  });
});

describe('core tools/call: argument validation', () => {
  const schema = {
    type: 'object',
    properties: {
      n: { type: 'integer', minimum: 1, maximum: 10 },
      s: { type: 'string', pattern: '^[a-z]+$' },
      e: { enum: ['a', 'b'] },
      mode: { type: 'string', minLength: 2 },
      nested: { type: 'object', properties: { q: { type: 'boolean' } }, required: ['q'] },
    },
    required: ['n', 's', 'mode'],
    additionalProperties: false,
  };
  const server = testServer();
  server.tool({ name: 'strict', inputSchema: schema, handler: (args) => JSON.stringify(args) });
  server.tool({
    name: 'zodStrict',
    inputSchema: z
      .object({
        n: z.number().int().min(1).max(10),
        s: z.string().regex(/^[a-z]+$/),
        e: z.enum(['a', 'b']),
        nested: z.object({ q: z.boolean() }),
      })
      .strict(),
    handler: (args) => JSON.stringify(args),
  });

  it('TL-19 type, required, enum, pattern, additionalProperties and nested failures are each named', async () => {
    const client = await connect(server);
    const result = await call(client, 'strict', { n: 'x', s: 'ABC', e: 'z', nested: { q: 1 }, extra: true });
    assert.deepEqual(
      result,
      failure(
        [
          'Invalid arguments for tool "strict":',
          '- e: must be one of "a", "b" (got "z")',
          '- extra: is not allowed (unknown property)',
          '- mode: is required but missing',
          '- n: must be integer, got string',
          '- nested.q: must be boolean, got integer',
          '- s: must match the pattern /^[a-z]+$/',
        ].join('\n'),
      ),
    );
  });

  it('TL-19 minimum, maximum, minLength and nested required failures name the limit and the value', async () => {
    const client = await connect(server);
    assert.deepEqual(
      await call(client, 'strict', { n: 0, s: 'ok', mode: 'x', nested: {} }),
      failure(
        [
          'Invalid arguments for tool "strict":',
          '- mode: must have at least 2 characters (got 1)',
          '- n: must be >= 1 (got 0)',
          '- nested.q: is required but missing',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      await call(client, 'strict', { n: 11, s: 'ok', mode: 'xy' }),
      failure('Invalid arguments for tool "strict":\n- n: must be <= 10 (got 11)'),
    );
  });

  it('TL-19 a tool with no arguments rejects an unexpected one by name', async () => {
    const bare = testServer();
    bare.tool({ name: 'bare', handler: () => 'ok' });
    const client = await connect(bare);
    assert.deepEqual(
      await call(client, 'bare', { surprise: 1 }),
      failure('Invalid arguments for tool "bare":\n- surprise: is not allowed (unknown property)'),
    );
    assert.deepEqual(await call(client, 'bare', {}), { content: [{ type: 'text', text: 'ok' }] });
    assert.deepEqual(await call(client, 'bare'), { content: [{ type: 'text', text: 'ok' }] });
  });

  it('TL-19 a Zod schema reports each failing field and what it expected', async () => {
    const client = await connect(server);
    assert.deepEqual(
      await call(client, 'zodStrict', { n: 'x', s: 'ABC', e: 'z', nested: { q: 1 }, extra: 1 }),
      failure(
        [
          'Invalid arguments for tool "zodStrict":',
          '- (root): Unrecognized key: "extra"',
          '- e: Invalid option: expected one of "a"|"b"',
          '- n: Invalid input: expected number, received string',
          '- nested.q: Invalid input: expected boolean, received number',
          '- s: Invalid string: must match pattern /^[a-z]+$/',
        ].join('\n'),
      ),
    );
    assert.deepEqual(
      await call(client, 'zodStrict', { n: 11, s: 'ok', e: 'a', nested: {} }),
      failure(
        [
          'Invalid arguments for tool "zodStrict":',
          '- n: Too big: expected number to be <=10',
          '- nested.q: Invalid input: expected boolean, received undefined',
        ].join('\n'),
      ),
    );
  });

  it('TL-19 the handler never runs when arguments are invalid', async () => {
    let ran = false;
    const guarded = testServer();
    guarded.tool({
      name: 'guarded',
      inputSchema: { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] },
      handler: () => {
        ran = true;
        return 'ran';
      },
    });
    const client = await connect(guarded);
    assert.equal((await call(client, 'guarded', {})).isError, true);
    assert.equal(ran, false);
  });

  it('§3.9 inputValidationErrors: "protocol" turns the same failure into -32602 with the same text', async () => {
    const strictServer = testServer({ inputValidationErrors: 'protocol' });
    strictServer.tool({ name: 'p', inputSchema: z.object({ a: z.number() }), handler: ({ a }) => String(a) });
    const client = await connect(strictServer);
    assert.deepEqual(
      await client.request('tools/call', modern({ name: 'p', arguments: { a: 'x' } }), { id: 1 }),
      {
        jsonrpc: '2.0',
        id: 1,
        error: {
          code: -32602,
          message: 'Invalid arguments for tool "p":\n- a: Invalid input: expected number, received string',
        },
      },
    );
  });
});

describe('core tools/call: what a handler returns', () => {
  const server = testServer();
  server.tool({ name: 'str', handler: () => 'hello' });
  server.tool({
    name: 'block',
    handler: () => text('one', { annotations: { audience: ['user'], priority: 1 } }),
  });
  server.tool({ name: 'blocks', handler: () => [text('one'), text('two')] });
  server.tool({ name: 'object', handler: () => ({ a: 1, b: [true] }) });
  // Explicit <no input, no output schema>: inference alone types the return as an object (see the report).
  server.tool<undefined, undefined>({ name: 'array', handler: () => [1, 2] });
  server.tool<undefined, undefined>({ name: 'number', handler: () => 42 });
  server.tool({ name: 'nothing', handler: () => undefined });
  server.tool({
    name: 'full',
    handler: () =>
      toolResult({
        content: [{ type: 'text', text: 'x' }],
        structuredContent: { k: true },
        _meta: { 'com.example/trace': 'abc' },
      }),
  });
  server.tool({
    name: 'selfError',
    handler: () => ({ content: [{ type: 'text', text: 'nope' }], isError: true }),
  });

  it('§3.6 a string becomes one text block', async () => {
    assert.deepEqual(await call(await connect(server), 'str'), {
      content: [{ type: 'text', text: 'hello' }],
    });
  });

  it('§3.7 a content block (with annotations) becomes the content', async () => {
    assert.deepEqual(await call(await connect(server), 'block'), {
      content: [{ type: 'text', text: 'one', annotations: { audience: ['user'], priority: 1 } }],
    });
  });

  it('§3.7 an array of content blocks becomes the content', async () => {
    assert.deepEqual(await call(await connect(server), 'blocks'), {
      content: [
        { type: 'text', text: 'one' },
        { type: 'text', text: 'two' },
      ],
    });
  });

  it('TL-13 an object becomes structuredContent plus its JSON as a text block', async () => {
    assert.deepEqual(await call(await connect(server), 'object'), {
      content: [{ type: 'text', text: '{"a":1,"b":[true]}' }],
      structuredContent: { a: 1, b: [true] },
    });
  });

  it('§3.8 on the modern wire structuredContent may be an array or a number', async () => {
    const client = await connect(server);
    assert.deepEqual(await call(client, 'array'), {
      content: [{ type: 'text', text: '[1,2]' }],
      structuredContent: [1, 2],
    });
    assert.deepEqual(await call(client, 'number'), {
      content: [{ type: 'text', text: '42' }],
      structuredContent: 42,
    });
  });

  it('§3.6 undefined becomes an empty content array', async () => {
    assert.deepEqual(await call(await connect(server), 'nothing'), { content: [] });
  });

  it('§3.6 a full CallToolResult is kept as it is, its _meta merged with serverInfo', async () => {
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'full' }));
    assert.deepEqual(response.result, {
      resultType: 'complete',
      content: [{ type: 'text', text: 'x' }],
      structuredContent: { k: true },
      _meta: { 'com.example/trace': 'abc', ...SERVER_INFO_META },
    });
  });

  it('TL-17 a CallToolResult with isError: true from the handler goes out as it is', async () => {
    assert.deepEqual(await call(await connect(server), 'selfError'), failure('nope'));
  });

  it('TL-10 a 2025-03-26 session gets no structuredContent, only the text block', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-03-26');
    assert.deepEqual((await client.request('tools/call', { name: 'object' })).result, {
      content: [{ type: 'text', text: '{"a":1,"b":[true]}' }],
    });
    assert.deepEqual((await client.request('tools/call', { name: 'full' })).result, {
      content: [{ type: 'text', text: 'x' }],
      _meta: { 'com.example/trace': 'abc' },
    });
  });

  it('TL-10 a 2025-06-18 session keeps object structuredContent and drops non-object ones', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual((await client.request('tools/call', { name: 'object' })).result, {
      content: [{ type: 'text', text: '{"a":1,"b":[true]}' }],
      structuredContent: { a: 1, b: [true] },
    });
    assert.deepEqual((await client.request('tools/call', { name: 'array' })).result, {
      content: [{ type: 'text', text: '[1,2]' }],
    });
  });
});

describe('core tools/call: content helpers', () => {
  it('§3.7 image, audio, resource link and embedded resources (text and blob) reach the client intact', async () => {
    const server = testServer();
    server.tool({
      name: 'media',
      handler: () => [
        image(new Uint8Array([1, 2, 3]), 'image/png'),
        audio('UklGRg==', 'audio/wav'),
        resourceLink({
          uri: 'https://example.com/report.csv',
          name: 'report',
          mimeType: 'text/csv',
          size: 120,
        }),
        embeddedResource({ uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hi' }),
        embeddedResource({ uri: 'file:///blob.bin', blob: new Uint8Array([255, 0]) }),
      ],
    });
    assert.deepEqual(await call(await connect(server), 'media'), {
      content: [
        { type: 'image', data: 'AQID', mimeType: 'image/png' },
        { type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
        {
          type: 'resource_link',
          uri: 'https://example.com/report.csv',
          name: 'report',
          mimeType: 'text/csv',
          size: 120,
        },
        { type: 'resource', resource: { uri: 'file:///notes.txt', mimeType: 'text/plain', text: 'hi' } },
        { type: 'resource', resource: { uri: 'file:///blob.bin', blob: '/wA=' } },
      ],
    });
  });

  for (const [label, make, message] of [
    [
      'image() with data that is not base64',
      () => image('not base64!', 'image/png'),
      'image(): data is not valid base64',
    ],
    [
      'image() with an audio MIME type',
      () => image('AAAA', 'audio/wav'),
      'image(): MIME type must be image/*, got "audio/wav"',
    ],
    ['image() with a malformed MIME type', () => image('AAAA', 'png'), 'image(): "png" is not a MIME type'],
    [
      'audio() with an image MIME type',
      () => audio('AAAA', 'image/png'),
      'audio(): MIME type must be audio/*, got "image/png"',
    ],
    [
      'audio() with base64 of the wrong length',
      () => audio('AAA', 'audio/wav'),
      'audio(): data is not valid base64',
    ],
    [
      'resourceLink() with a relative URI',
      () => resourceLink({ uri: 'report.csv', name: 'r' }),
      'resourceLink(): "report.csv" is not an absolute URI',
    ],
    [
      'embeddedResource() with neither text nor blob',
      () => embeddedResource({ uri: 'file:///x' }),
      'embeddedResource(): give exactly one of text or blob',
    ],
    [
      'embeddedResource() with both text and blob',
      () => embeddedResource({ uri: 'file:///x', text: 'a', blob: 'AAAA' }),
      'embeddedResource(): give exactly one of text or blob',
    ],
  ] as const) {
    it(`§3.7 ${label} throws a TypeError saying so`, () => {
      assert.throws(make, { name: 'TypeError', message });
    });
  }
});

describe('core tools/call: errors, and what reaches the client', () => {
  it('TL-17 a ToolError message reaches the client as an isError result', async () => {
    const server = testServer();
    server.tool({
      name: 'city',
      handler: () => {
        throw new ToolError('The city "Atlantis" was not found; try a real city name');
      },
    });
    assert.deepEqual(
      await call(await connect(server), 'city'),
      failure('The city "Atlantis" was not found; try a real city name'),
    );
  });

  it('TL-21 a thrown Error is hidden behind a neutral message with a reference; the details go only to the log', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.tool({
      name: 'boom',
      handler: () => {
        throw new Error('cannot open /etc/secret/path.txt with token=sk-abc123');
      },
    });
    const client = await connect(server);
    const result = await call(client, 'boom');
    const message = (result.content as { text: string }[])[0]?.text ?? '';
    const match = /^Tool "boom" failed with an internal error \(reference ([0-9a-f]{8})\)$/.exec(message);
    assert.ok(match, message);
    assert.equal(result.isError, true);
    const wire = client.traffic.map((t) => t.text).join('\n');
    assert.ok(!wire.includes('/etc/secret/path.txt'), 'the path never reaches the wire');
    assert.ok(!wire.includes('sk-abc123'), 'the token never reaches the wire');
    const log = logger.text();
    assert.ok(log.includes('/etc/secret/path.txt'), log);
    assert.ok(log.includes('token=sk-abc123'), log);
    assert.ok(log.includes(`reference ${match[1]}`), 'the log line carries the same reference');
  });

  it('TL-21 a thrown non-Error value (a string) is hidden the same way', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.tool({
      name: 'raw',
      handler: () => {
        throw 'password=hunter2'; // the subject: code that throws a bare string, not an Error
      },
    });
    const client = await connect(server);
    assert.match(
      firstText(await client.request('tools/call', modern({ name: 'raw' }))),
      /^Tool "raw" failed with an internal error \(reference [0-9a-f]{8}\)$/,
    );
    assert.ok(!client.traffic.some((t) => t.text.includes('hunter2')));
    assert.ok(logger.text().includes('hunter2'));
  });

  it('§Errors a non-wire error thrown by middleware becomes -32603 with a reference, details only in the log', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.use(() => Promise.reject(new Error('db password=swordfish')));
    const client = await connect(server);
    const response = await client.request('tools/list', modern(), { id: 1 });
    assert.equal(response.error?.code, -32603);
    assert.match(response.error?.message ?? '', /^Internal error \(reference [0-9a-f]{8}\)$/);
    assert.ok(!client.traffic.some((t) => t.text.includes('swordfish')));
    assert.ok(logger.text().includes('swordfish'));
  });

  it('TL-11 output that does not match outputSchema is a neutral isError; the mismatch is only in the log', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.tool({
      name: 'sum',
      outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] },
      handler: () => ({ total: 'three' }),
    });
    const client = await connect(server);
    const result = await call(client, 'sum');
    const message = (result.content as { text: string }[])[0]?.text ?? '';
    const match =
      /^Tool "sum" produced output that does not match its declared outputSchema; this is a bug in the server \(reference ([0-9a-f]{8})\)$/.exec(
        message,
      );
    assert.ok(match, message);
    assert.equal(result.isError, true);
    assert.equal(result.structuredContent, undefined);
    const wire = client.traffic.map((t) => t.text).join('\n');
    assert.ok(
      !wire.includes('three') && !wire.includes('required'),
      'neither the output nor the schema failure leaks',
    );
    const log = logger.lines.find((line) => line.message.includes(`reference ${match[1]}`));
    assert.equal(
      log?.message,
      `tool "sum" returned output that does not match its outputSchema (reference ${match[1]}): Output of tool "sum" does not match its outputSchema:\n- sum: is required but missing`,
    );
  });

  it('TL-11 a Zod outputSchema is enforced the same way, and matching output passes through', async () => {
    const server = testServer();
    server.tool({ name: 'good', outputSchema: z.object({ sum: z.number() }), handler: () => ({ sum: 3 }) });
    server.tool({
      name: 'bad',
      outputSchema: z.object({ sum: z.number() }),
      handler: () => ({ sum: 'x' }) as never, // the subject: a handler that breaks its own outputSchema
    });
    const client = await connect(server);
    assert.deepEqual(await call(client, 'good'), {
      content: [{ type: 'text', text: '{"sum":3}' }],
      structuredContent: { sum: 3 },
    });
    assert.match(
      firstText(await client.request('tools/call', modern({ name: 'bad' }))),
      /^Tool "bad" produced output that does not match its declared outputSchema;/,
    );
  });

  it('§3.8 an isError result of a tool with outputSchema is not checked against the schema', async () => {
    const server = testServer();
    server.tool({
      name: 'strictOut',
      outputSchema: z.object({ sum: z.number() }),
      handler: () => {
        throw new ToolError('inputs out of range');
      },
    });
    assert.deepEqual(await call(await connect(server), 'strictOut'), failure('inputs out of range'));
  });
});
