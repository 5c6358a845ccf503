// Reads `policy.audit` of toolwire.json into AuditOptions; every mistake names the key and what it accepts.
//
//   "audit": { "sqlite": "./audit.db" }                       a file, relative to the config file's directory
//   "audit": { "postgres": "postgres://user@host/db", "table": "toolwire_audit" }
//   "audit": { "postgres": { "env": "TOOLWIRE_AUDIT_URL" } }   the URL from the environment (keeps passwords out)
//   optional: "requests": "calls" | "all", "retention": { "maxAgeDays": 90, "maxRows": 1000000 },
//             "synchronous": "normal" | "full", "writer": "thread" | "inline" (SQLite only)

import { isAbsolute, resolve } from 'node:path';
import type { AuditOptions } from './open.js';

/** A PostgreSQL table name, optionally schema-qualified (the store checks the same). */
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]{0,62}(?:\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/;

/** The JSON Schema of `policy.audit`, for toolwire.schema.json (readAuditConfig checks the same, with messages). */
export const AUDIT_CONFIG_SCHEMA = {
  type: 'object',
  description: 'The audit trail: one chained, redacted record per tools/call outcome',
  properties: {
    sqlite: { type: 'string', minLength: 1, description: 'SQLite file, relative to this config file' },
    postgres: {
      description: 'A postgres:// URL, or { "env": "NAME" } to read it from the environment',
      oneOf: [
        { type: 'string', pattern: '^postgres(?:ql)?://.' },
        {
          type: 'object',
          properties: { env: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
          required: ['env'],
          additionalProperties: false,
        },
      ],
    },
    table: {
      type: 'string',
      pattern: IDENTIFIER.source,
      default: 'toolwire_audit',
      description: 'PostgreSQL only',
    },
    requests: { enum: ['calls', 'all'], default: 'calls' },
    retention: {
      type: 'object',
      properties: {
        maxAgeDays: { type: 'number', exclusiveMinimum: 0 },
        maxRows: { type: 'integer', minimum: 1 },
      },
      additionalProperties: false,
    },
    synchronous: { enum: ['normal', 'full'], default: 'normal', description: 'SQLite only' },
    writer: {
      enum: ['thread', 'inline'],
      default: 'thread',
      description: 'SQLite only: chain, insert and commit in a thread of their own, or on the event loop',
    },
  },
  oneOf: [{ required: ['sqlite'] }, { required: ['postgres'] }],
  additionalProperties: false,
} as const;

/** A mistake in the audit section of a config file. */
export class AuditConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuditConfigError';
  }
}

const KEYS = ['sqlite', 'postgres', 'table', 'requests', 'retention', 'synchronous', 'writer'] as const;
const RETENTION_KEYS = ['maxAgeDays', 'maxRows'] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

function checkKeys(value: Record<string, unknown>, known: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new AuditConfigError(`${where} has an unknown key "${key}"; allowed keys: ${known.join(', ')}`);
    }
  }
}

function postgresUrl(
  value: unknown,
  where: string,
  env: Readonly<Record<string, string | undefined>>,
): string {
  let url = value;
  if (isObject(value)) {
    checkKeys(value, ['env'], `${where}.postgres`);
    const name = value.env;
    if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
      throw new AuditConfigError(
        `${where}.postgres.env must name an environment variable, got ${show(name)}`,
      );
    }
    url = env[name];
    if (url === undefined || url === '') {
      throw new AuditConfigError(`${where}.postgres.env: the environment variable ${name} is not set`);
    }
  }
  if (typeof url !== 'string' || !/^postgres(?:ql)?:\/\/./.test(url)) {
    // Never quote the value: it may hold a password.
    throw new AuditConfigError(
      `${where}.postgres must be a postgres:// or postgresql:// URL (or { "env": "NAME" })`,
    );
  }
  return url;
}

