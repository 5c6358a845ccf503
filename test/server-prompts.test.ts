// Server prompts on both eras: prompts/list, prompts/get with argument checks and every content kind, what a broken
// prompt shows (client) versus records (log), list changes, MRTR from prompts/get, and registration errors.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefinitionError, ToolError } from '../src/index.js';
import { ErrorCode, RpcError } from '../src/jsonrpc/index.js';
import type { PromptConfig } from '../src/server/prompts.js';
import {
  SERVER_INFO_META,
  capturingLogger,
  connect,
  initializeLegacy,
  isNotification,
  isResponseTo,
  isServerRequest,
  modern,
  testServer,
} from './support/harness.js';
import { completeResult, errorOf, isTagged, modernWith, openListen } from './support/raw-client.js';

const PNG_BASE64 = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).toString('base64');

function promptServer(options: Parameters<typeof testServer>[0] = {}) {
  const server = testServer(options);
  server.prompt({
    name: 'test_simple_prompt',
    description: 'A simple prompt without arguments',
    get: () => 'This is a simple prompt for testing.',
  });
  server.prompt({
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
    get: ({ arg1, arg2 }) => [
      {
        role: 'user',
        content: { type: 'text', text: `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'` },
      },
    ],
  });
  server.prompt({
    name: 'optional_args',
    description: 'Optional arguments only',
    arguments: [{ name: 'style' }, { name: 'tone', required: false }],
    get: (args) => JSON.stringify(args),
  });
  server.prompt({
    name: 'test_prompt_with_image',
    description: 'A prompt with an image',
    get: () => [
      { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
      { role: 'user', content: { type: 'text', text: 'What is in this image?' } },
    ],
  });
  server.prompt({
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt with an embedded resource',
    arguments: [{ name: 'resourceUri', required: true }],
    get: ({ resourceUri }) => ({
      description: 'Embedded resource prompt',
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: resourceUri as string,
              mimeType: 'text/plain',
              text: 'Embedded resource content',
            },
          },
        },
        {
          role: 'assistant',
          content: { type: 'resource_link', uri: 'test://linked', name: 'linked', mimeType: 'text/plain' },
        },
      ],
    }),
  });
  return server;
}

const LISTED = [
  { name: 'test_simple_prompt', description: 'A simple prompt without arguments' },
  {
    name: 'test_prompt_with_arguments',
    title: 'Prompt with arguments',
    description: 'A prompt with two required arguments',
    arguments: [
      { name: 'arg1', description: 'First argument', required: true },
      { name: 'arg2', description: 'Second argument', required: true },
    ],
  },
  {
    name: 'optional_args',
    description: 'Optional arguments only',
    arguments: [{ name: 'style' }, { name: 'tone', required: false }],
  },
  { name: 'test_prompt_with_image', description: 'A prompt with an image' },
  {
    name: 'test_prompt_with_embedded_resource',
    description: 'A prompt with an embedded resource',
    arguments: [{ name: 'resourceUri', required: true }],
  },
];

describe('server prompts: prompts/list', () => {
  const server = promptServer({ listCache: { ttlMs: 600_000, cacheScope: 'public' } });

  it('prompts.mdx: prompts/list gives every prompt in registration order, with ttlMs, cacheScope and resultType (modern)', async () => {
    const client = await connect(server);
    assert.deepEqual(await client.request('prompts/list', modern(), { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      result: {
        prompts: LISTED,
        ttlMs: 600_000,
        cacheScope: 'public',
        resultType: 'complete',
        _meta: SERVER_INFO_META,
      },
    });
  });

  it('legacy 2025-11-25: prompts/list has the prompts only', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual((await client.request('prompts/list', {})).result, { prompts: LISTED });
  });

  it('pagination.mdx: prompts/list pages with pageSize 2; an invalid cursor gets -32602', async () => {
    const paged = promptServer({ pageSize: 2 });
    const client = await connect(paged);
    const names: string[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const page = completeResult(
        await client.request('prompts/list', modern(cursor === undefined ? {} : { cursor })),
      );
      names.push(...(page.prompts as { name: string }[]).map((prompt) => prompt.name));
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined);
    assert.equal(pages, 3);
    assert.deepEqual(
      names,
      LISTED.map((prompt) => prompt.name),
    );
    assert.deepEqual(errorOf(await client.request('prompts/list', modern({ cursor: 'zzz' }))), {
      code: -32602,
      message: 'Invalid params: invalid or expired cursor; list again without a cursor',
    });
  });

  it('prompts.mdx (the list MAY change): a disabled prompt leaves the list and cannot be got; enabling brings it back', async () => {
    const local = promptServer();
    const handle = local.prompt({ name: 'toggled', get: () => 'on' });
    const client = await connect(local);
    handle.disable();
    const names = (
      completeResult(await client.request('prompts/list', modern())).prompts as { name: string }[]
    ).map((prompt) => prompt.name);
    assert.ok(!names.includes('toggled'));
    assert.deepEqual(errorOf(await client.request('prompts/get', modern({ name: 'toggled' }))), {
      code: -32602,
      message: 'Unknown prompt: "toggled"',
      data: { name: 'toggled' },
    });
    handle.enable();
    assert.deepEqual(completeResult(await client.request('prompts/get', modern({ name: 'toggled' }))), {
      messages: [{ role: 'user', content: { type: 'text', text: 'on' } }],
    });
  });
});

