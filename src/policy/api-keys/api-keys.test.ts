// The API key authenticator without a network: the same frozen Caller per key, one constant-time comparison per
// check whatever is wrong (no oracle for ids), expiry by an injected clock, reloads, and the exact 401 challenges.

import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, mock } from 'node:test';
import type { HttpRequestInfo } from '../../transports/http/index.js';
import { apiKeys, createApiKey, loadApiKeys } from './api-keys.js';
import { writeKeysFile } from './keys-file.js';
import { ApiKeysError } from './records.js';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-api-keys-'));
after(() => rmSync(scratch, { recursive: true, force: true }));

const request = (headers: Record<string, string>, query = ''): HttpRequestInfo => {
  const params = new URLSearchParams(query);
  return {
    method: 'POST',
    path: '/mcp',
    header: (name) => headers[name.toLowerCase()],
    query: (name) => params.get(name) ?? undefined,
    queryNames: () => [...params.keys()],
  };
};

const alice = createApiKey({ subject: 'alice', scopes: ['files:read', 'calc'], label: 'laptop' });
const bob = createApiKey({ subject: 'bob', scopes: [], expires: '2027-01-01T00:00:00Z' });
const BEFORE_EXPIRY = Date.parse('2026-12-31T23:59:59Z');
const INVALID = {
  status: 401,
  headers: { 'WWW-Authenticate': 'Bearer realm="mcp", error="invalid_token"' },
  message: 'Unauthorized: the API key is not valid',
};

/** A forged key: the right id, another secret of the right shape. */
const wrongSecret = (key: string): string => `${key.slice(0, key.indexOf('_', 4) + 1)}${'Q'.repeat(43)}`;

describe('API keys: verify', () => {
  const keys = apiKeys({ keys: [alice.record, bob.record], now: () => BEFORE_EXPIRY });

  it('a good key gives the same frozen Caller every time, with the key id and label as claims', () => {
    const caller = keys.verify(alice.key);
    assert.deepEqual(caller, {
      subject: 'alice',
      via: 'api-key',
      scopes: ['files:read', 'calc'],
      claims: { keyId: alice.record.id, label: 'laptop' },
    });
    assert.equal(keys.verify(alice.key), caller);
    assert.ok(Object.isFrozen(caller) && Object.isFrozen(caller?.scopes) && Object.isFrozen(caller?.claims));
    assert.deepEqual(keys.verify(bob.key)?.claims, { keyId: bob.record.id });
    assert.equal(keys.size, 2);
  });

  it('a wrong secret, an unknown id, a malformed key and a non-key all give undefined', () => {
    const unknownId = alice.key.replace(alice.record.id, 'zzzzzzzzzzzzzzzz');
    for (const token of [
      wrongSecret(alice.key),
      unknownId,
      'twk_x',
      alice.key.slice(0, -1),
      'eyJhbGciOi.x.y',
      '',
    ]) {
      assert.equal(keys.verify(token), undefined, token);
    }
  });

  it('owns exactly the tokens that start with twk_ (a malformed key is still ours: never sent to an OAuth server)', () => {
    assert.equal(keys.owns(alice.key), true);
    assert.equal(keys.owns('twk_broken'), true);
    assert.equal(keys.owns('eyJhbGciOiJSUzI1NiJ9.e30.sig'), false);
    assert.equal(keys.owns('TWK_abc'), false);
  });

  it('an expired key is refused from the instant it expires, by the injected clock', () => {
    let now = BEFORE_EXPIRY;
    const clocked = apiKeys({ keys: [bob.record], now: () => now });
    assert.equal(clocked.verify(bob.key)?.subject, 'bob');
    now = Date.parse('2027-01-01T00:00:00Z');
    assert.equal(clocked.verify(bob.key), undefined);
    assert.deepEqual(clocked.authenticate(request({ authorization: `Bearer ${bob.key}` })), {
      status: 401,
      headers: {
        'WWW-Authenticate':
          'Bearer realm="mcp", error="invalid_token", error_description="the API key has expired"',
      },
      message: 'Unauthorized: the API key has expired',
    });
    // Expiry is told only to a holder of the secret: a wrong secret for the expired id is just invalid.
    assert.deepEqual(
      clocked.authenticate(request({ authorization: `Bearer ${wrongSecret(bob.key)}` })),
      INVALID,
    );
  });

  it('constant time: every well-formed key costs one timingSafeEqual on 32-byte digests, known id or not', () => {
    const calls: Array<[number, number]> = [];
    const original = crypto.timingSafeEqual;
    const spy = mock.method(
      crypto,
      'timingSafeEqual',
      (a: NodeJS.ArrayBufferView, b: NodeJS.ArrayBufferView) => {
        calls.push([a.byteLength, b.byteLength]);
        return original(a, b);
      },
    );
    syncBuiltinESMExports(); // the module's named import sees the spy
    try {
      const unknownId = alice.key.replace(alice.record.id, 'zzzzzzzzzzzzzzzz');
      for (const token of [alice.key, wrongSecret(alice.key), unknownId]) {
        calls.length = 0;
        keys.verify(token);
        assert.deepEqual(calls, [[32, 32]], token);
      }
      calls.length = 0;
      keys.verify('twk_malformed'); // the shape is public: nothing to compare
      assert.deepEqual(calls, []);
    } finally {
      spy.mock.restore();
      syncBuiltinESMExports();
    }
  });
});

