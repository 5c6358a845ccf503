// The table serve reads packs through (config parsers now, pack code when served) must be the public PACKS table.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PACK_TABLE } from '../src/tools/pack-table.js';
import { PACKS } from '../src/tools/packs.js';

test('PACK_TABLE names the packs of PACKS in the same order, with their own parsers, and loads the same packs', async () => {
  assert.deepEqual(Object.keys(PACK_TABLE), Object.keys(PACKS));
  for (const [name, entry] of Object.entries(PACK_TABLE)) {
    assert.equal(entry.parseConfig, PACKS[name]?.parseConfig, `${name}: parseConfig`);
    assert.equal(await entry.load(), PACKS[name], `${name}: load()`);
  }
});
