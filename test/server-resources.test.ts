// Server resources on both eras: listing with pagination and cache hints, reading text, bytes and RFC 6570 templates,
// "not found" as each revision spells it, MRTR from a read, subscriptions (legacy and listen), list changes,
// registration errors, embedding/linking from tools, and a server without resources.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefinitionError } from '../src/index.js';
import type { ResourceTemplateConfig } from '../src/server/resources.js';
import {
  SERVER_INFO_META,
  capturingLogger,
  connect,
  deferred,
  initializeLegacy,
  isNotification,
  isResponseTo,
  isServerRequest,
  modern,
  testServer,
  type RawClient,
} from './support/harness.js';
import { completeResult, errorOf, isTagged, modernWith, openListen } from './support/raw-client.js';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);
const PNG_BASE64 = Buffer.from(PNG_BYTES).toString('base64');

/** A server with three static resources and three templates, two per page. */
function listingServer() {
  const server = testServer({
    pageSize: 2,
    listCache: { ttlMs: 60_000, cacheScope: 'public' },
    resourceReadCache: { ttlMs: 5_000, cacheScope: 'private' },
  });
  server.resource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static text',
    mimeType: 'text/plain',
    read: () => 'This is the content of the static text resource.',
  });
  server.resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    mimeType: 'image/png',
    size: PNG_BYTES.length,
    read: () => PNG_BYTES,
  });
  server.resource({ uri: 'test://third', name: 'third', read: () => ({ text: 'three' }) });
  for (const name of ['a', 'b', 'c']) {
    server.resourceTemplate({
      uriTemplate: `test://${name}/{id}`,
      name: `template-${name}`,
      read: (_uri, { id }) => `${name}:${id}`,
    });
  }
  return server;
}

const STATIC_TEXT = {
  uri: 'test://static-text',
  name: 'static-text',
  title: 'Static text',
  mimeType: 'text/plain',
};
const STATIC_BINARY = {
  uri: 'test://static-binary',
  name: 'static-binary',
  mimeType: 'image/png',
  size: PNG_BYTES.length,
};
const THIRD = { uri: 'test://third', name: 'third' };
const template = (name: string) => ({ uriTemplate: `test://${name}/{id}`, name: `template-${name}` });

