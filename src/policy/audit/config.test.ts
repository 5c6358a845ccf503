// readAuditConfig: the `policy.audit` section of toolwire.json, and the exact message for each mistake.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AuditConfigError, readAuditConfig } from './config.js';

const refused = (raw: unknown, message: string, env: Record<string, string> = {}): void =>
  assert.throws(
    () => readAuditConfig(raw, '/etc/toolwire', 'policy.audit', env),
    (error: Error) => error instanceof AuditConfigError && error.message === message,
  );

describe('audit config', () => {
  it('SQLite: a path relative to the config file, requests, retention, synchronous and the writer', () => {
    assert.deepEqual(
      readAuditConfig(
        {
          sqlite: './audit/trail.db',
          requests: 'all',
          retention: { maxAgeDays: 30, maxRows: 1000 },
          synchronous: 'full',
          writer: 'inline',
        },
        '/etc/toolwire',
      ),
      {
        store: {
          kind: 'sqlite',
          path: '/etc/toolwire/audit/trail.db',
          synchronous: 'full',
          writer: 'inline',
        },
        requests: 'all',
        retention: { maxAgeDays: 30, maxRows: 1000 },
      },
    );
    assert.deepEqual(readAuditConfig({ sqlite: '/var/lib/a.db' }, '/x'), {
      store: { kind: 'sqlite', path: '/var/lib/a.db' },
    });
  });

  it('PostgreSQL: a URL, or one taken from the environment, and a table', () => {
    assert.deepEqual(readAuditConfig({ postgres: 'postgres://u@db/app', table: 'ops.audit' }, '/x'), {
      store: { kind: 'postgres', url: 'postgres://u@db/app', table: 'ops.audit' },
    });
    assert.deepEqual(
      readAuditConfig({ postgres: { env: 'AUDIT_URL' } }, '/x', 'policy.audit', {
        AUDIT_URL: 'postgresql://u:p@db/app',
      }),
      { store: { kind: 'postgres', url: 'postgresql://u:p@db/app' } },
    );
  });

  it('every mistake names its key', () => {
    refused('audit.db', 'policy.audit must be an object, got "audit.db"');
    refused({}, 'policy.audit needs exactly one of "sqlite" (a file path) or "postgres" (a postgres:// URL)');
    refused(
      { sqlite: 'a.db', postgres: 'postgres://x/y' },
      'policy.audit needs exactly one of "sqlite" (a file path) or "postgres" (a postgres:// URL)',
    );
    refused({ sqlite: '' }, 'policy.audit.sqlite must be a file path, got ""');
    refused({ sqlite: 3 }, 'policy.audit.sqlite must be a file path, got 3');
    refused({ sqlite: 'a.db', table: 't' }, 'policy.audit.table applies to "postgres" only');
    refused(
      { sqlite: 'a.db', synchronous: 'off' },
      'policy.audit.synchronous must be "normal" or "full", got "off"',
    );
    refused(
      { sqlite: 'a.db', writer: 'worker' },
      'policy.audit.writer must be "thread" or "inline", got "worker"',
    );
    refused({ postgres: 'postgres://x/y', writer: 'thread' }, 'policy.audit.writer applies to "sqlite" only');
    refused(
      { postgres: 'mysql://root:pw@db/x' },
      'policy.audit.postgres must be a postgres:// or postgresql:// URL (or { "env": "NAME" })',
    );
    refused(
      { postgres: { env: 'NOPE' } },
      'policy.audit.postgres.env: the environment variable NOPE is not set',
    );
    refused(
      { postgres: { env: 'A', other: 1 } },
      'policy.audit.postgres has an unknown key "other"; allowed keys: env',
    );
    refused(
      { postgres: 'postgres://x/y', table: 'a;drop' },
      'policy.audit.table must be an SQL identifier (optionally schema.table), got "a;drop"',
    );
    refused(
      { sqlite: 'a.db', requests: 'some' },
      'policy.audit.requests must be "calls" or "all", got "some"',
    );
    refused({ sqlite: 'a.db', retention: 5 }, 'policy.audit.retention must be an object, got 5');
    refused(
      { sqlite: 'a.db', retention: { maxAgeDays: 0 } },
      'policy.audit.retention.maxAgeDays must be a positive number of days, got 0',
    );
    refused(
      { sqlite: 'a.db', retention: { maxRows: 1.5 } },
      'policy.audit.retention.maxRows must be a whole number of at least 1, got 1.5',
    );
    refused(
      { sqlite: 'a.db', retention: { days: 3 } },
      'policy.audit.retention has an unknown key "days"; allowed keys: maxAgeDays, maxRows',
    );
    refused(
      { sqlite: 'a.db', path: 'b' },
      'policy.audit has an unknown key "path"; allowed keys: sqlite, postgres, table, requests, retention, synchronous, writer',
    );
  });
});

describe('audit config schema', () => {
  it('AUDIT_CONFIG_SCHEMA accepts what readAuditConfig accepts and refuses what it refuses', async () => {
    const { AUDIT_CONFIG_SCHEMA } = await import('./config.js');
    const { Ajv2020 } = await import('ajv/dist/2020.js');
    const validate = new Ajv2020({ strict: false }).compile(AUDIT_CONFIG_SCHEMA);
    const good = [
      { sqlite: './a.db', requests: 'all', retention: { maxAgeDays: 1.5, maxRows: 10 }, synchronous: 'full' },
      { postgres: 'postgres://u@h/d', table: 'ops.audit' },
      { postgres: { env: 'AUDIT_URL' } },
    ];
    const bad = [
      {},
      { sqlite: 'a.db', postgres: 'postgres://x/y' },
      { sqlite: '' },
      { postgres: 'mysql://x' },
      { postgres: 'postgres://x/y', table: 'a;drop' },
      { sqlite: 'a.db', requests: 'some' },
      { sqlite: 'a.db', retention: { maxRows: 0 } },
      { sqlite: 'a.db', path: 'b' },
    ];
    for (const value of good) {
      assert.equal(validate(value), true, JSON.stringify(value));
      assert.doesNotThrow(() =>
        readAuditConfig(value, '/x', 'policy.audit', { AUDIT_URL: 'postgres://u@h/d' }),
      );
    }
    for (const value of bad) {
      assert.equal(validate(value), false, JSON.stringify(value));
      assert.throws(() => readAuditConfig(value, '/x', 'policy.audit', {}), AuditConfigError);
    }
  });
});