function retentionOf(value: unknown, where: string): { maxAgeDays?: number; maxRows?: number } {
  if (!isObject(value))
    throw new AuditConfigError(`${where}.retention must be an object, got ${show(value)}`);
  checkKeys(value, RETENTION_KEYS, `${where}.retention`);
  const { maxAgeDays, maxRows } = value;
  if (
    maxAgeDays !== undefined &&
    !(typeof maxAgeDays === 'number' && maxAgeDays > 0 && Number.isFinite(maxAgeDays))
  ) {
    throw new AuditConfigError(
      `${where}.retention.maxAgeDays must be a positive number of days, got ${show(maxAgeDays)}`,
    );
  }
  if (
    maxRows !== undefined &&
    !(typeof maxRows === 'number' && Number.isSafeInteger(maxRows) && maxRows >= 1)
  ) {
    throw new AuditConfigError(
      `${where}.retention.maxRows must be a whole number of at least 1, got ${show(maxRows)}`,
    );
  }
  return {
    ...(maxAgeDays !== undefined && { maxAgeDays: maxAgeDays as number }),
    ...(maxRows !== undefined && { maxRows: maxRows as number }),
  };
}

/**
 * `raw`: the value of `policy.audit`; `baseDir`: the config file's directory (a relative SQLite path is resolved
 * against it). The result has no logger: the caller adds its own.
 */
export function readAuditConfig(
  raw: unknown,
  baseDir: string,
  where = 'policy.audit',
  env: Readonly<Record<string, string | undefined>> = process.env,
): AuditOptions {
  if (!isObject(raw)) throw new AuditConfigError(`${where} must be an object, got ${show(raw)}`);
  checkKeys(raw, KEYS, where);
  const hasSqlite = raw.sqlite !== undefined;
  const hasPostgres = raw.postgres !== undefined;
  if (hasSqlite === hasPostgres) {
    throw new AuditConfigError(
      `${where} needs exactly one of "sqlite" (a file path) or "postgres" (a postgres:// URL)`,
    );
  }
  let store: AuditOptions['store'];
  if (hasSqlite) {
    const path = raw.sqlite;
    if (typeof path !== 'string' || path.trim() === '' || path.includes('\0')) {
      throw new AuditConfigError(`${where}.sqlite must be a file path, got ${show(path)}`);
    }
    if (raw.table !== undefined) throw new AuditConfigError(`${where}.table applies to "postgres" only`);
    const synchronous = raw.synchronous;
    if (synchronous !== undefined && synchronous !== 'normal' && synchronous !== 'full') {
      throw new AuditConfigError(`${where}.synchronous must be "normal" or "full", got ${show(synchronous)}`);
    }
    const writer = raw.writer;
    if (writer !== undefined && writer !== 'thread' && writer !== 'inline') {
      throw new AuditConfigError(`${where}.writer must be "thread" or "inline", got ${show(writer)}`);
    }
    store = {
      kind: 'sqlite',
      path: isAbsolute(path) ? path : resolve(baseDir, path),
      ...(synchronous !== undefined && { synchronous }),
      ...(writer !== undefined && { writer }),
    };
  } else {
    for (const key of ['synchronous', 'writer'] as const) {
      if (raw[key] !== undefined) throw new AuditConfigError(`${where}.${key} applies to "sqlite" only`);
    }
    const table = raw.table;
    if (table !== undefined && (typeof table !== 'string' || !IDENTIFIER.test(table))) {
      throw new AuditConfigError(
        `${where}.table must be an SQL identifier (optionally schema.table), got ${show(table)}`,
      );
    }
    store = {
      kind: 'postgres',
      url: postgresUrl(raw.postgres, where, env),
      ...(table !== undefined && { table }),
    };
  }
  const requests = raw.requests;
  if (requests !== undefined && requests !== 'calls' && requests !== 'all') {
    throw new AuditConfigError(`${where}.requests must be "calls" or "all", got ${show(requests)}`);
  }
  return {
    store,
    ...(requests !== undefined && { requests }),
    ...(raw.retention !== undefined && { retention: retentionOf(raw.retention, where) }),
  };
}