describe('server resources: listing, pagination and cache hints', () => {
  const server = listingServer();

  it('pagination.mdx: resources/list pages (pageSize 2) with an opaque nextCursor; CH-01 modern pages carry ttlMs, cacheScope and resultType', async () => {
    const client = await connect(server);
    const first = await client.request('resources/list', modern());
    const cursor = first.result?.nextCursor;
    assert.equal(typeof cursor, 'string');
    assert.deepEqual(first.result, {
      resources: [STATIC_TEXT, STATIC_BINARY],
      nextCursor: cursor,
      ttlMs: 60_000,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
    const second = await client.request('resources/list', modern({ cursor: cursor as string }));
    assert.deepEqual(second.result, {
      resources: [THIRD],
      ttlMs: 60_000,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
  });

  it('pagination.mdx: resources/templates/list pages the same way; CH-04 every page has the same cacheScope', async () => {
    const client = await connect(server);
    const first = await client.request('resources/templates/list', modern());
    const cursor = first.result?.nextCursor as string;
    assert.deepEqual(first.result, {
      resourceTemplates: [template('a'), template('b')],
      nextCursor: cursor,
      ttlMs: 60_000,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
    const second = await client.request('resources/templates/list', modern({ cursor }));
    assert.deepEqual(second.result, {
      resourceTemplates: [template('c')],
      ttlMs: 60_000,
      cacheScope: 'public',
      resultType: 'complete',
      _meta: SERVER_INFO_META,
    });
  });

  for (const revision of ['2025-11-25', '2025-06-18'] as const) {
    it(`legacy ${revision}: resources/list and resources/templates/list carry no ttlMs, cacheScope or resultType`, async () => {
      const client = await connect(server);
      await initializeLegacy(client, revision);
      const first = await client.request('resources/list', {});
      const cursor = first.result?.nextCursor as string;
      assert.deepEqual(first.result, { resources: [STATIC_TEXT, STATIC_BINARY], nextCursor: cursor });
      assert.deepEqual((await client.request('resources/list', { cursor })).result, { resources: [THIRD] });
      const templates = await client.request('resources/templates/list', {});
      assert.deepEqual(templates.result, {
        resourceTemplates: [template('a'), template('b')],
        nextCursor: templates.result?.nextCursor,
      });
    });
  }

  it('resources.mdx MUST NOT vary per connection: the same list bytes on every call and connection, in registration order', async () => {
    const texts: string[] = [];
    for (let i = 0; i < 3; i++) {
      const client = await connect(server);
      await client.request('resources/list', modern(), { id: 1 });
      await client.request('resources/list', modern(), { id: 2 });
      const answers = client.traffic.filter((entry) => entry.direction === 'server->client');
      texts.push(...answers.map((entry) => entry.text.replace(/"id":[12]/, '"id":0')));
    }
    assert.equal(new Set(texts).size, 1, texts.join('\n'));
  });

  for (const [label, cursor] of [
    ['a cursor the server never issued', 'not-a-cursor'],
    ['an empty string', ''],
    ['a number', 2],
    ['null', null],
    ['a cursor past the end of the list', Buffer.from('p8').toString('base64url')],
    ['a cursor off a page boundary', Buffer.from('p1').toString('base64url')],
  ] as const) {
    it(`pagination.mdx SHOULD: ${label} as cursor gets -32602 (resources/list and resources/templates/list)`, async () => {
      const client = await connect(server);
      for (const method of ['resources/list', 'resources/templates/list']) {
        assert.deepEqual(errorOf(await client.request(method, modern({ cursor }))), {
          code: -32602,
          message: 'Invalid params: invalid or expired cursor; list again without a cursor',
        });
      }
    });
  }

  it('legacy: an invalid cursor gets the same -32602', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(errorOf(await client.request('resources/list', { cursor: 'bogus' })), {
      code: -32602,
      message: 'Invalid params: invalid or expired cursor; list again without a cursor',
    });
  });
});

describe('server resources: reading static resources', () => {
  const server = listingServer();

  it('resources.mdx: a text resource reads as { uri, mimeType, text } with the resourceReadCache hints (CH-01)', async () => {
    const client = await connect(server);
    const response = await client.request('resources/read', modern({ uri: 'test://static-text' }), {
      id: 'r1',
    });
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: 'r1',
      result: {
        contents: [
          {
            uri: 'test://static-text',
            mimeType: 'text/plain',
            text: 'This is the content of the static text resource.',
          },
        ],
        ttlMs: 5_000,
        cacheScope: 'private',
        resultType: 'complete',
        _meta: SERVER_INFO_META,
      },
    });
  });

  it('resources.mdx MUST (binary properly encoded): bytes read as a base64 blob with the declared mimeType', async () => {
    const client = await connect(server);
    const result = completeResult(
      await client.request('resources/read', modern({ uri: 'test://static-binary' })),
    );
    assert.deepEqual(result, {
      contents: [{ uri: 'test://static-binary', mimeType: 'image/png', blob: PNG_BASE64 }],
      ttlMs: 5_000,
      cacheScope: 'private',
    });
  });

  it('legacy 2025-11-25: resources/read has contents only (no cache hints, no resultType)', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const response = await client.request('resources/read', { uri: 'test://third' });
    assert.deepEqual(response.result, { contents: [{ uri: 'test://third', text: 'three' }] });
  });

  it('resources.mdx (contents carry uri, mimeType, text or blob): read defaults: a string without mimeType is text/plain, bytes are application/octet-stream', async () => {
    const local = testServer();
    local.resource({ uri: 'test://s', name: 's', read: () => 'text' });
    local.resource({ uri: 'test://b', name: 'b', read: () => new Uint8Array([1, 2, 3]) });
    local.resource({
      uri: 'test://many',
      name: 'many',
      mimeType: 'text/markdown',
      read: () => [
        { text: '# one' },
        { uri: 'test://many/2', mimeType: 'application/json', text: '{}' },
        { blob: 'AAE=' },
      ],
    });
    const client = await connect(local);
    assert.deepEqual(completeResult(await client.request('resources/read', modern({ uri: 'test://s' }))), {
      contents: [{ uri: 'test://s', mimeType: 'text/plain', text: 'text' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
    assert.deepEqual(
      completeResult(await client.request('resources/read', modern({ uri: 'test://b' }))).contents,
      [{ uri: 'test://b', mimeType: 'application/octet-stream', blob: 'AQID' }],
    );
    assert.deepEqual(
      completeResult(await client.request('resources/read', modern({ uri: 'test://many' }))).contents,
      [
        { uri: 'test://many', mimeType: 'text/markdown', text: '# one' },
        { uri: 'test://many/2', mimeType: 'application/json', text: '{}' },
        { uri: 'test://many', mimeType: 'text/markdown', blob: 'AAE=' },
      ],
    );
  });

  for (const [label, params] of [
    ['no uri', {}],
    ['an empty uri', { uri: '' }],
    ['a numeric uri', { uri: 7 }],
  ] as const) {
    it(`resources.mdx MUST validate URIs: ${label} gets -32602`, async () => {
      const client = await connect(server);
      assert.deepEqual(errorOf(await client.request('resources/read', modern(params))), {
        code: -32602,
        message: 'Invalid params: resources/read needs params.uri (a string)',
      });
    });
  }
});

describe('server resources: "not found" as each revision spells it', () => {
  const server = testServer();
  server.resource({ uri: 'test://static-text', name: 'static-text', read: () => 'x' });
  server.resource({ uri: 'test://empty', name: 'empty', read: () => [] });
  server.resourceTemplate({ uriTemplate: 'test://items/{id}', name: 'item', read: () => 'item' });

  it('resources.mdx MUST: a URI that matches nothing gets -32602 "Resource not found" with data.uri (modern)', async () => {
    const client = await connect(server);
    const uri = 'test://nonexistent-resource-for-conformance-testing';
    assert.deepEqual(await client.request('resources/read', modern({ uri }), { id: 5 }), {
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Resource not found', data: { uri } },
    });
  });

  it('resources.mdx MUST: a URI that matches no template (wrong shape) is not found either', async () => {
    const client = await connect(server);
    for (const uri of ['test://items/1/2', 'test://items', 'test://itemsX/1', 'TEST://items/1/x']) {
      assert.deepEqual(errorOf(await client.request('resources/read', modern({ uri }))), {
        code: -32602,
        message: 'Resource not found',
        data: { uri },
      });
    }
  });

  for (const revision of ['2025-11-25', '2025-06-18'] as const) {
    it(`legacy ${revision}: not found is -32002 "Resource not found" with data.uri`, async () => {
      const client = await connect(server);
      await initializeLegacy(client, revision);
      assert.deepEqual(errorOf(await client.request('resources/read', { uri: 'test://nope' })), {
        code: -32002,
        message: 'Resource not found',
        data: { uri: 'test://nope' },
      });
    });
  }

  it('resources.mdx MUST NOT return empty contents: a read that returns [] is "Resource not found"', async () => {
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('resources/read', modern({ uri: 'test://empty' }))), {
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'test://empty' },
    });
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(errorOf(await client.request('resources/read', { uri: 'test://empty' })), {
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'test://empty' },
    });
  });

  it('resources.mdx (the set MAY change over time): a disabled resource is not found, and found again once enabled', async () => {
    const local = testServer();
    const handle = local.resource({ uri: 'test://toggle', name: 'toggle', read: () => 'on' });
    const client = await connect(local);
    handle.disable();
    assert.equal(
      errorOf(await client.request('resources/read', modern({ uri: 'test://toggle' }))).code,
      -32602,
    );
    handle.enable();
    assert.deepEqual(
      completeResult(await client.request('resources/read', modern({ uri: 'test://toggle' }))).contents,
      [{ uri: 'test://toggle', mimeType: 'text/plain', text: 'on' }],
    );
  });
});

describe('server resources: RFC 6570 template reads', () => {
  const server = testServer();
  const echo =
    (name: string): ResourceTemplateConfig['read'] =>
    (uri, variables) => ({ mimeType: 'application/json', text: JSON.stringify({ name, uri, variables }) });
  const templates: [string, string][] = [
    ['level1', 'test://template/{id}/data'],
    ['reserved', 'file:///{+path}'],
    ['fragment', 'test://page{#frag}'],
    ['path', 'test://tree{/a,b}'],
    ['label', 'test://file/name{.ext}'],
    ['matrix', 'test://matrix{;x}'],
    ['query', 'test://search{?q,page}'],
  ];
  for (const [name, uriTemplate] of templates) {
    server.resourceTemplate({ uriTemplate, name, read: echo(name) });
  }

  async function variablesOf(client: RawClient, uri: string): Promise<unknown> {
    const result = completeResult(await client.request('resources/read', modern({ uri })));
    const contents = result.contents as { uri: string; mimeType: string; text: string }[];
    assert.equal(contents.length, 1);
    assert.equal(contents[0]?.uri, uri);
    assert.equal(contents[0]?.mimeType, 'application/json');
    const body = JSON.parse(contents[0]?.text ?? '') as { uri: string; variables: unknown };
    assert.equal(body.uri, uri, 'the read function gets the URI exactly as requested');
    return body.variables;
  }

  const cases: [string, string, Record<string, string>][] = [
    ['level 1 {id}', 'test://template/123/data', { id: '123' }],
    ['level 1 with an empty value (RFC 6570 expands "" to nothing)', 'test://template//data', { id: '' }],
    [
      'level 2 {+path} keeps reserved characters',
      'file:///docs/guide/intro.md',
      { path: 'docs/guide/intro.md' },
    ],
    ['level 2 {#frag}', 'test://page#section-2', { frag: 'section-2' }],
    ['level 3 {/a,b}', 'test://tree/left/right', { a: 'left', b: 'right' }],
    ['level 3 {.ext}', 'test://file/name.json', { ext: 'json' }],
    ['level 3 {;x}', 'test://matrix;x=5', { x: '5' }],
    ['level 3 {?q,page} with both', 'test://search?q=cats&page=2', { q: 'cats', page: '2' }],
    ['level 3 {?q,page} with the first only', 'test://search?q=cats', { q: 'cats' }],
    ['level 3 {?q,page} with neither', 'test://search', {}],
    ['percent-decoding of {id}', 'test://template/caf%C3%A9%20au%20lait/data', { id: 'café au lait' }],
    ['percent-decoding of {+path}', 'file:///a%20b/c%2Fd.txt', { path: 'a b/c/d.txt' }],
    ['percent-decoding of a query value', 'test://search?q=a%26b', { q: 'a&b' }],
  ];
  for (const [label, uri, variables] of cases) {
    it(`resources.mdx (RFC 6570): ${label}: ${uri}`, async () => {
      const client = await connect(server);
      assert.deepEqual(await variablesOf(client, uri), variables);
    });
  }

  it('RFC 6570 §3.2.8: {?q,page} with only the second variable ("?page=2") matches', async () => {
    const client = await connect(server);
    assert.deepEqual(await variablesOf(client, 'test://search?page=2'), { page: '2' });
  });

  it('RFC 6570 §3.2.3: {+path} matches a value containing a comma (reserved expansion keeps ",")', async () => {
    const client = await connect(server);
    assert.deepEqual(await variablesOf(client, 'file:///data/a,b.csv'), { path: 'data/a,b.csv' });
  });

  for (const [label, uri] of [
    ['malformed percent-encoding in {id}', 'test://template/%E0%A4%A/data'],
    ['truncated percent-encoding in {+path}', 'file:///a%E0%A4'],
    ['a reserved character in a simple {id}', 'test://template/a/b/data'],
    ['a query variable the template does not name', 'test://search?z=1'],
    ['a URI longer than 8192 characters', 'file:///' + 'a'.repeat(9000)],
  ] as const) {
    it(`resources.mdx MUST validate URIs: ${label} is "Resource not found"`, async () => {
      const client = await connect(server);
      assert.deepEqual(errorOf(await client.request('resources/read', modern({ uri }))), {
        code: -32602,
        message: 'Resource not found',
        data: { uri },
      });
    });
  }

  it('resources.mdx (a URI identifies one resource): a static resource wins over a template that also matches; templates are tried in registration order', async () => {
    const local = testServer();
    local.resourceTemplate({ uriTemplate: 'test://x/{id}', name: 'first', read: () => 'first' });
    local.resourceTemplate({ uriTemplate: 'test://x/{+rest}', name: 'second', read: () => 'second' });
    local.resource({ uri: 'test://x/fixed', name: 'fixed', read: () => 'static' });
    const client = await connect(local);
    const text = async (uri: string) =>
      (
        completeResult(await client.request('resources/read', modern({ uri }))).contents as { text: string }[]
      )[0]?.text;
    assert.equal(await text('test://x/fixed'), 'static');
    assert.equal(await text('test://x/7'), 'first');
    assert.equal(await text('test://x/7/8'), 'second');
  });
});

describe('server resources: a read handler that fails', () => {
  it('resources.mdx SHOULD -32603: a throwing read gets a neutral internal error; the details go only to the log', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.resource({
      uri: 'test://broken',
      name: 'broken',
      read: () => {
        throw new Error('database password=hunter2 rejected');
      },
    });
    const client = await connect(server);
    const error = errorOf(await client.request('resources/read', modern({ uri: 'test://broken' })));
    assert.equal(error.code, -32603);
    const reference = /^Internal error \(reference ([0-9a-f]{8})\)$/.exec(error.message)?.[1];
    assert.ok(reference !== undefined, error.message);
    assert.equal(error.data, undefined);
    assert.ok(!client.traffic.some((entry) => entry.text.includes('hunter2')), 'nothing secret on the wire');
    assert.match(logger.text(), new RegExp(`resources/read failed \\(reference ${reference}\\)`));
    assert.match(logger.text(), /database password=hunter2 rejected/);
  });

  it('resources.mdx SHOULD -32603: a read returning contents without text or blob is an internal error (logged)', async () => {
    const logger = capturingLogger();
    const server = testServer({ logger });
    server.resource({ uri: 'test://shapeless', name: 'shapeless', read: () => ({ mimeType: 'text/plain' }) });
    const client = await connect(server);
    const error = errorOf(await client.request('resources/read', modern({ uri: 'test://shapeless' })));
    assert.match(error.message, /^Internal error \(reference [0-9a-f]{8}\)$/);
    assert.match(logger.text(), /read returned contents without text or blob/);
  });
});

describe('server resources: time limit, cancellation and legacy input requests', () => {
  it('resources.mdx SHOULD -32603, TO-01: a read past its timeoutMs gets -32603 naming the URI and the limit; its signal aborts', async () => {
    const server = testServer();
    const aborted = deferred();
    server.resource({
      uri: 'test://slow',
      name: 'slow',
      timeoutMs: 5,
      read: (_uri, ctx) =>
        new Promise<string>(() => ctx.signal.addEventListener('abort', () => aborted.resolve())),
    });
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('resources/read', modern({ uri: 'test://slow' }))), {
      code: -32603,
      message: 'Reading "test://slow" timed out after 5 ms',
    });
    await aborted.promise;
  });

  it('CA-03: notifications/cancelled aborts a read in flight and no response is sent', async () => {
    const server = testServer();
    const started = deferred();
    const aborted = deferred();
    server.resource({
      uri: 'test://hang',
      name: 'hang',
      read: (_uri, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted.resolve();
            resolve('too late');
          });
          started.resolve();
        }),
    });
    const client = await connect(server);
    client.send({
      jsonrpc: '2.0',
      id: 'read-1',
      method: 'resources/read',
      params: modern({ uri: 'test://hang' }),
    });
    await started.promise;
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'read-1' } });
    await aborted.promise;
    await client.flush();
    assert.ok(
      !client.received().some((m) => !Array.isArray(m) && m.id === 'read-1'),
      'no response to read-1',
    );
  });

  it('legacy 2025-11-25: ctx.elicit in a read becomes an elicitation/create request to the client', async () => {
    const server = testServer();
    server.resource({
      uri: 'test://branch-file',
      name: 'branch-file',
      read: async (_uri, ctx) => {
        const answer = await ctx.elicit({
          message: 'Which branch?',
          requestedSchema: { type: 'object', properties: {} },
        });
        return `on ${String(answer.content?.branch)}`;
      },
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', { elicitation: {} });
    client.send({ jsonrpc: '2.0', id: 'r', method: 'resources/read', params: { uri: 'test://branch-file' } });
    const ask = await client.waitFor(isServerRequest('elicitation/create'));
    assert.deepEqual(ask.params, {
      message: 'Which branch?',
      requestedSchema: { type: 'object', properties: {} },
    });
    client.send({
      jsonrpc: '2.0',
      id: ask.id as number,
      result: { action: 'accept', content: { branch: 'dev' } },
    });
    const response = await client.waitFor(isResponseTo('r'));
    assert.deepEqual(response.result, {
      contents: [{ uri: 'test://branch-file', mimeType: 'text/plain', text: 'on dev' }],
    });
  });
});

