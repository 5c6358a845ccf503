// completion/complete: suggestions for prompt arguments and resource-template variables, the 100-value cap,
// context.arguments, and the exact -32602 for every kind of bad reference or argument.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SERVER_INFO_META,
  capturingLogger,
  connect,
  deferred,
  initializeLegacy,
  modern,
  testServer,
  type RawClient,
} from './support/harness.js';
import { completeResult, errorOf } from './support/raw-client.js';

const LANGUAGES = ['python', 'pytorch', 'pyside', 'rust', 'ruby'];
const OWNERS = Array.from({ length: 150 }, (_, i) => `owner${String(i).padStart(3, '0')}`);

const logger = capturingLogger();
const started = deferred();
const server = testServer({ logger });
const seenContexts: Record<string, string>[] = [];
server.prompt({
  name: 'test_prompt_with_arguments',
  arguments: [
    { name: 'arg1', required: true },
    { name: 'arg2', required: true },
  ],
  complete: {
    arg1: (value) => ['testValue1', 'testValue2', 'other'].filter((v) => v.startsWith(value)),
    arg2: (value, context) => {
      seenContexts.push({ ...context.arguments });
      return [`${context.arguments.arg1 ?? 'none'}/${value}`];
    },
  },
  get: ({ arg1, arg2 }) => `${arg1} ${arg2}`,
});
server.prompt({
  name: 'code_review',
  arguments: [{ name: 'language' }, { name: 'framework' }, { name: 'plain' }],
  complete: {
    language: async (value) => LANGUAGES.filter((language) => language.startsWith(value)),
    framework: (value, { arguments: chosen }) =>
      chosen.language === 'python' ? ['flask', 'fastapi', 'django'].filter((f) => f.startsWith(value)) : [],
  },
  get: () => 'review',
});
server.prompt({
  name: 'misbehaving',
  arguments: [{ name: 'throws' }, { name: 'mixed' }, { name: 'notArray' }, { name: 'hangs' }],
  complete: {
    throws: () => {
      throw new Error('index at /var/secret/idx is corrupt');
    },
    mixed: () => ['ok', 7, null, 'also ok'] as unknown as string[],
    notArray: () => 'not an array' as unknown as string[],
    hangs: () => {
      started.resolve();
      return new Promise<string[]>(() => undefined);
    },
  },
  get: () => 'x',
});
server.resourceTemplate({
  uriTemplate: 'test://repos/{owner}/{repo}',
  name: 'repository',
  complete: {
    owner: (value) => OWNERS.filter((owner) => owner.startsWith(value)),
    repo: (value, { arguments: chosen }) => [
      `${chosen.owner ?? '?'}/${value}-app`,
      `${chosen.owner ?? '?'}/${value}-lib`,
    ],
  },
  read: (_uri, { owner, repo }) => `${owner}/${repo}`,
});
server.resourceTemplate({ uriTemplate: 'test://plain/{id}', name: 'plain', read: () => 'plain' });
server.resource({ uri: 'test://static', name: 'static', read: () => 'static' });

async function completion(client: RawClient, params: Record<string, unknown>): Promise<unknown> {
  return completeResult(await client.request('completion/complete', modern(params))).completion;
}

