// B5, per-tool authorization bypass: a tool, prompt or resource the caller may not see answers exactly like one that
// does not exist, and no spelling reaches it — case, trailing space, zero-width joiner, Cyrillic homoglyph, a double
// separator, percent or Base64 forms in Mcp-Name, "..", "%2e%2e" — over real HTTP (both eras); handlers never run.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { scopes, type ScopeRule } from '../src/policy/scopes/index.js';
import type { McpServer } from '../src/server/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { testServer } from './support/harness.js';
import { authenticateWith, caller, openLegacy, postModern } from './policy-scopes-wire.js';

const RULES: ScopeRule[] = [
  { tools: ['files_read'], prompts: ['public_plan'], resources: ['file:///allowed/*'], see: ['files:read'] },
  { tools: ['files_delete'], prompts: ['secret_plan'], resources: ['file:///secret'], see: ['files:admin'] },
];
const TOKENS = {
  reader: caller('reader', 'files:read'),
  admin: caller('admin', 'files:read', 'files:admin'),
};

/** Every tool, prompt and resource records its name when it runs: none of the tricks may add to `ran`. */
function namedServer(install: 'both' | 'middleware only'): { server: McpServer; ran: string[] } {
  const server = testServer();
  const policy = scopes({ rules: RULES });
  if (install === 'both') server.addVisibility(policy.visibility);
  server.use(policy.middleware);
  const ran: string[] = [];
  for (const name of ['files_read', 'files_delete']) {
    server.tool({ name, handler: () => (ran.push(name), `ran ${name}`) });
  }
  for (const name of ['public_plan', 'secret_plan']) {
    server.prompt({
      name,
      arguments: [{ name: 'step' }],
      complete: { step: () => (ran.push(`complete ${name}`), ['one']) },
      get: () => (ran.push(name), name),
    });
  }
  for (const uri of ['file:///allowed/notes.txt', 'file:///secret']) {
    server.resource({ uri, name: uri, read: () => (ran.push(uri), uri) });
  }
  // A broad template no rule names: every URI it would serve is hidden, whatever the URI's text looks like.
  server.resourceTemplate({
    uriTemplate: 'file:///{+path}',
    name: 'any file',
    read: (uri) => (ran.push(`template ${uri}`), uri),
  });
  return { server, ran };
}

const b64 = (text: string): string => `=?base64?${Buffer.from(text, 'utf8').toString('base64')}?=`;
const unknownTool = (name: string): JsonObject => ({
  code: -32602,
  message: `Unknown tool: "${name}"`,
  data: { name },
});
const mismatch = (message: string): JsonObject => ({ code: -32020, message: `Header mismatch: ${message}` });

/** [what, params.name, Mcp-Name as sent (undefined: the name itself; null: none), the error]. */
const TRICKS: [string, string, string | null | undefined, JsonObject][] = [
  ['the hidden name itself', 'files_delete', undefined, unknownTool('files_delete')],
  ['case variant', 'Files_Delete', undefined, unknownTool('Files_Delete')],
  ['upper case', 'FILES_DELETE', undefined, unknownTool('FILES_DELETE')],
  ['case variant of a visible tool', 'Files_Read', undefined, unknownTool('Files_Read')],
  [
    'trailing space (the header is trimmed)',
    'files_delete ',
    'files_delete ',
    mismatch('Mcp-Name header value "files_delete" does not match params.name "files_delete "'),
  ],
  ['trailing space, Base64 header', 'files_delete ', b64('files_delete '), unknownTool('files_delete ')],
  ['zero-width joiner', 'files_\u200ddelete', b64('files_\u200ddelete'), unknownTool('files_\u200ddelete')],
  ['Cyrillic homoglyph', 'fil\u0435s_delete', b64('fil\u0435s_delete'), unknownTool('fil\u0435s_delete')],
  ['double separator', 'files__delete', undefined, unknownTool('files__delete')],
  ['many separators', 'files______delete', undefined, unknownTool('files______delete')],
  [
    'percent form in Mcp-Name',
    'files_delete',
    'files%5Fdelete',
    mismatch('Mcp-Name header value "files%5Fdelete" does not match params.name "files_delete"'),
  ],
  ['percent form in the body too', 'files%5Fdelete', undefined, unknownTool('files%5Fdelete')],
  [
    'Base64 form of the hidden name in Mcp-Name',
    'files_delete',
    b64('files_delete'),
    unknownTool('files_delete'),
  ],
  ['Base64 text as the name', 'ZmlsZXNfZGVsZXRl', undefined, unknownTool('ZmlsZXNfZGVsZXRl')],
  [
    'unpadded Base64 in Mcp-Name',
    'files_read',
    '=?base64?ZmlsZXNfcmVhZA?=',
    mismatch('Mcp-Name is not valid padded Base64 inside =?base64?…?='),
  ],
  [
    'Mcp-Name names a visible tool, the body the hidden one',
    'files_delete',
    'files_read',
    mismatch('Mcp-Name header value "files_read" does not match params.name "files_delete"'),
  ],
  [
    'no Mcp-Name',
    'files_delete',
    null,
    mismatch('the Mcp-Name header is missing; it must mirror params.name'),
  ],
];