describe('API keys: authenticate', () => {
  const keys = apiKeys({ keys: [alice.record], now: () => BEFORE_EXPIRY });

  it('reads Authorization: Bearer and X-API-Key', () => {
    const caller = keys.verify(alice.key);
    assert.equal(keys.authenticate(request({ authorization: `Bearer ${alice.key}` })), caller);
    assert.equal(keys.authenticate(request({ 'x-api-key': alice.key })), caller);
  });

  it('with headerName false, X-API-Key is not read', () => {
    const bearerOnly = apiKeys({ keys: [alice.record], headerName: false });
    assert.equal(
      bearerOnly.authenticate(request({ 'x-api-key': alice.key })),
      bearerOnly.authenticate(request({})),
    );
  });

  it('no credential: 401 with a bare Bearer realm challenge', () => {
    assert.deepEqual(keys.authenticate(request({})), {
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="mcp"' },
      message: 'Unauthorized: this server needs an API key (Authorization: Bearer twk_…)',
    });
  });

  it('wrong secret, unknown id, malformed key and a JWT all get the one same 401', () => {
    for (const token of [
      wrongSecret(alice.key),
      alice.key.replace(alice.record.id, 'zzzzzzzzzzzzzzzz'),
      'twk_abc',
      'eyJhbGciOiJSUzI1NiJ9.e30.sig',
    ]) {
      assert.deepEqual(keys.authenticate(request({ authorization: `Bearer ${token}` })), INVALID, token);
      assert.deepEqual(keys.authenticate(request({ 'x-api-key': token })), INVALID, token);
    }
  });

  it('B3: a key in the query string is refused even beside a good header, and never quoted', () => {
    const challenge = keys.authenticate(
      request({ authorization: `Bearer ${alice.key}` }, `api_key=${alice.key}`),
    );
    assert.ok(!('subject' in challenge));
    assert.equal(challenge.status, 401);
    assert.ok(!JSON.stringify(challenge).includes(alice.key.slice(5)));
    assert.equal(
      challenge.headers?.['WWW-Authenticate'],
      'Bearer realm="mcp", error="invalid_request", error_description="credentials in the URL are refused (query parameter \\"api_key\\"); send them in the Authorization header"',
    );
  });
});

describe('API keys: options, files and reloads', () => {
  it('bad options are named', () => {
    const cases: Array<[unknown, string]> = [
      [{}, 'apiKeys: give the keys (an array of key records) or a keys file (file)'],
      [{ file: '' }, 'apiKeys: file must be the path of a keys file'],
      [{ keys: [], headerName: 'authorization' }, 'apiKeys: headerName must be "x-api-key" or false'],
      [{ keys: [], now: 5 }, 'apiKeys: now must be a function returning milliseconds since the epoch'],
      [
        { keys: [{ ...alice.record, subject: '' }] },
        'apiKeys keys option: keys[0].subject must not be empty',
      ],
    ];
    for (const [options, message] of cases) {
      assert.throws(() => apiKeys(options as never), { name: 'ApiKeysError', message });
    }
    assert.equal(apiKeys({ keys: [] }).size, 0);
  });

  it('createApiKey checks what it is given', () => {
    assert.throws(() => createApiKey({ subject: '', scopes: [] }), {
      message: 'createApiKey: subject must not be empty',
    });
    assert.throws(() => createApiKey({ subject: 's', scopes: ['a b'] }), {
      message: `createApiKey: scopes[0] "a b" is not a scope: use 1 to 128 visible ASCII characters other than space, '"' and '\\' (RFC 6749)`,
    });
    assert.throws(() => createApiKey({ subject: 's', scopes: [], expires: 'soon' }), ApiKeysError);
  });

  it('reload picks up added and revoked keys; an unchanged key keeps its Caller object', async () => {
    const file = join(scratch, 'reload.json');
    const carol = createApiKey({ subject: 'carol', scopes: ['calc'] });
    await writeKeysFile(file, [alice.record]);
    const keys = await loadApiKeys({ file, keys: [carol.record] });
    const aliceCaller = keys.verify(alice.key);
    const carolCaller = keys.verify(carol.key);
    assert.ok(aliceCaller !== undefined && carolCaller !== undefined);
    assert.equal(keys.verify(bob.key), undefined);

    await writeKeysFile(file, [alice.record, bob.record]);
    await keys.reload();
    assert.equal(keys.size, 3);
    assert.equal(keys.verify(alice.key), aliceCaller);
    assert.equal(keys.verify(carol.key), carolCaller);
    assert.equal(keys.verify(bob.key)?.subject, 'bob');

    await writeKeysFile(file, [bob.record]); // alice's key revoked
    await keys.reload();
    assert.equal(keys.verify(alice.key), undefined);
    assert.equal(keys.size, 2);
  });

  it('a reload that fails keeps the keys in use; an id both inline and in the file is refused', async () => {
    const file = join(scratch, 'reload-bad.json');
    await writeKeysFile(file, [alice.record]);
    const keys = await loadApiKeys({ file });
    await writeKeysFile(file, [alice.record]);
    chmodSync(file, 0o666);
    await assert.rejects(keys.reload(), { name: 'ApiKeysError' });
    assert.equal(keys.verify(alice.key)?.subject, 'alice');
    chmodSync(file, 0o600);
    await assert.rejects(loadApiKeys({ file, keys: [alice.record] }), {
      message: `keys file ${file}: the key id "${alice.record.id}" is also in the keys option; an id names one key`,
    });
  });
});