describe('server prompts: prompts/get', () => {
  const server = promptServer();

  it('prompts-get-simple: a string becomes one user text message (modern result has resultType, no cache hints)', async () => {
    const client = await connect(server);
    assert.deepEqual(
      await client.request('prompts/get', modern({ name: 'test_simple_prompt' }), { id: 'g' }),
      {
        jsonrpc: '2.0',
        id: 'g',
        result: {
          messages: [
            { role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } },
          ],
          resultType: 'complete',
          _meta: SERVER_INFO_META,
        },
      },
    );
  });

  it('prompts-get-with-args: declared arguments reach get() and appear in the messages', async () => {
    const client = await connect(server);
    const params = {
      name: 'test_prompt_with_arguments',
      arguments: { arg1: 'testValue1', arg2: 'testValue2' },
    };
    assert.deepEqual(completeResult(await client.request('prompts/get', modern(params))), {
      messages: [
        {
          role: 'user',
          content: { type: 'text', text: "Prompt with arguments: arg1='testValue1', arg2='testValue2'" },
        },
      ],
    });
  });

  it('prompts.mdx (only required arguments are required): optional arguments may be left out; get() sees only what was given', async () => {
    const client = await connect(server);
    const text = async (args?: Record<string, string>) =>
      (
        completeResult(
          await client.request(
            'prompts/get',
            modern(
              args === undefined ? { name: 'optional_args' } : { name: 'optional_args', arguments: args },
            ),
          ),
        ).messages as { content: { text: string } }[]
      )[0]?.content.text;
    assert.equal(await text(), '{}');
    assert.equal(await text({}), '{}');
    assert.equal(await text({ tone: 'dry' }), '{"tone":"dry"}');
  });

  it('prompts-get-with-image: image content keeps data and mimeType', async () => {
    const client = await connect(server);
    assert.deepEqual(
      completeResult(await client.request('prompts/get', modern({ name: 'test_prompt_with_image' }))),
      {
        messages: [
          { role: 'user', content: { type: 'image', data: PNG_BASE64, mimeType: 'image/png' } },
          { role: 'user', content: { type: 'text', text: 'What is in this image?' } },
        ],
      },
    );
  });

  it('prompts-get-embedded-resource: a full result (description, embedded resource, resource link) is kept as is', async () => {
    const client = await connect(server);
    const params = {
      name: 'test_prompt_with_embedded_resource',
      arguments: { resourceUri: 'test://example-resource' },
    };
    assert.deepEqual(completeResult(await client.request('prompts/get', modern(params))), {
      description: 'Embedded resource prompt',
      messages: [
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: 'test://example-resource',
              mimeType: 'text/plain',
              text: 'Embedded resource content',
            },
          },
        },
        {
          role: 'assistant',
          content: { type: 'resource_link', uri: 'test://linked', name: 'linked', mimeType: 'text/plain' },
        },
      ],
    });
  });

  it('legacy 2025-06-18: prompts/get has description and messages only', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-06-18');
    assert.deepEqual((await client.request('prompts/get', { name: 'test_simple_prompt' })).result, {
      messages: [{ role: 'user', content: { type: 'text', text: 'This is a simple prompt for testing.' } }],
    });
  });
});