describe('B5 per-tool authorization bypass over HTTP', () => {
  let listening: HttpListening;
  let ran: string[];
  before(async () => {
    const made = namedServer('both');
    ran = made.ran;
    listening = await listenHttp(made.server, { port: 0, authenticate: authenticateWith(TOKENS) });
  });
  after(() => listening.close());

  const call = (token: string, name: string, mcpName?: string | null): ReturnType<typeof postModern> =>
    postModern(listening.url, token, 'tools/call', { name, arguments: {} }, mcpName);

  it('B5 hidden tool is not callable: the same answer as an unknown tool, byte for byte apart from the name', async () => {
    ran.length = 0;
    const hidden = await call('reader', 'files_delete');
    const missing = await call('reader', 'files_remove'); // the same length: only the name may differ
    assert.equal(hidden.status, missing.status);
    assert.equal(hidden.headers.get('content-type'), missing.headers.get('content-type'));
    assert.equal(hidden.text.replaceAll('files_delete', 'files_remove'), missing.text);
    assert.deepEqual(hidden.message.error, unknownTool('files_delete'));
    const legacy = await openLegacy(listening.url, 'reader');
    const legacyHidden = await legacy.request('tools/call', { name: 'files_delete', arguments: {} });
    const legacyMissing = await legacy.request('tools/call', { name: 'files_remove', arguments: {} });
    assert.equal(legacyHidden.status, legacyMissing.status);
    assert.equal(
      legacyHidden.text.replace(/"id":\d+/, '').replaceAll('files_delete', 'files_remove'),
      legacyMissing.text.replace(/"id":\d+/, ''),
    );
    assert.deepEqual(ran, []);
    // The positive control: the caller that may see it calls it.
    assert.equal((await call('admin', 'files_delete')).message.result?.content !== undefined, true);
    assert.deepEqual(ran, ['files_delete']);
  });

  for (const [what, name, header, error] of TRICKS) {
    it(`B5 name trick, modern: ${what}`, async () => {
      ran.length = 0;
      const answer = await call('reader', name, header);
      assert.deepEqual(answer.message.error, error);
      // Exact names for everyone: a caller that sees files_delete gets no further with the variants.
      if (name !== 'files_delete' && name !== 'files_read') {
        assert.deepEqual((await call('admin', name, header)).message.error, error);
      }
      assert.deepEqual(ran, [], 'no handler ran');
    });
  }

  it('B5 name tricks, legacy session (no mirrored headers): every variant is an unknown tool', async () => {
    ran.length = 0;
    const session = await openLegacy(listening.url, 'reader');
    for (const name of new Set(TRICKS.map(([, body]) => body))) {
      if (name === 'files_read') continue;
      const answer = await session.request('tools/call', { name, arguments: {} });
      assert.deepEqual(answer.message.error, unknownTool(name), name);
    }
    assert.deepEqual(ran, []);
  });

  it('B5 resource URIs: "..", "%2e%2e", the hidden URI and a hidden template are not found, like a URI that does not exist', async () => {
    ran.length = 0;
    const uris = [
      'file:///secret',
      'file:///allowed/../secret',
      'file:///allowed/%2e%2e/secret',
      'file:///allowed/%2E%2E/secret',
      'file:///allowed/./../secret',
      'file:///allowed/notes.txt/../../secret',
      'FILE:///secret',
      'file:///allowed/other.txt', // the text matches the rule's "file:///allowed/*", the hidden template serves it
      'urn:nothing-here',
    ];
    const session = await openLegacy(listening.url, 'reader');
    for (const uri of uris) {
      const answer = await postModern(listening.url, 'reader', 'resources/read', { uri });
      assert.deepEqual(
        answer.message.error,
        { code: -32602, message: 'Resource not found', data: { uri } },
        uri,
      );
      const legacy = await session.request('resources/read', { uri });
      assert.deepEqual(
        legacy.message.error,
        { code: -32002, message: 'Resource not found', data: { uri } },
        uri,
      );
    }
    assert.deepEqual(ran, []);
    const allowed = await postModern(listening.url, 'reader', 'resources/read', {
      uri: 'file:///allowed/notes.txt',
    });
    assert.equal((allowed.message.result?.contents as JsonObject[])[0]?.text, 'file:///allowed/notes.txt');
  });

  it('B5 resources/subscribe and completion/complete treat what the caller cannot see as unknown', async () => {
    ran.length = 0;
    const session = await openLegacy(listening.url, 'reader');
    const subscribe = (uri: string): Promise<unknown> =>
      session.request('resources/subscribe', { uri }).then((answer) => answer.message.error);
    assert.deepEqual(await subscribe('file:///secret'), {
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'file:///secret' },
    });
    assert.equal(await subscribe('file:///allowed/notes.txt'), undefined);
    const complete = (name: string): Promise<unknown> =>
      postModern(listening.url, 'reader', 'completion/complete', {
        ref: { type: 'ref/prompt', name },
        argument: { name: 'step', value: '' },
      }).then((answer) => answer.message.error);
    assert.deepEqual(await complete('secret_plan'), {
      code: -32602,
      message: 'Invalid params: unknown prompt "secret_plan"',
    });
    assert.deepEqual(await complete('no_such_plan'), {
      code: -32602,
      message: 'Invalid params: unknown prompt "no_such_plan"',
    });
    assert.equal(await complete('public_plan'), undefined);
    assert.deepEqual(ran, ['complete public_plan']);
  });
});

