// Per-tool scopes through a real server (issue 15): step-up on HTTP both eras and a JSON-RPC -31003 on stdio (B9),
// lists filtered per caller with cacheScope "private" across pagination (F8), and tools without (or with untrusted)
// annotations counted as destructive (C4). Real HTTP on 127.0.0.1, port 0.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { LOCAL_CALLER } from '../src/protocol/index.js';
import { scopes, type ScopeRule } from '../src/policy/scopes/index.js';
import type { McpServer } from '../src/server/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { modern, testServer, type WireMessage } from './support/harness.js';
import {
  authenticateWith,
  caller,
  openLegacy,
  postModern,
  stdioPeer,
  type HttpAnswer,
} from './policy-scopes-wire.js';

const RULES: ScopeRule[] = [
  { tools: ['files_*'], annotations: ['read-only'], see: ['files:read'] },
  { tools: ['files_*'], annotations: ['destructive'], see: ['files:read'], call: ['files:write'] },
  { tools: ['alpha_*'], prompts: ['alpha_*'], resources: ['file:///alpha/*'], see: ['alpha'] },
  { tools: ['beta_*'], prompts: ['beta_*'], resources: ['file:///beta/*'], see: ['beta'] },
];
const READER = caller('reader', 'files:read');
const WRITER = caller('writer', 'files:read', 'files:write');
const TOKENS = { reader: READER, writer: WRITER, alpha: caller('a', 'alpha'), beta: caller('b', 'beta') };

/** files_read (read-only), files_delete (destructive), files_write (no annotations), 100 alpha_ and 100 beta_ tools. */
function protectedServer(
  rules: readonly ScopeRule[] = RULES,
  trustAnnotations = true,
): { server: McpServer; ran: string[] } {
  const server = testServer({ pageSize: 30 });
  const policy = scopes({ rules, trustAnnotations });
  server.addVisibility(policy.visibility).use(policy.middleware);
  const ran: string[] = [];
  const tool = (name: string, annotations?: JsonObject): void =>
    void server.tool({
      name,
      ...(annotations !== undefined && { annotations }),
      handler: () => (ran.push(name), `ran ${name}`),
    });
  tool('files_read', { readOnlyHint: true });
  tool('files_delete', { destructiveHint: true });
  tool('files_write');
  for (let i = 0; i < 100; i++) {
    tool(`alpha_${String(i).padStart(3, '0')}`, { readOnlyHint: true });
    tool(`beta_${String(i).padStart(3, '0')}`, { readOnlyHint: true });
  }
  for (const team of ['alpha', 'beta']) {
    server.prompt({ name: `${team}_plan`, get: () => team });
    server.resource({ uri: `file:///${team}/notes.txt`, name: `${team} notes`, read: () => team });
    server.resourceTemplate({
      uriTemplate: `file:///${team}/{name}`,
      name: `${team} files`,
      read: () => team,
    });
  }
  return { server, ran };
}

const STEP_UP = {
  code: -31003,
  message: 'Forbidden: tool "files_delete" needs the scope(s) files:write',
  data: { requiredScopes: ['files:read', 'files:write'], missingScopes: ['files:write'] },
};
const CHALLENGE = 'Bearer error="insufficient_scope", scope="files:write"';

const textOf = (message: WireMessage): unknown =>
  (message.result?.content as JsonObject[] | undefined)?.[0]?.text;

function assertStepUp(answer: HttpAnswer, error: JsonObject = STEP_UP, challenge = CHALLENGE): void {
  assert.equal(answer.status, 403, answer.text);
  assert.equal(answer.headers.get('www-authenticate'), challenge);
  assert.deepEqual(answer.message.error, error);
}

