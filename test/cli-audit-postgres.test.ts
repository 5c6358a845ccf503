// `toolwire audit` and `audit verify` against a PostgreSQL trail (a server this test starts): records listed from
// --postgres with --table, verify passing, then naming a deleted row; a table that is not there is a clear error.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import { PostgresAuditStore, type AuditEntry } from '../src/policy/audit/index.js';
import { runCli } from './fixtures/client/harness.js';
import { auditEntry } from './support/audit-entry.js';
import { postgresMissing, startPostgres, type RunningPostgres } from './support/postgres.js';

const TEST_MS = 120_000;
const missing = postgresMissing();

const entry = (n: number): AuditEntry =>
  auditEntry(n, {
    time: Date.parse('2026-11-27T08:00:00.000Z') + n,
    era: 'legacy',
    authMethod: 'api-key',
    latencyMs: 2,
    resultBytes: 10,
  });

describe('toolwire audit on PostgreSQL', { skip: missing ?? false }, () => {
  let postgres: RunningPostgres | undefined;
  let url = '';
  before(async () => {
    postgres = await startPostgres();
    url = postgres.url;
    const store = new PostgresAuditStore(url, { table: 'cli_trail' });
    await store.append([entry(1), entry(2), entry(3)]);
    await store.close();
  });
  after(async () => {
    await postgres?.stop();
  });

  it('H3 lists and verifies a PostgreSQL trail, then names a deleted row', { timeout: TEST_MS }, async () => {
    const listed = await runCli(['audit', '--postgres', url, '--table', 'cli_trail', '--limit', '1']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(
      listed.stdout,
      '3  2026-11-27T08:00:00.003Z  result  alice via api-key  tools/call echo  2 ms  10 B  args {}\n',
    );
    const description = `postgres ${url} table cli_trail`;
    assert.deepEqual(await runCli(['audit', 'verify', '--postgres', url, '--table', 'cli_trail']), {
      code: 0,
      stdout: `audit trail intact: 3 rows verified (${description})\n`,
      stderr: '',
    });
    const { Client } = createRequire(import.meta.url)('pg') as {
      Client: new (options: { connectionString: string }) => {
        connect(): Promise<void>;
        query(sql: string): Promise<unknown>;
        end(): Promise<void>;
      };
    };
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query('DELETE FROM cli_trail WHERE id = 2');
    await client.end();
    assert.deepEqual(await runCli(['audit', 'verify', '--postgres', url, '--table', 'cli_trail']), {
      code: 1,
      stdout: `audit trail broken at row 2: row 2 is missing (deleted): the chain goes on at row 3 (${description})\n`,
      stderr: '',
    });
  });

  it('a table that holds no trail is an error that names it (exit 3)', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['audit', '--postgres', url, '--table', 'nothing_here']), {
      code: 3,
      stdout: '',
      stderr: `toolwire: no audit trail in postgres ${url} table nothing_here\n`,
    });
  });
});
