// Key records are checked member by member, and every message names the record's index and the member at fault.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiKeysError, checkRecords, type ApiKeyRecord } from './records.js';

const HASH = `sha256:${'a'.repeat(43)}`;
const GOOD: ApiKeyRecord = {
  id: 'abcdefghijkl',
  subject: 'ci-bot',
  scopes: ['files:read', 'calc'],
  hash: HASH,
  created: '2026-11-27T08:00:00.000Z',
  label: 'the CI runner',
  expires: '2027-01-01',
};

/** Asserts that checking these records fails with exactly this message. */
function refused(records: unknown, message: string): void {
  assert.throws(
    () => checkRecords(records, 'SRC'),
    (error: unknown) => {
      assert.ok(error instanceof ApiKeysError);
      assert.equal(error.message, message);
      return true;
    },
  );
}

describe('API key records', () => {
  it('a good record comes back frozen, with only its members', () => {
    const [record] = checkRecords([GOOD, { ...GOOD, id: 'mnopqrstuvwx', label: undefined }], 'SRC');
    assert.deepEqual(record, GOOD);
    assert.ok(Object.isFrozen(record) && Object.isFrozen(record?.scopes));
    const [, second] = checkRecords(
      [GOOD, { id: 'mnopqrstuvwx', subject: 's', scopes: [], hash: HASH }],
      'SRC',
    );
    assert.deepEqual(Object.keys(second ?? {}), ['id', 'subject', 'scopes', 'hash']);
  });

  it('each bad member is named with the record index', () => {
    const at = (patch: Record<string, unknown>): unknown[] => [
      GOOD,
      { ...GOOD, id: 'mnopqrstuvwx', ...patch },
    ];
    refused('nope', 'SRC: "keys" must be an array of key records');
    refused([GOOD, 3], 'SRC: keys[1] must be an object { id, subject, scopes, hash }, got number');
    refused(at({ subject: '' }), 'SRC: keys[1].subject must not be empty');
    refused(at({ subject: '  ' }), 'SRC: keys[1].subject must not be empty');
    refused(at({ subject: 'a\nb' }), 'SRC: keys[1].subject must not contain control characters');
    refused(at({ subject: 7 }), 'SRC: keys[1].subject must be a string, got number');
    refused(at({ subject: undefined }), 'SRC: keys[1].subject is missing');
    refused(at({ scopes: 'calc' }), 'SRC: keys[1].scopes must be an array of scope strings, got string');
    refused(
      at({ scopes: ['calc', 'files read'] }),
      `SRC: keys[1].scopes[1] "files read" is not a scope: use 1 to 128 visible ASCII characters other than space, '"' and '\\' (RFC 6749)`,
    );
    refused(
      at({ scopes: ['calc', ''] }),
      `SRC: keys[1].scopes[1] "" is not a scope: use 1 to 128 visible ASCII characters other than space, '"' and '\\' (RFC 6749)`,
    );
    refused(at({ scopes: ['calc', 'calc'] }), 'SRC: keys[1].scopes[1] "calc" is listed twice');
    refused(at({ scopes: [null] }), 'SRC: keys[1].scopes[0] must be a string, got null');
    refused(at({ id: 'short' }), 'SRC: keys[1].id "short" is not a key id: 12 to 64 letters, digits or "-"');
    refused(
      at({ id: 'abc_defghijkl' }),
      'SRC: keys[1].id "abc_defghijkl" is not a key id: 12 to 64 letters, digits or "-"',
    );
    refused(at({ id: 'abcdefghijkl' }), 'SRC: keys[1].id "abcdefghijkl" is already the id of keys[0]');
    refused(
      at({ hash: 'twk_abcdefghijkl_secretsecret' }),
      'SRC: keys[1].hash must be "sha256:" and 43 base64url characters (a key\'s hash, never the key)',
    );
    refused(
      at({ expires: 'tomorrow' }),
      'SRC: keys[1].expires "tomorrow" is not an ISO 8601 time like "2027-01-31T12:00:00Z"',
    );
    refused(
      at({ created: '2026-11-27T08:00:00' }), // no zone: whose 8 o'clock?
      'SRC: keys[1].created "2026-11-27T08:00:00" is not an ISO 8601 time like "2027-01-31T12:00:00Z"',
    );
    refused(
      at({ expires: '2026-02-30T00:00:00Z' }),
      'SRC: keys[1].expires "2026-02-30T00:00:00Z" is not an ISO 8601 time like "2027-01-31T12:00:00Z"',
    );
    refused(at({ label: 5 }), 'SRC: keys[1].label must be a string, got number');
    refused(
      at({ scope: ['calc'] }),
      'SRC: keys[1]: unknown member "scope"; a key record has id, subject, scopes, hash, created, label, expires',
    );
  });

  it('a hash that is really a pasted key is refused without quoting it', () => {
    const key = 'twk_abcdefghijkl_QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZn';
    assert.throws(
      () => checkRecords([{ ...GOOD, hash: key }], 'SRC'),
      (error: Error) => !error.message.includes(key) && !error.message.includes('QUJDREVG'),
    );
  });
});