describe('server resources: MRTR from a read (2026-07-28)', () => {
  const server = testServer();
  server.resource({
    uri: 'test://branch-file',
    name: 'branch-file',
    mimeType: 'text/plain',
    read: async (_uri, ctx) => {
      const answer = await ctx.elicit(
        {
          message: 'Which branch?',
          requestedSchema: {
            type: 'object',
            properties: { branch: { type: 'string' } },
            required: ['branch'],
          },
        },
        'branch',
      );
      return `contents on ${String(answer.content?.branch)}`;
    },
  });
  const elicitation = { elicitation: {} };

  it('MR-01 resources/read may answer input_required (no cache hints, CH-03); the retry with answers completes', async () => {
    const client = await connect(server);
    const first = await client.request(
      'resources/read',
      modernWith(elicitation, { uri: 'test://branch-file' }),
    );
    const requestState = first.result?.requestState;
    assert.equal(typeof requestState, 'string');
    assert.deepEqual(first.result, {
      resultType: 'input_required',
      inputRequests: {
        branch: {
          method: 'elicitation/create',
          params: {
            message: 'Which branch?',
            requestedSchema: {
              type: 'object',
              properties: { branch: { type: 'string' } },
              required: ['branch'],
            },
          },
        },
      },
      requestState,
      _meta: SERVER_INFO_META,
    });
    const retry = await client.request(
      'resources/read',
      modernWith(elicitation, {
        uri: 'test://branch-file',
        inputResponses: { branch: { action: 'accept', content: { branch: 'main' } } },
        requestState: requestState as string,
      }),
    );
    assert.deepEqual(completeResult(retry), {
      contents: [{ uri: 'test://branch-file', mimeType: 'text/plain', text: 'contents on main' }],
      ttlMs: 0,
      cacheScope: 'private',
    });
  });

  it('MR-04: without the elicitation capability the read gets -32021 naming it', async () => {
    const client = await connect(server);
    assert.deepEqual(errorOf(await client.request('resources/read', modern({ uri: 'test://branch-file' }))), {
      code: -32021,
      message:
        'Missing required client capability: this request needs elicitation/create, which the request did not declare',
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it('MR-05: a requestState sealed for another resource is rejected with -32602', async () => {
    const local = testServer();
    const ask: ResourceTemplateConfig['read'] = async (_uri, _variables, ctx) =>
      String(
        (await ctx.elicit({ message: 'ok?', requestedSchema: { type: 'object', properties: {} } }, 'ok'))
          .action,
      );
    local.resourceTemplate({ uriTemplate: 'test://ask/{id}', name: 'ask', read: ask });
    const client = await connect(local);
    const first = await client.request('resources/read', modernWith(elicitation, { uri: 'test://ask/1' }));
    const retry = await client.request(
      'resources/read',
      modernWith(elicitation, {
        uri: 'test://ask/2',
        inputResponses: { ok: { action: 'accept', content: {} } },
        requestState: first.result?.requestState as string,
      }),
    );
    assert.deepEqual(errorOf(retry), {
      code: -32602,
      message: 'Invalid params: requestState belongs to a different call; send the request again without it',
    });
  });
});

describe('server resources: legacy resources/subscribe', () => {
  const server = testServer();
  server.resource({ uri: 'test://watched-resource', name: 'watched', read: () => 'v1' });
  server.resource({ uri: 'test://other', name: 'other', read: () => 'o' });
  server.resourceTemplate({ uriTemplate: 'test://items/{id}', name: 'item', read: () => 'item' });

  const updated = (uri: string) => ({
    jsonrpc: '2.0',
    method: 'notifications/resources/updated',
    params: { uri },
  });
  const updatesOf = (client: RawClient) =>
    client.notifications().filter((message) => message.method === 'notifications/resources/updated');

  it('resources-subscribe (2025-11-25): subscribe answers {}, notifyResourceUpdated sends notifications/resources/updated', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(
      (await client.request('resources/subscribe', { uri: 'test://watched-resource' }, { id: 9 })).result,
      {},
    );
    server.notifyResourceUpdated('test://watched-resource');
    assert.deepEqual(
      await client.waitFor(isNotification('notifications/resources/updated')),
      updated('test://watched-resource'),
    );
  });

  it('resources-unsubscribe: after unsubscribe no more updates; other URIs never reach a subscriber', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-06-18');
    await client.request('resources/subscribe', { uri: 'test://watched-resource' });
    server.notifyResourceUpdated('test://other');
    server.notifyResourceUpdated('test://watched-resource');
    await client.waitFor(isNotification('notifications/resources/updated'));
    assert.deepEqual(
      (await client.request('resources/unsubscribe', { uri: 'test://watched-resource' })).result,
      {},
    );
    server.notifyResourceUpdated('test://watched-resource');
    await client.flush();
    assert.deepEqual(updatesOf(client), [updated('test://watched-resource')]);
  });

  it('resources-subscribe: a URI matching a template can be subscribed to; unsubscribing from something never subscribed is {}', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual((await client.request('resources/subscribe', { uri: 'test://items/42' })).result, {});
    assert.deepEqual((await client.request('resources/unsubscribe', { uri: 'test://never' })).result, {});
    server.notifyResourceUpdated('test://items/42');
    assert.deepEqual(
      await client.waitFor(isNotification('notifications/resources/updated')),
      updated('test://items/42'),
    );
  });

  it('legacy: subscribing to an unknown URI gets -32002 "Resource not found"', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    assert.deepEqual(errorOf(await client.request('resources/subscribe', { uri: 'test://nope' })), {
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'test://nope' },
    });
    assert.deepEqual(errorOf(await client.request('resources/subscribe', {})), {
      code: -32602,
      message: 'Invalid params: resources/subscribe needs params.uri (a string)',
    });
  });

  it('SU-02 (legacy): a session that did not subscribe gets nothing', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    server.notifyResourceUpdated('test://watched-resource');
    await client.flush();
    assert.deepEqual(updatesOf(client), []);
  });

  it('2026-07-28 removed resources/subscribe and resources/unsubscribe: -32601', async () => {
    const client = await connect(server);
    for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
      assert.deepEqual(errorOf(await client.request(method, modern({ uri: 'test://watched-resource' }))), {
        code: -32601,
        message: `Method not found: ${method} is not part of protocol revision 2026-07-28`,
      });
    }
  });
});

