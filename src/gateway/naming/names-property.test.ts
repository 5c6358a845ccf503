// Property tests of naming: for any server names and any upstream names, exposed names are valid, unique, keep their
// server's prefix, resolve back to exactly their entry, and do not depend on the input order.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { createNameTable, nameEntries, SEPARATOR } from './index.js';

/** Valid server names: a letter or digit first, no "_" last, no "___" inside. */
const serverName = fc
  .stringMatching(/^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,30}[A-Za-z0-9-])?$/)
  .filter((name) => !name.includes(SEPARATOR));
const upstreamName = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9_.-]{1,80}$/),
  fc.string({ unit: 'binary', maxLength: 90 }),
  fc.constantFrom('', '_', '___', 'a___b', 'x'.repeat(200)),
);
const inputs = fc.uniqueArray(fc.record({ server: serverName, name: upstreamName }), {
  maxLength: 40,
  selector: (input) => `${input.server}\u0000${input.name}`,
});

describe('naming properties', () => {
  it('C3 C7 exposed names are valid tool names of at most 64 characters, unique, under their own server', () => {
    fc.assert(
      fc.property(inputs, (list) => {
        const { entries, reports } = nameEntries(list, new Map());
        assert.equal(entries.length, list.length);
        assert.equal(new Set(entries.map((entry) => entry.exposed)).size, entries.length);
        for (const entry of entries) {
          assert.match(entry.exposed, /^[A-Za-z0-9_.-]{1,64}$/);
          // The first separator is always the server's: no entry can be read as another server's.
          assert.equal(entry.exposed.slice(0, entry.exposed.indexOf(SEPARATOR)), entry.server);
        }
        assert.equal(reports.length, entries.filter((entry) => entry.alias).length);
        const table = createNameTable(entries);
        for (const entry of entries) assert.equal(table.resolve(entry.exposed), entry);
      }),
      { numRuns: 200 },
    );
  });

  it('C7 the result does not depend on the order the upstreams list in', () => {
    fc.assert(
      fc.property(inputs, fc.infiniteStream(fc.nat()), (list, seeds) => {
        const shuffled = [...list].sort(() => (seeds.next().value % 3) - 1);
        assert.deepEqual(nameEntries(shuffled, new Map()), nameEntries(list, new Map()));
      }),
      { numRuns: 100 },
    );
  });
});
