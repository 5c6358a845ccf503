// The audit trail (issue 16, threats H1–H3, E3): one chained, redacted record per tools/call outcome, in SQLite or
// PostgreSQL, written before the answer leaves; verify and query for the CLI.

export { openAudit, type Audit, type AuditOptions } from './open.js';
export { verifyAudit, type VerifyResult } from './verify.js';
export { queryAudit, filterProblem } from './query.js';
export { readAuditConfig, AuditConfigError, AUDIT_CONFIG_SCHEMA } from './config.js';
export { GENESIS_HASH, canonicalJson, chainEntries, recordHash } from './chain.js';
export { SqliteAuditStore, type SqliteStoreOptions } from './sqlite-store.js';
export { SqliteThreadStore, type ThreadStoreOptions } from './sqlite-thread.js';
export {
  PostgresAuditStore,
  DEFAULT_TABLE,
  describeUrl,
  type PostgresStoreOptions,
} from './postgres-store.js';
export {
  AUDIT_OUTCOMES,
  type AuditEntry,
  type AuditFilter,
  type AuditOutcome,
  type AuditRecord,
  type AuditStore,
  type ChainHead,
  type PruneRule,
} from './types.js';