describe('server resources: modern subscriptions/listen', () => {
  it('resources.mdx: listen with resourceSubscriptions is acknowledged and gets tagged notifications/resources/updated (SU-03, SU-06)', async () => {
    const server = testServer();
    server.resource({ uri: 'test://watched-resource', name: 'watched', read: () => 'v' });
    const client = await connect(server);
    const ack = await openListen(client, 'sub-1', {
      resourceSubscriptions: ['test://watched-resource', 'test://not-registered'],
    });
    assert.deepEqual(ack, { resourceSubscriptions: ['test://watched-resource', 'test://not-registered'] });
    server.notifyResourceUpdated('test://other');
    server.notifyResourceUpdated('test://watched-resource');
    assert.deepEqual(await client.waitFor(isNotification('notifications/resources/updated')), {
      jsonrpc: '2.0',
      method: 'notifications/resources/updated',
      params: {
        uri: 'test://watched-resource',
        _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' },
      },
    });
    await client.flush();
    const updates = client.notifications().filter((m) => m.method === 'notifications/resources/updated');
    assert.equal(updates.length, 1, JSON.stringify(updates));
  });

  it('SU-02: a listen stream that did not ask for a URI, or asked only for list changes, gets no update for it', async () => {
    const server = testServer();
    server.resource({ uri: 'test://a', name: 'a', read: () => 'a' });
    const client = await connect(server);
    assert.deepEqual(await openListen(client, 1, { resourceSubscriptions: ['test://b'] }), {
      resourceSubscriptions: ['test://b'],
    });
    assert.deepEqual(await openListen(client, 2, { resourcesListChanged: true }), {
      resourcesListChanged: true,
    });
    server.notifyResourceUpdated('test://a');
    await client.flush();
    assert.deepEqual(
      client.notifications().filter((m) => m.method === 'notifications/resources/updated'),
      [],
    );
  });

  it('SU-04: a server without resources omits resource filters from the acknowledgement', async () => {
    const server = testServer();
    server.tool({ name: 'noop', handler: () => 'ok' });
    const client = await connect(server);
    assert.deepEqual(
      await openListen(client, 'l', {
        resourcesListChanged: true,
        resourceSubscriptions: ['test://x'],
        toolsListChanged: true,
      }),
      { toolsListChanged: true },
    );
  });
});

