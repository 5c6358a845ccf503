// The key format: fresh keys have the promised shape and entropy, malformed ones are recognised without hashing,
// and the stored hash is a digest of the whole key.

import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  KEY_HASH,
  MAX_KEY_LENGTH,
  digestMatches,
  hashDigest,
  hashKey,
  keyIdOf,
  newKey,
  newKeyId,
} from './key-format.js';

const SECRET_43 = 'A'.repeat(43);

describe('API key format', () => {
  it('a new key is twk_<16 letters or digits>_<43 base64url characters holding 32 bytes>', () => {
    const id = newKeyId();
    assert.match(id, /^[A-Za-z0-9]{16}$/);
    const key = newKey(id);
    assert.match(key, /^twk_[A-Za-z0-9]{16}_[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(key.slice(21), 'base64url').length, 32);
    assert.equal(keyIdOf(key), id);
  });

  it('ids and secrets do not repeat (1,000 of each)', () => {
    const ids = new Set(Array.from({ length: 1000 }, newKeyId));
    assert.equal(ids.size, 1000);
    const keys = new Set(Array.from({ length: 1000 }, () => newKey('abcdefghijkl')));
    assert.equal(keys.size, 1000);
  });

  it('a secret holding "_" still parses: the id ends at the first "_" after the prefix', () => {
    const key = `twk_abcdefghijkl_${'_'.repeat(20)}${'-'.repeat(23)}`;
    assert.equal(keyIdOf(key), 'abcdefghijkl');
  });

  it('malformed keys have no id', () => {
    for (const key of [
      '',
      'twk_',
      `twk_abcdefghijkl${SECRET_43}`, // no separator
      `abc_abcdefghijkl_${SECRET_43}`, // another prefix
      `TWK_abcdefghijkl_${SECRET_43}`,
      `twk_short_${SECRET_43}`, // id under 12
      `twk_abcdefghijk!_${SECRET_43}`, // id character
      `twk_abcdefghijkl_${'A'.repeat(42)}`, // secret too short
      `twk_abcdefghijkl_${'A'.repeat(44)}`, // secret too long
      `twk_abcdefghijkl_${'A'.repeat(42)}=`, // padding
      `twk_abcdefghijkl_${'A'.repeat(42)}+`, // base64, not base64url
      `twk_${'a'.repeat(65)}_${SECRET_43}`, // id over 64
      `twk_abcdefghijkl_${SECRET_43}${'A'.repeat(100_000)}`,
    ]) {
      assert.equal(keyIdOf(key), undefined, key.slice(0, 80));
    }
    assert.equal(keyIdOf(`twk_${'a'.repeat(64)}_${SECRET_43}`)?.length, 64);
    assert.equal(MAX_KEY_LENGTH, `twk_${'a'.repeat(64)}_${SECRET_43}`.length);
  });

  it('the stored hash is sha256:<base64url SHA-256 of the whole key>, and only that key matches it', () => {
    const key = newKey('abcdefghijkl');
    const hash = hashKey(key);
    assert.match(hash, KEY_HASH);
    assert.equal(hash, `sha256:${createHash('sha256').update(key).digest('base64url')}`);
    assert.ok(!hash.includes(key.slice(17)));
    const digest = hashDigest(hash);
    assert.equal(digest.length, 32);
    assert.equal(digestMatches(key, digest), true);
    const flipped = key.slice(0, -1) + (key.endsWith('A') ? 'B' : 'A');
    assert.equal(digestMatches(flipped, digest), false);
    // The id is part of what is hashed: the same secret under another id does not match.
    assert.equal(digestMatches(key.replace('abcdefghijkl', 'abcdefghijkm'), digest), false);
  });
});