describe('server prompts: bad prompts/get requests (-32602)', () => {
  const server = promptServer();
  const cases: [string, Record<string, unknown>, { code: number; message: string; data?: unknown }][] = [
    [
      'a missing required argument',
      { name: 'test_prompt_with_arguments', arguments: { arg2: 'b' } },
      {
        code: -32602,
        message: 'Invalid params: missing required argument "arg1" for prompt "test_prompt_with_arguments"',
      },
    ],
    [
      'missing required arguments when no arguments are sent at all',
      { name: 'test_prompt_with_arguments' },
      {
        code: -32602,
        message: 'Invalid params: missing required argument "arg1" for prompt "test_prompt_with_arguments"',
      },
    ],
    [
      'an argument the prompt does not declare',
      { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: 'b', arg3: 'c' } },
      {
        code: -32602,
        message:
          'Invalid params: prompt "test_prompt_with_arguments" has no argument "arg3" (its arguments: arg1, arg2)',
      },
    ],
    [
      'an argument for a prompt that has none',
      { name: 'test_simple_prompt', arguments: { x: '1' } },
      {
        code: -32602,
        message: 'Invalid params: prompt "test_simple_prompt" has no argument "x" (its arguments: none)',
      },
    ],
    [
      'a numeric argument value',
      { name: 'test_prompt_with_arguments', arguments: { arg1: 42, arg2: 'b' } },
      {
        code: -32602,
        message: 'Invalid params: argument "arg1" of prompt "test_prompt_with_arguments" must be a string',
      },
    ],
    [
      'a null argument value',
      { name: 'test_prompt_with_arguments', arguments: { arg1: 'a', arg2: null } },
      {
        code: -32602,
        message: 'Invalid params: argument "arg2" of prompt "test_prompt_with_arguments" must be a string',
      },
    ],
    [
      'an object argument value',
      { name: 'test_prompt_with_arguments', arguments: { arg1: { nested: 'a' }, arg2: 'b' } },
      {
        code: -32602,
        message: 'Invalid params: argument "arg1" of prompt "test_prompt_with_arguments" must be a string',
      },
    ],
    [
      'arguments that are an array',
      { name: 'test_prompt_with_arguments', arguments: ['a', 'b'] },
      {
        code: -32602,
        message:
          'Invalid params: arguments of prompt "test_prompt_with_arguments" must be an object of strings',
      },
    ],
    [
      'arguments that are null',
      { name: 'test_prompt_with_arguments', arguments: null },
      {
        code: -32602,
        message:
          'Invalid params: arguments of prompt "test_prompt_with_arguments" must be an object of strings',
      },
    ],
    [
      'an invalid prompt name',
      { name: 'nope' },
      { code: -32602, message: 'Unknown prompt: "nope"', data: { name: 'nope' } },
    ],
    ['no name', {}, { code: -32602, message: 'Invalid params: prompts/get needs params.name (a string)' }],
    [
      'a numeric name',
      { name: 3 },
      { code: -32602, message: 'Invalid params: prompts/get needs params.name (a string)' },
    ],
  ];
  for (const [label, params, error] of cases) {
    it(`prompts.mdx SHOULD -32602 (validate prompt arguments): ${label}: ${error.message}`, async () => {
      const client = await connect(server);
      assert.deepEqual(await client.request('prompts/get', modern(params), { id: 7 }), {
        jsonrpc: '2.0',
        id: 7,
        error,
      });
    });
  }

  it('legacy: a missing required argument gets the same -32602', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(errorOf(await client.request('prompts/get', { name: 'test_prompt_with_arguments' })), {
      code: -32602,
      message: 'Invalid params: missing required argument "arg1" for prompt "test_prompt_with_arguments"',
    });
  });
});