describe('server resources: list_changed on both eras', () => {
  it('SU-10 (resources): adding and removing a resource sends notifications/resources/list_changed to legacy sessions and to listen streams that asked', async () => {
    const server = testServer();
    server.resource({ uri: 'test://first', name: 'first', read: () => '1' });
    const legacy = await connect(server);
    await initializeLegacy(legacy, '2025-11-25');
    await legacy.flush();
    const listener = await connect(server);
    await openListen(listener, 'rl', { resourcesListChanged: true });
    await openListen(listener, 'tools-only', { toolsListChanged: true });

    const handle = server.resource({ uri: 'test://second', name: 'second', read: () => '2' });
    assert.deepEqual(await legacy.waitFor(isNotification('notifications/resources/list_changed')), {
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
    });
    assert.deepEqual(await listener.waitFor(isNotification('notifications/resources/list_changed')), {
      jsonrpc: '2.0',
      method: 'notifications/resources/list_changed',
      params: { _meta: { 'io.modelcontextprotocol/subscriptionId': 'rl' } },
    });

    const legacyCount = legacy.notifications().length;
    const listenerCount = listener.notifications().length;
    handle.remove();
    await legacy.waitFor(isNotification('notifications/resources/list_changed'), undefined, legacyCount);
    await listener.waitFor(isTagged('notifications/resources/list_changed', 'rl'), undefined, listenerCount);
    await listener.flush();
    assert.ok(
      !listener.notifications().some(isTagged('notifications/resources/list_changed', 'tools-only')),
      'a stream that did not ask for resource list changes gets none',
    );
    assert.deepEqual((await legacy.request('resources/list', {})).result, {
      resources: [{ uri: 'test://first', name: 'first' }],
    });
  });

  it('resources.mdx SHOULD list_changed: adding a template also changes the list (one notification per turn of the event loop)', async () => {
    const server = testServer();
    server.resource({ uri: 'test://first', name: 'first', read: () => '1' });
    const legacy = await connect(server);
    await initializeLegacy(legacy, '2025-11-25');
    await legacy.flush();
    server.resourceTemplate({ uriTemplate: 'test://t/{id}', name: 't1', read: () => 't' });
    server.resourceTemplate({ uriTemplate: 'test://u/{id}', name: 't2', read: () => 'u' });
    await legacy.waitFor(isNotification('notifications/resources/list_changed'));
    await legacy.flush();
    assert.equal(
      legacy.notifications().filter((m) => m.method === 'notifications/resources/list_changed').length,
      1,
    );
  });
});

