// The audit trail on SQLite over real HTTP (both eras): the shared scenarios (H1, H2, H3, E3), plus what only an
// embedded file shows: its mode, a store that fails (the call fails closed), and back-pressure (503 when full).

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  SqliteAuditStore,
  openAudit,
  queryAudit,
  verifyAudit,
  type AuditEntry,
  type AuditRecord,
} from '../src/policy/audit/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { callTool } from './support/http-mcp.js';
import { auditScenarios } from './policy-audit-scenarios.js';
import { auditEntry } from './support/audit-entry.js';

interface Sqlite {
  prepare(sql: string): { run(...params: unknown[]): unknown };
  close(): void;
}
const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => Sqlite;

// Both writers: in a thread of its own (the default) and on the event loop.
for (const writer of ['thread', 'inline'] as const)
  auditScenarios(`SQLite (${writer} writer)`, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-'));
    const path = join(dir, 'nested', 'audit.db');
    return {
      store: { kind: 'sqlite', path, writer },
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

const entry = (n: number, time = 1_000 + n): AuditEntry => auditEntry(n, { time });

describe('audit trail: the SQLite file', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the database and its WAL files are 0600, in a directory created 0700', async () => {
    const path = join(dir, 'a', 'b', 'audit.db');
    const store = new SqliteAuditStore(path);
    await store.append([entry(1)]);
    for (const file of [path, `${path}-wal`, `${path}-shm`])
      assert.equal(statSync(file).mode & 0o777, 0o600, file);
    assert.equal(statSync(join(dir, 'a', 'b')).mode & 0o777, 0o700);
    await store.close();
  });

  it('H3 two stores on one file (two processes would be) keep one unbroken chain', async () => {
    const path = join(dir, 'shared.db');
    const one = new SqliteAuditStore(path);
    const two = new SqliteAuditStore(path);
    for (let n = 0; n < 20; n++) await (n % 2 === 0 ? one : two).append([entry(n), entry(n + 100)]);
    assert.deepEqual(await verifyAudit(two), { ok: true, rows: 40 });
    await one.close();
    await two.close();
  });

  it('retention by rows and by age keeps the kept chain verifiable; a row deleted at the start is found', async () => {
    let now = 10 * 86_400_000;
    const path = join(dir, 'retained.db');
    const audit = await openAudit({
      store: { kind: 'sqlite', path },
      retention: { maxRows: 3, maxAgeDays: 1 },
      logger: silentLogger,
      now: () => now,
    });
    await audit.store.append(Array.from({ length: 4 }, (_, n) => entry(n, now - 2 * 86_400_000)));
    await audit.store.append(Array.from({ length: 5 }, (_, n) => entry(n + 10, now)));
    assert.equal(await audit.prune(), 6); // 4 too old, then all but the newest 3
    assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: 3 });
    assert.deepEqual(
      (await queryAudit(audit.store, {})).map((record) => record.id),
      [7, 8, 9],
    );
    now += 2 * 86_400_000;
    await audit.store.append([entry(20, now)]);
    assert.equal(await audit.prune(), 3);
    assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: 1 });
    await audit.close();
    const db = new Database(path);
    db.prepare('DELETE FROM audit WHERE id = 10').run();
    db.close();
    const store = new SqliteAuditStore(path, { mustExist: true });
    assert.deepEqual(await verifyAudit(store), {
      ok: false,
      rows: 0,
      firstBadId: 10,
      problem: 'row 10 is missing (deleted): the chain head says the last row is 10',
    });
    await store.close();
  });
});

describe('audit trail over HTTP: back-pressure', () => {
  it('a call beyond the calls waiting for their records is answered 503 with Retry-After', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-'));
    let release: (() => void) | undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let appending: (() => void) | undefined;
    const appendStarted = new Promise<void>((resolve) => (appending = resolve));
    /** SQLite whose first batch waits for the test: the disk is slow. */
    class HeldStore extends SqliteAuditStore {
      override async append(entries: readonly AuditEntry[]): Promise<readonly AuditRecord[]> {
        appending?.();
        await held;
        return super.append(entries);
      }
    }
    const audit = await openAudit({
      store: new HeldStore(join(dir, 'a.db')),
      maxPending: 1,
      logger: silentLogger,
    });
    const server = new McpServer({ name: 'busy', version: '1.0.0' }, { logger: silentLogger });
    server.use(audit.middleware);
    server.tool({ name: 'echo', description: 'Echoes', handler: () => 'ok' });
    const http = await listenHttp(server, { port: 0 });
    try {
      const first = callTool(http.url, 'echo');
      await appendStarted;
      const refused = await callTool(http.url, 'echo');
      assert.equal(refused.status, 503);
      assert.equal(refused.headers.get('retry-after'), '1');
      assert.deepEqual(refused.body?.error, {
        code: -32603,
        message: 'Server busy: too many calls are waiting to be recorded; retry shortly',
      });
      release?.();
      assert.equal((await first).status, 200);
      assert.deepEqual(
        (await queryAudit(audit.store, {})).map((record) => record.outcome),
        ['result'],
      );
    } finally {
      await http.close();
      await audit.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