describe('server prompts: a get() that fails or returns garbage', () => {
  const logger = capturingLogger();
  const server = testServer({ logger });
  const garbage: [string, unknown][] = [
    ['an object without messages', { foo: 1 }],
    ['a number', 42],
    ['undefined', undefined],
    ['a message with role "system"', [{ role: 'system', content: { type: 'text', text: 'x' } }]],
    ['a message with an unknown content type', [{ role: 'user', content: { type: 'video', url: 'x' } }]],
    ['a message whose content is a string', [{ role: 'user', content: 'hi' }]],
    ['messages that are not an array', { messages: { role: 'user' } }],
  ];
  garbage.forEach(([, value], index) => {
    server.prompt({ name: `garbage${index}`, get: () => value as ReturnType<PromptConfig['get']> });
  });
  server.prompt({
    name: 'throws',
    get: () => {
      throw new Error('secret connection string postgres://u:p@db');
    },
  });
  server.prompt({
    name: 'toolError',
    get: () => {
      throw new ToolError('The template store is offline');
    },
  });
  server.prompt({
    name: 'rpcError',
    get: () => {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: arg1 must name a known repository', {
        arg: 'arg1',
      });
    },
  });

  garbage.forEach(([label], index) => {
    it(`prompts.mdx SHOULD -32603: get() returning ${label} is a neutral internal error with a logged reference`, async () => {
      const client = await connect(server);
      const error = errorOf(await client.request('prompts/get', modern({ name: `garbage${index}` })));
      assert.equal(error.code, -32603);
      const reference = new RegExp(
        `^Prompt "garbage${index}" produced invalid messages \\(reference ([0-9a-f]{8})\\)$`,
      ).exec(error.message)?.[1];
      assert.ok(reference !== undefined, error.message);
      assert.equal(error.data, undefined);
      assert.ok(
        logger.lines.some(
          (line) =>
            line.level === 'error' &&
            line.message ===
              `prompt "garbage${index}" returned something that is not prompt messages (reference ${reference})`,
        ),
        logger.text(),
      );
    });
  });

  it('prompts.mdx SHOULD -32603: a get() that throws gets "Internal error (reference …)"; the details go only to the log', async () => {
    const client = await connect(server);
    const error = errorOf(await client.request('prompts/get', modern({ name: 'throws' })));
    const reference = /^Internal error \(reference ([0-9a-f]{8})\)$/.exec(error.message)?.[1];
    assert.equal(error.code, -32603);
    assert.ok(reference !== undefined, error.message);
    assert.ok(!client.traffic.some((entry) => entry.text.includes('postgres://')));
    assert.match(logger.text(), new RegExp(`prompts/get failed \\(reference ${reference}\\)`));
    assert.match(logger.text(), /secret connection string postgres:\/\/u:p@db/);
  });

  it('prompts.mdx -32603 for internal errors: a ToolError from get() is -32603 with its message (meant for the client)', async () => {
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('prompts/get', modern({ name: 'toolError' }))), {
      code: -32603,
      message: 'The template store is offline',
    });
  });

  it('prompts.mdx standard JSON-RPC errors: an RpcError from get() goes out as it is', async () => {
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('prompts/get', modern({ name: 'rpcError' }))), {
      code: -32602,
      message: 'Invalid params: arg1 must name a known repository',
      data: { arg: 'arg1' },
    });
  });
});

describe('server prompts: list_changed on both eras', () => {
  it('prompts.mdx SHOULD: adding, disabling and removing a prompt notify legacy sessions and listen streams with promptsListChanged', async () => {
    const server = promptServer();
    const legacy = await connect(server);
    await initializeLegacy(legacy, '2025-11-25');
    await legacy.flush();
    const listener = await connect(server);
    assert.deepEqual(await openListen(listener, 'pl', { promptsListChanged: true }), {
      promptsListChanged: true,
    });
    await openListen(listener, 'resources-only', { resourcesListChanged: true });

    const count = () => ({
      legacy: legacy.notifications().length,
      listener: listener.notifications().length,
    });
    let before = count();
    const handle = server.prompt({ name: 'late', get: () => 'late' });
    assert.deepEqual(
      await legacy.waitFor(isNotification('notifications/prompts/list_changed'), undefined, before.legacy),
      { jsonrpc: '2.0', method: 'notifications/prompts/list_changed' },
    );
    assert.deepEqual(
      await listener.waitFor(
        isNotification('notifications/prompts/list_changed'),
        undefined,
        before.listener,
      ),
      {
        jsonrpc: '2.0',
        method: 'notifications/prompts/list_changed',
        params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'pl' } },
      },
    );
    for (const change of [() => handle.disable(), () => handle.enable(), () => handle.remove()]) {
      before = count();
      change();
      await legacy.waitFor(isNotification('notifications/prompts/list_changed'), undefined, before.legacy);
      await listener.waitFor(
        isTagged('notifications/prompts/list_changed', 'pl'),
        undefined,
        before.listener,
      );
    }
    await listener.flush();
    assert.ok(
      !listener
        .notifications()
        .some(
          (m) => m.method === 'notifications/prompts/list_changed' && isTagged(m.method, 'resources-only')(m),
        ),
      'SU-02: a stream that did not ask for prompt changes gets none',
    );
  });

  it('SU-04: a server without prompts leaves promptsListChanged out of the acknowledgement', async () => {
    const server = testServer();
    server.tool({ name: 'noop', handler: () => 'ok' });
    const client = await connect(server);
    assert.deepEqual(await openListen(client, 1, { promptsListChanged: true }), {});
  });

  it('-32601 for a capability never advertised: prompts/list and prompts/get on a server without prompts get -32601 and no prompts capability is advertised', async () => {
    const server = testServer();
    server.tool({ name: 'noop', handler: () => 'ok' });
    const client = await connect(server);
    for (const method of ['prompts/list', 'prompts/get']) {
      assert.deepEqual(errorOf(await client.request(method, modern({ name: 'x' }))), {
        code: -32601,
        message: `Method not found: ${method}`,
      });
    }
    const capabilities = completeResult(await client.request('server/discover', modern())).capabilities;
    assert.deepEqual(capabilities, { tools: { listChanged: true }, logging: {} });
    const withPrompts = await connect(promptServer());
    assert.deepEqual(completeResult(await withPrompts.request('server/discover', modern())).capabilities, {
      tools: { listChanged: true },
      logging: {},
      prompts: { listChanged: true },
      completions: {},
    });
  });
});