describe('policy scopes over HTTP (modern POST and legacy session)', () => {
  let listening: HttpListening;
  let ran: string[];
  before(async () => {
    const made = protectedServer();
    ran = made.ran;
    listening = await listenHttp(made.server, { port: 0, authenticate: authenticateWith(TOKENS) });
  });
  after(() => listening.close());

  it('B9 modern: a read-scoped token calling a destructiveHint tool gets 403 insufficient_scope with the precise scope=', async () => {
    ran.length = 0;
    const denied = await postModern(listening.url, 'reader', 'tools/call', {
      name: 'files_delete',
      arguments: {},
    });
    assertStepUp(denied);
    assert.deepEqual(ran, [], 'the handler never ran');
    const allowed = await postModern(listening.url, 'writer', 'tools/call', {
      name: 'files_delete',
      arguments: {},
    });
    assert.equal(textOf(allowed.message), 'ran files_delete');
  });

  it('B9 down-scoping: the read-scoped token still calls what files:read grants', async () => {
    const read = await postModern(listening.url, 'reader', 'tools/call', {
      name: 'files_read',
      arguments: {},
    });
    assert.equal(read.status, 200);
    assert.equal(textOf(read.message), 'ran files_read');
    const list = await postModern(listening.url, 'reader', 'tools/list');
    assert.deepEqual(
      (list.message.result?.tools as JsonObject[]).map((tool) => tool.name),
      ['files_read', 'files_delete', 'files_write'],
      'visible with files:read, the destructive ones behind a step-up',
    );
  });

  it('C4 a tool without annotations counts as destructive: the same step-up', async () => {
    ran.length = 0;
    const denied = await postModern(listening.url, 'reader', 'tools/call', {
      name: 'files_write',
      arguments: {},
    });
    assertStepUp(denied, {
      ...STEP_UP,
      message: 'Forbidden: tool "files_write" needs the scope(s) files:write',
    });
    assert.deepEqual(ran, []);
  });

  it('B9 legacy session: the same 403, challenge and JSON-RPC error', async () => {
    ran.length = 0;
    const session = await openLegacy(listening.url, 'reader');
    const denied = await session.request('tools/call', { name: 'files_delete', arguments: {} });
    assertStepUp(denied, { ...STEP_UP });
    assert.deepEqual(ran, []);
    const read = await session.request('tools/call', { name: 'files_read', arguments: {} });
    assert.equal(textOf(read.message), 'ran files_read');
  });

  /** tools/list walked to its end on the modern wire: names and each page's cacheScope. */
  async function walkModern(
    token: string,
  ): Promise<{ names: string[]; cacheScopes: unknown[]; pages: number }> {
    const names: string[] = [];
    const cacheScopes: unknown[] = [];
    let cursor: unknown;
    let pages = 0;
    do {
      const { message } = await postModern(
        listening.url,
        token,
        'tools/list',
        cursor === undefined ? {} : { cursor: cursor as string },
      );
      assert.ok(message.result !== undefined, JSON.stringify(message));
      names.push(...(message.result.tools as JsonObject[]).map((tool) => tool.name as string));
      cacheScopes.push(message.result.cacheScope);
      cursor = message.result.nextCursor;
    } while (cursor !== undefined && ++pages < 50);
    return { names, cacheScopes, pages: pages + 1 };
  }

  it("F8 two callers, different scopes: each walks only its own list, every page private, never the other's", async () => {
    const alpha = await walkModern('alpha');
    const beta = await walkModern('beta');
    assert.equal(alpha.names.length, 100);
    assert.equal(beta.names.length, 100);
    assert.equal(alpha.pages, 4);
    assert.ok(
      alpha.names.every((name) => name.startsWith('alpha_')),
      alpha.names.join(),
    );
    assert.ok(
      beta.names.every((name) => name.startsWith('beta_')),
      beta.names.join(),
    );
    assert.equal(new Set(alpha.names).size, 100, 'no entry twice across pages');
    assert.ok([...alpha.cacheScopes, ...beta.cacheScopes].every((scope) => scope === 'private'));
    // A cursor is an offset into its holder's own list: beta's cursor in alpha's hands still shows alpha's entries.
    const betaFirst = await postModern(listening.url, 'beta', 'tools/list');
    const crossed = await postModern(listening.url, 'alpha', 'tools/list', {
      cursor: betaFirst.message.result?.nextCursor as string,
    });
    const crossedNames = (crossed.message.result?.tools as JsonObject[]).map((tool) => tool.name as string);
    assert.deepEqual(crossedNames, alpha.names.slice(30, 60));
    for (const [method, member, key] of [
      ['prompts/list', 'prompts', 'name'],
      ['resources/list', 'resources', 'uri'],
      ['resources/templates/list', 'resourceTemplates', 'uriTemplate'],
    ] as const) {
      const { message } = await postModern(listening.url, 'alpha', method);
      const expected = {
        'prompts/list': 'alpha_plan',
        'resources/list': 'file:///alpha/notes.txt',
        'resources/templates/list': 'file:///alpha/{name}',
      }[method];
      assert.deepEqual(
        (message.result?.[member] as JsonObject[]).map((entry) => entry[key]),
        [expected],
      );
      assert.equal(message.result?.cacheScope, 'private');
    }
  });

  it("F8 legacy: the list of a session is its caller's, walking pagination", async () => {
    const session = await openLegacy(listening.url, 'beta');
    const names: string[] = [];
    let cursor: unknown;
    for (let page = 0; page < 50; page++) {
      const { message } = await session.request(
        'tools/list',
        cursor === undefined ? {} : { cursor: cursor as string },
      );
      names.push(...(message.result?.tools as JsonObject[]).map((tool) => tool.name as string));
      cursor = message.result?.nextCursor;
      if (cursor === undefined) break;
    }
    assert.equal(names.length, 100);
    assert.ok(names.every((name) => name.startsWith('beta_')));
    const prompts = await session.request('prompts/list');
    assert.deepEqual(
      (prompts.message.result?.prompts as JsonObject[]).map((p) => p.name),
      ['beta_plan'],
    );
  });
});

