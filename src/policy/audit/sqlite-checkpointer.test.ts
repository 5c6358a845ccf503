// The embedded store's WAL checkpoints run in a worker thread: the main database file fills while the writer itself
// never crosses its (raised) threshold, and close() ends the thread and leaves no WAL behind.

import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { SqliteAuditStore } from './sqlite-store.js';
import { auditEntry } from '../../../test/support/audit-entry.js';
import type { AuditEntry } from './types.js';

const entry = (n: number): AuditEntry =>
  auditEntry(n, { arguments: JSON.stringify({ text: 'x'.repeat(200) }) });

/** Polls until `check` holds, at most `rounds` × 50 ms (generous: the thread checkpoints every 200 ms). */
async function eventually(check: () => boolean, rounds = 400): Promise<boolean> {
  for (let round = 0; round < rounds; round++) {
    if (check()) return true;
    await delay(50);
  }
  return check();
}

describe('audit trail: background WAL checkpoints', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-checkpoint-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('copies committed pages into the database file from another thread, and close() ends it', async () => {
    const path = join(dir, 'background.db');
    const store = new SqliteAuditStore(path);
    const before = statSync(path).size;
    for (let batch = 0; batch < 20; batch++) {
      await store.append(Array.from({ length: 50 }, (_, index) => entry(batch * 50 + index)));
    }
    // 1,000 rows of ~400 bytes are far below the writer's own threshold (16,384 pages): only the thread moves them.
    assert.ok(
      await eventually(() => statSync(path).size > before + 200 * 1024),
      `the database file stayed at ${statSync(path).size} bytes`,
    );
    await store.close();
    assert.equal(existsSync(`${path}-wal`), false, 'the last connection removes the WAL on close');
    const reopened = new SqliteAuditStore(path, { mustExist: true });
    assert.equal((await reopened.head()).lastId, 1_000);
    await reopened.close();
  });

  it('"inline" keeps checkpoints in the writer (SQLite default threshold), with no thread', async () => {
    const path = join(dir, 'inline.db');
    const store = new SqliteAuditStore(path, { checkpoint: 'inline' });
    const before = statSync(path).size;
    await store.append(Array.from({ length: 20 }, (_, index) => entry(index)));
    await delay(600); // three of the thread's periods: nothing may have copied the pages
    assert.equal(statSync(path).size, before);
    await store.close();
  });
});