describe('B5 middleware installed without the visibility rule: a hidden target still answers as unknown', () => {
  let listening: HttpListening;
  let ran: string[];
  before(async () => {
    const made = namedServer('middleware only');
    ran = made.ran;
    listening = await listenHttp(made.server, { port: 0, authenticate: authenticateWith(TOKENS) });
  });
  after(() => listening.close());

  it('B5 tools/call, prompts/get and resources/read, both eras: the exact unknown answers, no handler runs', async () => {
    const pairs: [string, JsonObject, JsonObject][] = [
      ['tools/call', { name: 'files_delete', arguments: {} }, { name: 'files_remove', arguments: {} }],
      ['prompts/get', { name: 'secret_plan' }, { name: 'secret_plon' }],
      ['resources/read', { uri: 'file:///secret' }, { uri: 'urn:nothing' }],
    ];
    const session = await openLegacy(listening.url, 'reader');
    for (const [method, hidden, missing] of pairs) {
      const key = method === 'resources/read' ? 'uri' : 'name';
      const [from, to] = [hidden[key] as string, missing[key] as string];
      const modernHidden = await postModern(listening.url, 'reader', method, hidden);
      const modernMissing = await postModern(listening.url, 'reader', method, missing);
      assert.equal(modernHidden.status, modernMissing.status, method);
      assert.equal(modernHidden.text.replaceAll(from, to), modernMissing.text, method);
      const legacyHidden = await session.request(method, hidden);
      const legacyMissing = await session.request(method, missing);
      const strip = (text: string): string => text.replace(/"id":\d+/, '');
      assert.equal(strip(legacyHidden.text).replaceAll(from, to), strip(legacyMissing.text), method);
    }
    assert.deepEqual(ran, []);
  });
});
