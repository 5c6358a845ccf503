// The verified-token cache: keyed by a hash (never the token), bounded, least recently used first out, expired
// entries never answered.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TokenCache, tokenHash } from './token-cache.js';

describe('policy bearer: token cache', () => {
  it('keys on a SHA-256 of the token, never the token', () => {
    const hash = tokenHash('secret.token.value');
    assert.equal(hash.length, 43);
    assert.ok(!hash.includes('secret'));
    assert.equal(tokenHash('secret.token.value'), hash);
  });

  it('answers until expiry, then drops the entry', () => {
    let now = 1_000;
    const cache = new TokenCache<string>(10, () => now);
    cache.set('a', 'A', 2_000);
    assert.equal(cache.get('a'), 'A');
    now = 2_000;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
    cache.set('b', 'B', 1_500); // already expired: not stored
    assert.equal(cache.size, 0);
  });

  it('holds at most maxEntries, evicting expired entries first, then the least recently used', () => {
    let now = 0;
    const cache = new TokenCache<number>(3, () => now);
    cache.set('a', 1, 100);
    cache.set('b', 2, 10);
    cache.set('c', 3, 100);
    now = 50; // b expired
    cache.set('d', 4, 100);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.get('c'), cache.get('d')], [1, undefined, 3, 4]);
    cache.get('a'); // a is now the most recent; c the least
    cache.set('e', 5, 100);
    assert.equal(cache.size, 3);
    assert.equal(cache.get('c'), undefined);
    assert.deepEqual([cache.get('a'), cache.get('d'), cache.get('e')], [1, 4, 5]);
    for (let i = 0; i < 1_000; i++) cache.set(`k${i}`, i, 100);
    assert.equal(cache.size, 3);
  });
});