describe('completion/complete: suggestions', () => {
  it('completion-complete: a prompt argument gets its completer values, total and hasMore (modern result)', async () => {
    const client = await connect(server);
    const params = {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    };
    assert.deepEqual(await client.request('completion/complete', modern(params), { id: 1 }), {
      jsonrpc: '2.0',
      id: 1,
      result: {
        completion: { values: ['testValue1', 'testValue2'], total: 2, hasMore: false },
        resultType: 'complete',
        _meta: SERVER_INFO_META,
      },
    });
  });

  it("completion.mdx: an async completer works; values come back in the completer's (relevance) order", async () => {
    const client = await connect(server);
    assert.deepEqual(
      await completion(client, {
        ref: { type: 'ref/prompt', name: 'code_review' },
        argument: { name: 'language', value: 'py' },
      }),
      { values: ['python', 'pytorch', 'pyside'], total: 3, hasMore: false },
    );
  });

  it('completion.mdx: context.arguments reaches the completer (framework after language=python)', async () => {
    const client = await connect(server);
    const ref = { type: 'ref/prompt', name: 'code_review' };
    assert.deepEqual(
      await completion(client, {
        ref,
        argument: { name: 'framework', value: 'fla' },
        context: { arguments: { language: 'python' } },
      }),
      { values: ['flask'], total: 1, hasMore: false },
    );
    assert.deepEqual(await completion(client, { ref, argument: { name: 'framework', value: 'fla' } }), {
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it('completion.mdx MUST validate all completion inputs: context.arguments: only string values are passed on; a malformed context counts as none', async () => {
    const client = await connect(server);
    const ref = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
    const argument = { name: 'arg2', value: 'v' };
    seenContexts.length = 0;
    assert.deepEqual(
      await completion(client, {
        ref,
        argument,
        context: { arguments: { arg1: 'a', n: 5, o: { x: 1 }, z: null } },
      }),
      { values: ['a/v'], total: 1, hasMore: false },
    );
    assert.deepEqual(await completion(client, { ref, argument, context: { arguments: ['a'] } }), {
      values: ['none/v'],
      total: 1,
      hasMore: false,
    });
    assert.deepEqual(await completion(client, { ref, argument, context: 'arg1=a' }), {
      values: ['none/v'],
      total: 1,
      hasMore: false,
    });
    assert.deepEqual(seenContexts, [{ arg1: 'a' }, {}, {}]);
  });

  it('completion.mdx "maximum 100 items per response": a template variable with 150 matches gets the first 100, total 150, hasMore true', async () => {
    const client = await connect(server);
    const result = await completion(client, {
      ref: { type: 'ref/resource', uri: 'test://repos/{owner}/{repo}' },
      argument: { name: 'owner', value: 'owner' },
    });
    assert.deepEqual(result, { values: OWNERS.slice(0, 100), total: 150, hasMore: true });
  });

  it('completion.mdx "maximum 100 items": exactly 100 matches is not "hasMore"; 10 matches are all returned', async () => {
    const client = await connect(server);
    const ref = { type: 'ref/resource', uri: 'test://repos/{owner}/{repo}' };
    assert.deepEqual(await completion(client, { ref, argument: { name: 'owner', value: 'owner0' } }), {
      values: OWNERS.slice(0, 100),
      total: 100,
      hasMore: false,
    });
    assert.deepEqual(await completion(client, { ref, argument: { name: 'owner', value: 'owner14' } }), {
      values: OWNERS.slice(140, 150),
      total: 10,
      hasMore: false,
    });
  });

  it('completion.mdx: a template variable completer sees context.arguments (repo after owner)', async () => {
    const client = await connect(server);
    assert.deepEqual(
      await completion(client, {
        ref: { type: 'ref/resource', uri: 'test://repos/{owner}/{repo}' },
        argument: { name: 'repo', value: 'web' },
        context: { arguments: { owner: 'owner007' } },
      }),
      { values: ['owner007/web-app', 'owner007/web-lib'], total: 2, hasMore: false },
    );
  });

  for (const [label, params] of [
    [
      'a prompt argument without a completer',
      { ref: { type: 'ref/prompt', name: 'code_review' }, argument: { name: 'plain', value: 'x' } },
    ],
    [
      'a template variable without a completer',
      { ref: { type: 'ref/resource', uri: 'test://plain/{id}' }, argument: { name: 'id', value: '1' } },
    ],
    [
      'a static resource URI (nothing to complete)',
      { ref: { type: 'ref/resource', uri: 'test://static' }, argument: { name: 'id', value: '' } },
    ],
  ] as const) {
    it(`completion.mdx (values may be empty): no completer: ${label} gets empty values`, async () => {
      const client = await connect(server);
      assert.deepEqual(await completion(client, params), { values: [], total: 0, hasMore: false });
    });
  }

  it('completion.mdx (values are strings): non-string values from a completer are dropped; a non-array result counts as no values', async () => {
    const client = await connect(server);
    const ref = { type: 'ref/prompt', name: 'misbehaving' };
    assert.deepEqual(await completion(client, { ref, argument: { name: 'mixed', value: '' } }), {
      values: ['ok', 'also ok'],
      total: 2,
      hasMore: false,
    });
    assert.deepEqual(await completion(client, { ref, argument: { name: 'notArray', value: '' } }), {
      values: [],
      total: 0,
      hasMore: false,
    });
  });

  it('completion.mdx SHOULD -32603: a throwing completer gets a neutral internal error; the details go to the log', async () => {
    const client = await connect(server);
    const error = errorOf(
      await client.request(
        'completion/complete',
        modern({ ref: { type: 'ref/prompt', name: 'misbehaving' }, argument: { name: 'throws', value: '' } }),
      ),
    );
    assert.equal(error.code, -32603);
    const reference = /^Internal error \(reference ([0-9a-f]{8})\)$/.exec(error.message)?.[1];
    assert.ok(reference !== undefined, error.message);
    assert.ok(!client.traffic.some((entry) => entry.text.includes('/var/secret')));
    assert.match(logger.text(), new RegExp(`completion/complete failed \\(reference ${reference}\\)`));
    assert.match(logger.text(), /index at \/var\/secret\/idx is corrupt/);
  });

  it('completion.mdx SHOULD -32603: a completer that never answers is given up after 5 s with a neutral internal error', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const client = await connect(server);
    client.send({
      jsonrpc: '2.0',
      id: 'slow',
      method: 'completion/complete',
      params: modern({
        ref: { type: 'ref/prompt', name: 'misbehaving' },
        argument: { name: 'hangs', value: '' },
      }),
    });
    await started.promise;
    t.mock.timers.tick(5000);
    const response = await client.waitFor((message) => message.id === 'slow');
    assert.equal(response.error?.code, -32603);
    assert.match(response.error?.message ?? '', /^Internal error \(reference [0-9a-f]{8}\)$/);
    assert.match(logger.text(), /completion timed out/);
  });

  it('legacy 2025-11-25: completion/complete answers { completion } only', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const response = await client.request('completion/complete', {
      ref: { type: 'ref/prompt', name: 'test_prompt_with_arguments' },
      argument: { name: 'arg1', value: 'test' },
    });
    assert.deepEqual(response.result, {
      completion: { values: ['testValue1', 'testValue2'], total: 2, hasMore: false },
    });
  });
});

describe('completion/complete: bad references and arguments (-32602)', () => {
  const prompt = { type: 'ref/prompt', name: 'test_prompt_with_arguments' };
  const template = { type: 'ref/resource', uri: 'test://repos/{owner}/{repo}' };
  const argument = { name: 'arg1', value: '' };
  const cases: [string, Record<string, unknown>, string][] = [
    [
      'an invalid prompt name',
      { ref: { type: 'ref/prompt', name: 'nope' }, argument },
      'Invalid params: unknown prompt "nope"',
    ],
    [
      'an argument the prompt does not declare',
      { ref: prompt, argument: { name: 'arg9', value: '' } },
      'Invalid params: prompt "test_prompt_with_arguments" has no argument "arg9"',
    ],
    [
      'an unknown template',
      { ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument },
      'Invalid params: unknown resource template "test://nope/{x}"',
    ],
    [
      'a concrete URI that only matches a template (ref.uri names the template itself)',
      { ref: { type: 'ref/resource', uri: 'test://repos/a/b' }, argument: { name: 'owner', value: '' } },
      'Invalid params: unknown resource template "test://repos/a/b"',
    ],
    [
      'a variable the template does not have',
      { ref: template, argument: { name: 'branch', value: '' } },
      'Invalid params: resource template "test://repos/{owner}/{repo}" has no variable "branch"',
    ],
    [
      'a wrong ref type',
      { ref: { type: 'ref/tool', name: 'x' }, argument },
      'Invalid params: ref.type must be "ref/prompt" or "ref/resource", got "ref/tool"',
    ],
    ['no ref', { argument }, 'Invalid params: ref must be an object with a type'],
    [
      'a ref without a type',
      { ref: { name: 'x' }, argument },
      'Invalid params: ref must be an object with a type',
    ],
    ['a string ref', { ref: 'ref/prompt', argument }, 'Invalid params: ref must be an object with a type'],
    [
      'a prompt ref without a name',
      { ref: { type: 'ref/prompt' }, argument },
      'Invalid params: ref.name must be a string',
    ],
    [
      'a resource ref without a uri',
      { ref: { type: 'ref/resource', uri: 5 }, argument },
      'Invalid params: ref.uri must be a string',
    ],
    ['no argument', { ref: prompt }, 'Invalid params: argument must be { name: string, value: string }'],
    [
      'an argument without a value',
      { ref: prompt, argument: { name: 'arg1' } },
      'Invalid params: argument must be { name: string, value: string }',
    ],
    [
      'a numeric argument value',
      { ref: prompt, argument: { name: 'arg1', value: 1 } },
      'Invalid params: argument must be { name: string, value: string }',
    ],
  ];
  for (const [label, params, message] of cases) {
    it(`completion.mdx SHOULD -32602 (validate all inputs): ${label}: ${message}`, async () => {
      const client = await connect(server);
      assert.deepEqual(await client.request('completion/complete', modern(params), { id: 'c' }), {
        jsonrpc: '2.0',
        id: 'c',
        error: { code: -32602, message },
      });
    });
  }

  it('completion.mdx -32601 when not supported: a server with only tools has no completion/complete', async () => {
    const local = testServer();
    local.tool({ name: 'noop', handler: () => 'ok' });
    const client = await connect(local);
    assert.deepEqual(
      errorOf(await client.request('completion/complete', modern({ ref: prompt, argument }))),
      {
        code: -32601,
        message: 'Method not found: completion/complete',
      },
    );
  });
});