describe('policy scopes over stdio: the same refusal as a JSON-RPC error', () => {
  it('B9 stdio, both eras: -31003 naming the missing scope, with requiredScopes and missingScopes', async () => {
    const { server, ran } = protectedServer();
    const request = await stdioPeer(server, READER);
    const modernAnswer = await request('tools/call', modern({ name: 'files_delete', arguments: {} }));
    assert.deepEqual(modernAnswer.error, STEP_UP);
    await request('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'c', version: '1' },
    });
    const legacyAnswer = await request('tools/call', { name: 'files_delete', arguments: {} });
    assert.deepEqual(legacyAnswer.error, STEP_UP);
    assert.equal(
      textOf(await request('tools/call', { name: 'files_read', arguments: {} })),
      'ran files_read',
    );
    assert.deepEqual(ran, ['files_read']);
    await server.close();
  });

  it('an exempt stdio parent (via "local") skips scope checks; another caller on stdio does not', async () => {
    const server = testServer();
    const policy = scopes({ rules: RULES, exempt: (who) => who.via === 'local' });
    server.addVisibility(policy.visibility).use(policy.middleware);
    server.tool({ name: 'ops_reboot', handler: () => 'rebooted' });
    const parent = await stdioPeer(server, LOCAL_CALLER);
    const stranger = await stdioPeer(server, caller('local', 'files:read')); // the subject alone proves nothing
    const call = modern({ name: 'ops_reboot', arguments: {} });
    assert.equal(textOf(await parent('tools/call', call)), 'rebooted');
    assert.deepEqual((await stranger('tools/call', call)).error, {
      code: -32602,
      message: 'Unknown tool: "ops_reboot"',
      data: { name: 'ops_reboot' },
    });
    await server.close();
  });

  it('C4 trustAnnotations false: a tool that claims readOnlyHint still counts as destructive', async () => {
    const rules: ScopeRule[] = [
      { annotations: ['read-only'], see: ['read'] },
      { annotations: ['destructive'], see: ['read'], call: ['write'] },
    ];
    const untrusted = protectedServer(rules, false);
    const trusted = protectedServer(rules, true);
    const who = caller('r', 'read');
    const call = modern({ name: 'alpha_001', arguments: {} });
    const refused = await (await stdioPeer(untrusted.server, who))('tools/call', call);
    assert.deepEqual(refused.error, {
      code: -31003,
      message: 'Forbidden: tool "alpha_001" needs the scope(s) write',
      data: { requiredScopes: ['read', 'write'], missingScopes: ['write'] },
    });
    assert.deepEqual(untrusted.ran, []);
    assert.equal(textOf(await (await stdioPeer(trusted.server, who))('tools/call', call)), 'ran alpha_001');
    await untrusted.server.close();
    await trusted.server.close();
  });
});