describe('server prompts: MRTR from prompts/get (2026-07-28)', () => {
  const server = testServer();
  server.prompt({
    name: 'test_input_required_result_prompt',
    description: 'Asks who the prompt is for',
    arguments: [{ name: 'topic', required: true }],
    get: async ({ topic }, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Who is the audience?',
          requestedSchema: {
            type: 'object',
            properties: { audience: { type: 'string' } },
            required: ['audience'],
          },
        },
        'audience',
      );
      return `Explain ${topic} to ${String(answer.content?.audience)}.`;
    },
  });
  const caps = { elicitation: {} };
  const params = { name: 'test_input_required_result_prompt', arguments: { topic: 'MRTR' } };
  const inputRequests = {
    audience: {
      method: 'elicitation/create',
      params: {
        message: 'Who is the audience?',
        requestedSchema: {
          type: 'object',
          properties: { audience: { type: 'string' } },
          required: ['audience'],
        },
      },
    },
  };

  async function firstRound(client: Awaited<ReturnType<typeof connect>>): Promise<string> {
    const first = await client.request('prompts/get', modernWith(caps, params));
    const requestState = first.result?.requestState;
    assert.equal(typeof requestState, 'string');
    assert.deepEqual(first.result, {
      resultType: 'input_required',
      inputRequests,
      requestState,
      _meta: SERVER_INFO_META,
    });
    return requestState as string;
  }

  it('MR-01 non-tool-request: prompts/get answers input_required; the retry with the answer and requestState completes', async () => {
    const client = await connect(server);
    const requestState = await firstRound(client);
    const retry = await client.request(
      'prompts/get',
      modernWith(caps, {
        ...params,
        inputResponses: { audience: { action: 'accept', content: { audience: 'new engineers' } } },
        requestState,
      }),
    );
    assert.deepEqual(completeResult(retry), {
      messages: [{ role: 'user', content: { type: 'text', text: 'Explain MRTR to new engineers.' } }],
    });
  });

  it('MR-09: a retry whose inputResponses miss the key is asked again (input_required), extra keys are ignored', async () => {
    const client = await connect(server);
    const requestState = await firstRound(client);
    const retry = await client.request(
      'prompts/get',
      modernWith(caps, {
        ...params,
        inputResponses: { wrong_key: { action: 'accept', content: {} } },
        requestState,
      }),
    );
    assert.equal(retry.result?.resultType, 'input_required');
    assert.deepEqual(retry.result?.inputRequests, inputRequests);
    const extra = await client.request(
      'prompts/get',
      modernWith(caps, {
        ...params,
        inputResponses: {
          audience: { action: 'accept', content: { audience: 'ops' } },
          unrelated: { anything: true },
        },
        requestState,
      }),
    );
    assert.deepEqual(completeResult(extra).messages, [
      { role: 'user', content: { type: 'text', text: 'Explain MRTR to ops.' } },
    ]);
  });

  for (const [label, inputResponses, message] of [
    ['null', null, 'Invalid params: inputResponses must be an object keyed by input request'],
    [
      'an elicitation answer of 12345',
      { audience: 12345 },
      'Invalid params: inputResponses["audience"] is not a valid elicitation/create result (expected an object)',
    ],
    [
      'an elicitation answer with action "maybe"',
      { audience: { action: 'maybe' } },
      'Invalid params: inputResponses["audience"] is not a valid elicitation/create result (action must be "accept", "decline" or "cancel")',
    ],
  ] as const) {
    it(`MR-09 validate-input: inputResponses ${label} gets -32602`, async () => {
      const client = await connect(server);
      const requestState = await firstRound(client);
      assert.deepEqual(
        errorOf(
          await client.request('prompts/get', modernWith(caps, { ...params, inputResponses, requestState })),
        ),
        { code: -32602, message },
      );
    });
  }

  it('MR-05 tampered-state: a tampered requestState gets -32602; one bound to other arguments too', async () => {
    const client = await connect(server);
    const requestState = await firstRound(client);
    const answer = { audience: { action: 'accept', content: { audience: 'x' } } };
    assert.deepEqual(
      errorOf(
        await client.request(
          'prompts/get',
          modernWith(caps, { ...params, inputResponses: answer, requestState: requestState + '-TAMPERED' }),
        ),
      ),
      {
        code: -32602,
        message: 'Invalid params: requestState failed verification; send the request again without it',
      },
    );
    assert.deepEqual(
      errorOf(
        await client.request(
          'prompts/get',
          modernWith(caps, {
            ...params,
            arguments: { topic: 'other' },
            inputResponses: answer,
            requestState,
          }),
        ),
      ),
      {
        code: -32602,
        message:
          'Invalid params: requestState belongs to a different call; send the request again without it',
      },
    );
  });

  it('MR-04 capability-check: without elicitation the request gets -32021 with requiredCapabilities', async () => {
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('prompts/get', modern(params))), {
      code: -32021,
      message:
        'Missing required client capability: this request needs elicitation/create, which the request did not declare',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('legacy 2025-11-25: the same prompt asks through an elicitation/create request', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', { elicitation: {} });
    client.send({ jsonrpc: '2.0', id: 'p', method: 'prompts/get', params });
    const ask = await client.waitFor(isServerRequest('elicitation/create'));
    assert.deepEqual(ask.params, inputRequests.audience.params);
    client.send({
      jsonrpc: '2.0',
      id: ask.id as number,
      result: { action: 'accept', content: { audience: 'you' } },
    });
    assert.deepEqual((await client.waitFor(isResponseTo('p'))).result, {
      messages: [{ role: 'user', content: { type: 'text', text: 'Explain MRTR to you.' } }],
    });
  });
});

