// Tool names for model APIs: the same name always maps the same way, long names keep their start and a hash,
// server prefixes survive, and two tools never share a name.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mapNames, providerName } from './names.js';

describe('providerName', () => {
  it('keeps a valid name, replaces other characters with "_"', () => {
    assert.equal(providerName('get_weather-v2', 64), 'get_weather-v2');
    assert.equal(providerName('admin.tools.list', 64), 'admin_tools_list');
    assert.equal(providerName('résumé/search', 64), 'r_sum__search');
  });

  it('C7 shortens with 8 hex characters of SHA-256 over the original name, the same on every run', () => {
    const name = 'x'.repeat(80);
    assert.equal(providerName(name, 64), `${'x'.repeat(55)}_d929cdee`);
    assert.equal(providerName(name, 128), name);
    assert.notEqual(providerName(`${'x'.repeat(79)}y`, 64), providerName(name, 64));
  });

  it('C7 keeps a gateway prefix (server___tool) whole and shortens the tool part', () => {
    const mapped = providerName(`github___${'create_pull_request_review_comment_'.repeat(3)}`, 64);
    assert.equal(mapped.length, 64);
    assert.match(mapped, /^github___create_pull_request_review_comment_create_pull_[0-9a-f]{8}$/);
  });

  it('an empty name gets a hash', () => assert.match(providerName('', 64), /^_[0-9a-f]{8}$/));

  it('property: always within the charset and the length', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.constantFrom(64, 128), (name, max) => {
        const mapped = providerName(name, max);
        return /^[a-zA-Z0-9_-]+$/.test(mapped) && mapped.length <= max;
      }),
    );
  });
});

describe('mapNames', () => {
  it('is reversible through its table', () => {
    const { toProvider, fromProvider, refused } = mapNames(['a.b', 'c'], 64);
    assert.deepEqual(
      [...toProvider],
      [
        ['a.b', 'a_b'],
        ['c', 'c'],
      ],
    );
    assert.deepEqual(
      [...fromProvider],
      [
        ['a_b', 'a.b'],
        ['c', 'c'],
      ],
    );
    assert.deepEqual(refused, []);
  });

  it('C3 refuses names that collide once mapped, except the one the provider takes unchanged', () => {
    assert.deepEqual(mapNames(['a.b', 'a/b'], 64).refused, [
      { name: 'a.b', reason: 'its model API name "a_b" would be the same as that of "a/b"' },
      { name: 'a/b', reason: 'its model API name "a_b" would be the same as that of "a.b"' },
    ]);
    const kept = mapNames(['a.b', 'a_b'], 64);
    assert.equal(kept.fromProvider.get('a_b'), 'a_b');
    assert.deepEqual(
      kept.refused.map((entry) => entry.name),
      ['a.b'],
    );
  });

  it('property: no two accepted names share a provider name', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ maxLength: 80 }), { maxLength: 30 }), (names) => {
        const { toProvider, fromProvider } = mapNames(names, 64);
        return toProvider.size === fromProvider.size;
      }),
    );
  });
});