describe('server resources: registration errors', () => {
  const server = testServer();
  server.resource({ uri: 'test://taken', name: 'taken', read: () => '' });
  server.resourceTemplate({ uriTemplate: 'test://taken/{id}', name: 'taken', read: () => '' });
  const read = () => '';

  const cases: [string, () => unknown, string][] = [
    [
      'a relative URI',
      () => server.resource({ uri: 'docs/readme.md', name: 'r', read }),
      'A resource needs an absolute uri, got "docs/readme.md"',
    ],
    [
      'an empty URI',
      () => server.resource({ uri: '', name: 'r', read }),
      'A resource needs an absolute uri, got ""',
    ],
    [
      'a duplicate URI',
      () => server.resource({ uri: 'test://taken', name: 'again', read }),
      'Resource "test://taken" is already registered',
    ],
    [
      'a resource without a name',
      () => server.resource({ uri: 'test://nameless', name: '', read }),
      'resource "test://nameless": name is required',
    ],
    [
      'a resource without a read function',
      () => server.resource({ uri: 'test://readless', name: 'r' } as never),
      'resource "test://readless": read must be a function',
    ],
    [
      'an unclosed "{"',
      () => server.resourceTemplate({ uriTemplate: 'test://x/{a', name: 't', read }),
      'URI template "test://x/{a" has an unclosed "{"',
    ],
    [
      'an unmatched "}"',
      () => server.resourceTemplate({ uriTemplate: 'test://x/a}', name: 't', read }),
      'URI template "test://x/a}" has an unmatched "}"',
    ],
    [
      'a level-4 explode modifier {a*}',
      () => server.resourceTemplate({ uriTemplate: 'test://x/{a*}', name: 't', read }),
      'URI template "test://x/{a*}": "a*" is not a valid variable name (levels 1–3: no "*" or ":n" modifiers)',
    ],
    [
      'a level-4 prefix modifier {a:3}',
      () => server.resourceTemplate({ uriTemplate: 'test://x/{a:3}', name: 't', read }),
      'URI template "test://x/{a:3}": "a:3" is not a valid variable name (levels 1–3: no "*" or ":n" modifiers)',
    ],
    [
      'an empty expression {}',
      () => server.resourceTemplate({ uriTemplate: 'test://x/{}', name: 't', read }),
      'URI template "test://x/{}": "" is not a valid variable name (levels 1–3: no "*" or ":n" modifiers)',
    ],
    [
      'a duplicate variable',
      () => server.resourceTemplate({ uriTemplate: 'test://{a}/{/a}', name: 't', read }),
      'URI template "test://{a}/{/a}" repeats variable "a"',
    ],
    [
      'a duplicate template',
      () => server.resourceTemplate({ uriTemplate: 'test://taken/{id}', name: 'again', read }),
      'Resource template "test://taken/{id}" is already registered',
    ],
    [
      'a complete key naming no variable',
      () =>
        server.resourceTemplate({
          uriTemplate: 'test://y/{id}',
          name: 't',
          read,
          complete: { name: () => [] },
        }),
      'resource template "test://y/{id}": complete.name names no template variable',
    ],
    [
      'an empty template',
      () => server.resourceTemplate({ uriTemplate: '', name: 't', read }),
      'A URI template must be a non-empty string of at most 1024 characters',
    ],
  ];
  for (const [label, register, message] of cases) {
    it(`resources.mdx MUST validate resource URIs, at registration: ${label} throws DefinitionError: ${message}`, () => {
      assert.throws(register, (error: unknown) => {
        assert.ok(error instanceof DefinitionError, String(error));
        assert.equal(error.message, message);
        return true;
      });
    });
  }

  it('resources.mdx (the list is what is available): failed registrations leave the lists as they were', async () => {
    const client = await connect(server);
    assert.deepEqual(completeResult(await client.request('resources/list', modern())).resources, [
      { uri: 'test://taken', name: 'taken' },
    ]);
    assert.deepEqual(
      completeResult(await client.request('resources/templates/list', modern())).resourceTemplates,
      [{ uriTemplate: 'test://taken/{id}', name: 'taken' }],
    );
  });

  it('resources.mdx (capability only when resources exist): a registration that throws does not turn the capability on', async () => {
    const local = testServer();
    local.tool({ name: 'noop', handler: () => 'ok' });
    assert.throws(() => local.resource({ uri: 'relative', name: 'r', read }), DefinitionError);
    const client = await connect(local);
    const discover = completeResult(await client.request('server/discover', modern()));
    assert.equal((discover.capabilities as Record<string, unknown>).resources, undefined);
    assert.equal(errorOf(await client.request('resources/list', modern())).code, -32601);
  });
});