describe('server prompts: registration errors', () => {
  const server = promptServer();
  const get = () => 'x';
  const cases: [string, () => unknown, string][] = [
    [
      'an empty name',
      () => server.prompt({ name: '', get }),
      'Invalid prompt name "": use 1–128 characters, no control characters',
    ],
    [
      'a name with a control character',
      () => server.prompt({ name: 'a\nb', get }),
      'Invalid prompt name "a\\nb": use 1–128 characters, no control characters',
    ],
    [
      'a duplicate name',
      () => server.prompt({ name: 'test_simple_prompt', get }),
      'Prompt "test_simple_prompt" is already registered',
    ],
    ['no get function', () => server.prompt({ name: 'p' } as never), 'prompt "p": get must be a function'],
    [
      'an argument without a name',
      () => server.prompt({ name: 'p', arguments: [{ name: '' }], get }),
      'prompt "p": every argument needs a non-empty name',
    ],
    [
      'an argument declared twice',
      () => server.prompt({ name: 'p', arguments: [{ name: 'a' }, { name: 'a' }], get }),
      'prompt "p": argument "a" is declared twice',
    ],
    [
      'a complete key naming no argument',
      () => server.prompt({ name: 'p', arguments: [{ name: 'a' }], complete: { b: () => [] }, get }),
      'prompt "p": complete.b names no declared argument',
    ],
  ];
  for (const [label, register, message] of cases) {
    it(`prompts.mdx data types, checked at registration: ${label} throws DefinitionError: ${message}`, () => {
      assert.throws(register, (error: unknown) => {
        assert.ok(error instanceof DefinitionError, String(error));
        assert.equal(error.message, message);
        return true;
      });
    });
  }

  it('prompts.mdx (capability only when prompts exist): a prompt registration that throws does not turn the prompts capability on', async () => {
    const local = testServer();
    assert.throws(() => local.prompt({ name: '', get }), DefinitionError);
    const client = await connect(local);
    assert.equal(
      (
        completeResult(await client.request('server/discover', modern())).capabilities as Record<
          string,
          unknown
        >
      ).prompts,
      undefined,
    );
  });
});
