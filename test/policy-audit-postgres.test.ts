// The audit trail's scenarios (H1, H2, H3, E3) against a real PostgreSQL this test starts (test/support/postgres.ts),
// plus what only a shared database shows: two trails (two processes' worth of writers) extend one chain in order,
// and retention keeps the rest verifiable. Skipped, with the reason, only when the PostgreSQL binaries are missing.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import {
  PostgresAuditStore,
  openAudit,
  queryAudit,
  verifyAudit,
  type AuditEntry,
} from '../src/policy/audit/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { capturingLogger } from './support/harness.js';
import { callTool } from './support/http-mcp.js';
import { auditScenarios } from './policy-audit-scenarios.js';
import { auditEntry } from './support/audit-entry.js';
import { postgresMissing, startPostgres, type RunningPostgres } from './support/postgres.js';

interface PgClient {
  connect(): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<unknown>;
  end(): Promise<void>;
}
const { Client } = createRequire(import.meta.url)('pg') as {
  Client: new (options: { connectionString: string }) => PgClient;
};

const missing = postgresMissing();
if (missing !== undefined) {
  describe('audit trail on PostgreSQL', () => {
    it(`skipped: ${missing}`, { skip: missing }, () => undefined);
  });
} else {
  let postgres: RunningPostgres | undefined;
  let tables = 0;
  const server = startPostgres().then((running) => (postgres = running));
  server.catch(() => undefined); // reported by every test that awaits it, not as an unhandled rejection
  after(async () => {
    await postgres?.stop();
  });

  auditScenarios('PostgreSQL', async () => {
    const { url } = await server;
    const table = `audit_${++tables}`;
    return {
      store: { kind: 'postgres', url, table },
      async tamper(sql, params = []) {
        const client = new Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(sql.replace(/\baudit\b/g, table), params);
        } finally {
          await client.end();
        }
      },
      async cleanup() {},
    };
  });

  describe('audit trail on PostgreSQL: several writers, retention', () => {
    let url = '';
    before(async () => {
      url = (await server).url;
    });

    const entry = (n: number, time = 1_000 + n): AuditEntry =>
      auditEntry(n, { time, subject: `s${n % 3}`, authMethod: 'api-key', latencyMs: 0.125 });

    it(
      'H3 two stores on one table (as two instances would be) keep one unbroken chain',
      { timeout: 60_000 },
      async () => {
        const one = new PostgresAuditStore(url, { table: 'shared_chain' });
        const two = new PostgresAuditStore(url, { table: 'shared_chain' });
        try {
          await Promise.all([one.ready(), two.ready()]);
          const writes: Promise<unknown>[] = [];
          for (let n = 0; n < 40; n++) {
            writes.push((n % 2 === 0 ? one : two).append([entry(n), entry(n + 1000)]));
          }
          await Promise.all(writes);
          assert.deepEqual(await verifyAudit(one), { ok: true, rows: 80 });
          const ids = (await queryAudit(two, { limit: 10_000 })).map((record) => record.id);
          assert.deepEqual(
            ids,
            Array.from({ length: 80 }, (_, i) => i + 1),
          );
        } finally {
          await one.close();
          await two.close();
        }
      },
    );

    it('retention by rows and by age keeps the kept chain verifiable', { timeout: 60_000 }, async () => {
      let now = 10 * 86_400_000;
      const audit = await openAudit({
        store: { kind: 'postgres', url, table: 'retained' },
        retention: { maxRows: 5, maxAgeDays: 1 },
        logger: silentLogger,
        now: () => now,
      });
      try {
        await audit.store.append(Array.from({ length: 8 }, (_, n) => entry(n, now - 2 * 86_400_000)));
        await audit.store.append([entry(100, now), entry(101, now)]);
        assert.equal(await audit.prune(), 8); // the 8 old rows (rows 9, 10 are young and within 5)
        assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: 2 });
        now += 3 * 86_400_000;
        assert.equal(await audit.prune(), 2);
        assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: 0 });
        await audit.store.append([entry(200, now)]);
        assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: 1 });
        assert.equal((await queryAudit(audit.store, {}))[0]?.id, 11);
      } finally {
        await audit.close();
      }
    });

    it(
      'F4 the database going away mid-run fails calls closed: a neutral error, the details in the log',
      { timeout: 120_000 },
      async () => {
        const own = await startPostgres(); // its own server: this test stops it
        const logger = capturingLogger();
        const audit = await openAudit({ store: { kind: 'postgres', url: own.url }, logger });
        const mcp = new McpServer({ name: 'outage', version: '1.0.0' }, { logger: silentLogger });
        mcp.use(audit.middleware);
        mcp.tool({ name: 'echo', description: 'Echoes', handler: () => 'ok' });
        const http = await listenHttp(mcp, { port: 0 });
        try {
          assert.equal((await callTool(http.url, 'echo')).body?.result?.isError, undefined);
          await own.stop();
          const failed = await callTool(http.url, 'echo');
          assert.equal(failed.body?.result, undefined);
          assert.equal(failed.body?.error?.code, -32603);
          assert.match(
            failed.body?.error?.message ?? '',
            /^Internal error: the request could not be recorded \(reference [0-9a-f]{8}\)$/,
          );
          assert.match(
            logger.text(),
            /audit: the record of "tools\/call" could not be written to postgres postgres:\/\/postgres@127\.0\.0\.1:\d+\/postgres table toolwire_audit, so the request fails/,
          );
        } finally {
          await http.close();
          await audit.close();
          await own.stop();
        }
      },
    );

    it('a wrong URL fails at open with a message that hides the password', { timeout: 60_000 }, async () => {
      const port = new URL(url).port;
      await assert.rejects(
        openAudit({
          store: { kind: 'postgres', url: `postgres://postgres:s3cret@127.0.0.1:${port}/no_such_db` },
          logger: silentLogger,
        }),
        (error: Error) => {
          assert.match(
            error.message,
            /^the audit trail cannot open postgres postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:\d+\/no_such_db table toolwire_audit: /,
          );
          assert.ok(!error.message.includes('s3cret'));
          return true;
        },
      );
    });
  });
}
