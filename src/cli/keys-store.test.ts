// Where `toolwire keys` keeps records in a toolwire.json: a missing config is created 0600; one it cannot edit safely
// (not JSON, wrong types on the path, duplicate members, a bad record, writable by others) is refused, unchanged.

import assert from 'node:assert/strict';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createApiKey, keysFileText } from '../policy/api-keys/index.js';
import { keyStore } from './keys-store.js';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-keys-store-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
const freshDir = (): string => {
  const dir = join(scratch, `case-${++counter}`);
  mkdirSync(dir);
  return dir;
};

const { record } = createApiKey({ subject: 'alice', scopes: ['calc'] });

describe('toolwire keys: policy.apiKeys.keys in a toolwire.json', () => {
  it('a missing config is created with mode 0600 and only the policy section', async () => {
    const dir = freshDir();
    const store = keyStore({ config: 'new.json' }, dir);
    assert.deepEqual(await store.read(true), []);
    await assert.rejects(store.read(false), {
      message: `config file ${join(dir, 'new.json')} does not exist`,
    });
    assert.equal(await store.update((records) => [...records, record]), undefined);
    const file = join(dir, 'new.json');
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')), { policy: { apiKeys: { keys: [record] } } });
    assert.deepEqual(await store.read(false), [record]);
  });

  it('a config it cannot edit safely is refused with its reason, and left as it was', async () => {
    const dir = freshDir();
    const file = join(dir, 'toolwire.json');
    const store = keyStore({ config: 'toolwire.json' }, dir);
    const cases: Array<[string, string]> = [
      [
        '{"tools": [',
        `${file} is not valid JSON: an array that is never closed, starting at line 1, column 11`,
      ],
      ['[]', `${file} must hold a JSON object`],
      ['{"policy": []}', `${file}: policy must be an object`],
      ['{"policy": {"apiKeys": 3}}', `${file}: policy.apiKeys must be an object`],
      [
        '{"policy": {"apiKeys": {"keys": {}}}}',
        `${file}: policy.apiKeys.keys must be an array of key records`,
      ],
      ['{"policy": {}, "policy": {}}', `${file}: "policy" appears 2 times; keep one`],
      ['{"policy": {"apiKeys": {}, "apiKeys": {}}}', `${file}: "policy.apiKeys" appears 2 times; keep one`],
      [
        '{"policy": {"apiKeys": {"keys": [{"id": "abcdefghijkl", "subject": "", "scopes": [], "hash": "x"}]}}}',
        `${file}: policy.apiKeys: keys[0].subject must not be empty`,
      ],
    ];
    for (const [text, message] of cases) {
      writeFileSync(file, text, { mode: 0o600 });
      await assert.rejects(
        store.update((records) => [...records, record]),
        { message },
        text,
      );
      await assert.rejects(store.read(false), { message }, text);
      assert.equal(readFileSync(file, 'utf8'), text);
    }
  });

  it('a config others can write is refused (whoever writes it grants keys): chmod 600', async () => {
    const dir = freshDir();
    const file = join(dir, 'toolwire.json');
    writeFileSync(file, '{}');
    chmodSync(file, 0o666);
    const message = `refusing the config file: ${file} can be written by anyone (mode 666), and whoever writes it can grant any scope: run chmod 600 ${file}`;
    const store = keyStore({ config: 'toolwire.json' }, dir);
    await assert.rejects(store.read(false), { name: 'ApiKeysError', message });
    await assert.rejects(
      store.update((records) => [...records, record]),
      { name: 'ApiKeysError', message },
    );
    assert.equal(readFileSync(file, 'utf8'), '{}');
  });

  it('a change that throws leaves the config untouched', async () => {
    const dir = freshDir();
    const file = join(dir, 'toolwire.json');
    writeFileSync(file, '{"tools": ["calc"]}', { mode: 0o600 });
    const store = keyStore({ config: 'toolwire.json' }, dir);
    await assert.rejects(
      store.update(() => {
        throw new Error('no such key');
      }),
      { message: 'no such key' },
    );
    assert.equal(readFileSync(file, 'utf8'), '{"tools": ["calc"]}');
  });

  it('--file: a key another `toolwire keys` writes meanwhile is kept (the change runs again on its records)', async () => {
    const dir = freshDir();
    const file = join(dir, 'keys.json');
    const theirs = createApiKey({ subject: 'bob', scopes: [] }).record;
    const store = keyStore({ file: 'keys.json' }, dir);
    let runs = 0;
    await store.update((records) => {
      if (++runs === 1) writeFileSync(file, keysFileText([theirs]), { mode: 0o600 }); // between our read and rename
      return [...records, record];
    });
    assert.equal(runs, 2);
    assert.deepEqual(await store.read(false), [theirs, record]);
  });
});
