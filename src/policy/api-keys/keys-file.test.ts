// The keys file: written atomically with mode 0600 and no plaintext key; refused when someone else could have written
// it (group or other write bits, another owner), with a message that says how to fix it; malformed files named.

import assert from 'node:assert/strict';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createApiKey, loadApiKeys, apiKeys } from './api-keys.js';
import {
  KeysFileChangedError,
  keysFileText,
  readKeysFile,
  readKeysFileSync,
  writeKeysFile,
} from './keys-file.js';
import { ApiKeysError } from './records.js';

const scratch = mkdtempSync(join(tmpdir(), 'toolwire-keys-file-'));
after(() => rmSync(scratch, { recursive: true, force: true }));
let counter = 0;
const fresh = (): string => join(scratch, `keys-${++counter}.json`);

async function refusedWith(path: string, message: string): Promise<void> {
  const check = (error: unknown): boolean => {
    assert.ok(error instanceof ApiKeysError, String(error));
    assert.equal(error.message, message);
    return true;
  };
  await assert.rejects(readKeysFile(path), check);
  assert.throws(() => readKeysFileSync(path), check);
  await assert.rejects(loadApiKeys({ file: path }), check);
  assert.throws(() => apiKeys({ file: path }), check);
}

describe('API keys file', () => {
  it('is written with mode 0600, holds hashes and never the key, and reads back the same records', async () => {
    const path = fresh();
    const one = createApiKey({ subject: 'alice', scopes: ['calc'], label: 'laptop' });
    const two = createApiKey({ subject: 'bob', scopes: [], expires: '2030-01-01T00:00:00Z' });
    await writeKeysFile(path, [one.record, two.record]);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    const text = readFileSync(path, 'utf8');
    for (const { key } of [one, two]) {
      assert.ok(!text.includes(key));
      assert.ok(!text.includes(key.slice(key.indexOf('_', 4) + 1)), 'no secret part either');
    }
    assert.deepEqual(await readKeysFile(path), [one.record, two.record]);
    assert.deepEqual(readKeysFileSync(path), [one.record, two.record]);
    // Replacing keeps 0600 even over a file that had another mode, and leaves no temporary file behind.
    chmodSync(path, 0o644);
    await writeKeysFile(path, [one.record]);
    assert.equal(statSync(path).mode & 0o777, 0o600);
    assert.deepEqual(
      readdirSync(scratch).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });

  it('refuses to write records that are not valid, and leaves the file as it was', async () => {
    const path = fresh();
    const { record } = createApiKey({ subject: 'alice', scopes: ['calc'] });
    await writeKeysFile(path, [record]);
    const before = readFileSync(path, 'utf8');
    await assert.rejects(writeKeysFile(path, [record, record]), {
      message: `writing keys file ${path}: keys[1].id "${record.id}" is already the id of keys[0]`,
    });
    assert.equal(readFileSync(path, 'utf8'), before);
  });

  it('a keys file writable by its group or by anyone is refused: chmod 600', async () => {
    const path = fresh();
    await writeKeysFile(path, [createApiKey({ subject: 'alice', scopes: [] }).record]);
    chmodSync(path, 0o620);
    await refusedWith(
      path,
      `refusing the keys file: ${path} can be written by its group (mode 620), and whoever writes it can grant any scope: run chmod 600 ${path}`,
    );
    chmodSync(path, 0o606);
    await refusedWith(
      path,
      `refusing the keys file: ${path} can be written by anyone (mode 606), and whoever writes it can grant any scope: run chmod 600 ${path}`,
    );
    chmodSync(path, 0o644); // readable by others is fine: it holds hashes of 256-bit secrets
    assert.equal((await loadApiKeys({ file: path })).size, 1);
  });

  it(
    'a keys file owned by another user is refused',
    { skip: process.getuid?.() !== 0 && 'needs root to chown' },
    async () => {
      const path = fresh();
      await writeKeysFile(path, [createApiKey({ subject: 'alice', scopes: [] }).record]);
      chownSync(path, 4242, 4242);
      await refusedWith(
        path,
        `refusing the keys file: ${path} belongs to user id 4242, not to the user toolwire runs as (0): whoever owns it can grant any scope; chown it, then chmod 600 ${path}`,
      );
    },
  );

  it('a missing file, a directory and malformed contents are named', async () => {
    const missing = join(scratch, 'nope.json');
    await refusedWith(missing, `keys file ${missing} does not exist`);
    await refusedWith(scratch, `refusing the keys file: ${scratch} is not a regular file`);
    const cases: Array<[string, string]> = [
      ['{"keys": [', ' is not valid JSON: '],
      ['[]', ' must hold an object { "keys": [ … ] }'],
      ['{"kyes": []}', ': unknown member "kyes"; it has "keys"'],
      ['{}', ': "keys" must be an array of key records'],
      ['{"keys": [{"id": "abcdefghijkl"}]}', ': keys[0].subject is missing'],
    ];
    for (const [text, problem] of cases) {
      const path = fresh();
      writeFileSync(path, text, { mode: 0o600 });
      await assert.rejects(readKeysFile(path), (error: Error) => {
        assert.ok(error.message.startsWith(`keys file ${path}${problem}`), error.message);
        return true;
      });
    }
  });

  it('a keys file in a directory anyone may write (not sticky) is refused; a sticky one is fine', async () => {
    const dir = join(scratch, `open-${++counter}`);
    mkdirSync(dir);
    const path = join(dir, 'keys.json');
    await writeKeysFile(path, [createApiKey({ subject: 'alice', scopes: [] }).record]);
    chmodSync(dir, 0o777);
    await refusedWith(
      path,
      `refusing the keys file: anyone can write the directory ${dir} and replace keys.json with their own: run chmod o-w ${dir}, or keep the keys file elsewhere`,
    );
    chmodSync(dir, 0o1777); // like /tmp: others cannot rename over a file of ours
    assert.equal(readKeysFileSync(path).length, 1);
    chmodSync(dir, 0o770); // group-writable directories are common (user-private groups): accepted
    assert.equal(readKeysFileSync(path).length, 1);
  });

  it(
    'a keys file in a directory another user owns is refused',
    { skip: process.getuid?.() !== 0 && 'needs root to chown' },
    async () => {
      const dir = join(scratch, `theirs-${++counter}`);
      mkdirSync(dir, { mode: 0o755 });
      const path = join(dir, 'keys.json');
      await writeKeysFile(path, [createApiKey({ subject: 'alice', scopes: [] }).record]);
      chownSync(dir, 4242, 4242);
      await refusedWith(
        path,
        `refusing the keys file: the directory ${dir} belongs to user id 4242, who could replace keys.json with their own: keep the keys file in a directory you (or root) own`,
      );
    },
  );

  it('a write computed from records the file no longer holds is refused, and writes nothing', async () => {
    const path = fresh();
    const one = createApiKey({ subject: 'alice', scopes: [] }).record;
    const two = createApiKey({ subject: 'bob', scopes: [] }).record;
    await writeKeysFile(path, [one], { expected: [] }); // no file yet: expected empty
    await writeKeysFile(path, [one, two], { expected: [one] });
    await assert.rejects(writeKeysFile(path, [one], { expected: [one] }), (error: unknown) => {
      assert.ok(error instanceof KeysFileChangedError);
      assert.equal(
        error.message,
        `keys file ${path} changed while toolwire was writing it; run the command again`,
      );
      return true;
    });
    assert.equal(readFileSync(path, 'utf8'), keysFileText([one, two]));
    assert.deepEqual(
      readdirSync(scratch).filter((name) => name.endsWith('.tmp')),
      [],
    );
  });
});