describe('server resources: embedding and linking from tool results', () => {
  const logger = capturingLogger();
  const server = testServer({ logger });
  server.resource({
    uri: 'test://static-text',
    name: 'static-text',
    title: 'Static text',
    description: 'Some text',
    mimeType: 'text/plain',
    size: 11,
    read: () => 'hello world',
  });
  server.resource({ uri: 'test://logo', name: 'logo', mimeType: 'image/png', read: () => PNG_BYTES });
  server.resourceTemplate({
    uriTemplate: 'test://items/{id}',
    name: 'item',
    description: 'One item',
    mimeType: 'application/json',
    read: (_uri, { id }) => JSON.stringify({ id }),
  });
  server.tool({
    name: 'show',
    handler: async (_args, ctx) => [
      await ctx.embedResource('test://static-text'),
      await ctx.embedResource('test://logo'),
      await ctx.embedResource('test://items/7'),
      ctx.linkResource('test://static-text'),
      ctx.linkResource('test://items/8'),
    ],
  });
  server.tool({
    name: 'embedMissing',
    handler: async (_args, ctx) => [await ctx.embedResource('test://missing')],
  });
  server.tool({ name: 'linkMissing', handler: (_args, ctx) => [ctx.linkResource('test://missing')] });

  it('TL-15: ctx.embedResource gives resource blocks with current contents; ctx.linkResource gives resource_link blocks from metadata', async () => {
    const client = await connect(server);
    assert.deepEqual(completeResult(await client.request('tools/call', modern({ name: 'show' }))), {
      content: [
        {
          type: 'resource',
          resource: { uri: 'test://static-text', mimeType: 'text/plain', text: 'hello world' },
        },
        { type: 'resource', resource: { uri: 'test://logo', mimeType: 'image/png', blob: PNG_BASE64 } },
        {
          type: 'resource',
          resource: { uri: 'test://items/7', mimeType: 'application/json', text: '{"id":"7"}' },
        },
        {
          type: 'resource_link',
          uri: 'test://static-text',
          name: 'static-text',
          title: 'Static text',
          description: 'Some text',
          mimeType: 'text/plain',
          size: 11,
        },
        {
          type: 'resource_link',
          uri: 'test://items/8',
          name: 'item',
          description: 'One item',
          mimeType: 'application/json',
        },
      ],
    });
  });

  for (const name of ['embedMissing', 'linkMissing']) {
    it(`TL-15 ${name}: a URI no resource matches makes a neutral isError result; the reason goes to the log`, async () => {
      const client = await connect(server);
      const result = completeResult(await client.request('tools/call', modern({ name })));
      const text = (result.content as { text: string }[])[0]?.text ?? '';
      const reference = new RegExp(
        `^Tool "${name}" failed with an internal error \\(reference ([0-9a-f]{8})\\)$`,
      ).exec(text)?.[1];
      assert.ok(reference !== undefined, text);
      assert.equal(result.isError, true);
      assert.match(
        logger.text(),
        new RegExp(`reference ${reference}[^\\n]*\\n?[^]*no registered resource matches "test://missing"`),
      );
    });
  }
});

describe('server resources: a server without resources', () => {
  const server = testServer();
  server.tool({ name: 'noop', handler: () => 'ok' });

  it('resources.mdx MUST declare the capability to serve resources: without resources, resources/* get -32601 (modern)', async () => {
    const client = await connect(server);
    for (const method of ['resources/list', 'resources/templates/list', 'resources/read']) {
      assert.deepEqual(await client.request(method, modern({ uri: 'test://x' }), { id: 3 }), {
        jsonrpc: '2.0',
        id: 3,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
    }
  });

  it('legacy: resources/list, resources/subscribe and completion/complete get -32601', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    for (const method of ['resources/list', 'resources/subscribe', 'completion/complete']) {
      assert.deepEqual(errorOf(await client.request(method, { uri: 'test://x' })), {
        code: -32601,
        message: `Method not found: ${method}`,
      });
    }
  });

  it('resources.mdx MUST declare the capability (so only when serving resources): the resources (and completions) capability is advertised neither in server/discover nor in initialize', async () => {
    const client = await connect(server);
    const discover = completeResult(await client.request('server/discover', modern()));
    assert.deepEqual(discover.capabilities, { tools: { listChanged: true }, logging: {} });
    const legacy = await connect(server);
    const init = await initializeLegacy(legacy, '2025-11-25');
    assert.deepEqual(init.result?.capabilities, { tools: { listChanged: true }, logging: {} });
  });

  it('resources.mdx MUST declare the resources capability: with a resource registered, both eras advertise resources { subscribe, listChanged } and completions', async () => {
    const local = testServer();
    local.resource({ uri: 'test://r', name: 'r', read: () => 'r' });
    const client = await connect(local);
    const expected = {
      tools: { listChanged: true },
      logging: {},
      resources: { subscribe: true, listChanged: true },
      completions: {},
    };
    assert.deepEqual(
      completeResult(await client.request('server/discover', modern())).capabilities,
      expected,
    );
    const legacy = await connect(local);
    assert.deepEqual((await initializeLegacy(legacy, '2025-06-18')).result?.capabilities, expected);
  });
});
