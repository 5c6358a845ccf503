// The table both stores share: column names and types, a record as row values and back, and the query's WHERE.

import {
  AUDIT_OUTCOMES,
  type AuditEntry,
  type AuditFilter,
  type AuditOutcome,
  type AuditRecord,
} from './types.js';

/** Record fields and their columns, in table order. */
export const COLUMNS = [
  ['id', 'id'],
  ['time', 'time'],
  ['requestId', 'request_id'],
  ['traceId', 'trace_id'],
  ['method', 'method'],
  ['era', 'era'],
  ['subject', 'subject'],
  ['authMethod', 'auth_method'],
  ['clientId', 'client_id'],
  ['clientName', 'client_name'],
  ['clientVersion', 'client_version'],
  ['tool', 'tool'],
  ['argsDigest', 'args_digest'],
  ['arguments', 'arguments'],
  ['decision', 'decision'],
  ['rule', 'rule'],
  ['approvalId', 'approval_id'],
  ['outcome', 'outcome'],
  ['errorCode', 'error_code'],
  ['detail', 'detail'],
  ['latencyMs', 'latency_ms'],
  ['resultBytes', 'result_bytes'],
  ['prevHash', 'prev_hash'],
  ['hash', 'hash'],
] as const satisfies readonly (readonly [keyof AuditRecord, string])[];

const INTEGER_FIELDS = new Set<string>(['id', 'time', 'errorCode', 'resultBytes']);
const REAL_FIELDS = new Set<string>(['latencyMs']);
const NULLABLE_FIELDS = new Set<string>([
  'traceId',
  'clientId',
  'clientName',
  'clientVersion',
  'tool',
  'argsDigest',
  'arguments',
  'rule',
  'approvalId',
  'errorCode',
  'detail',
  'resultBytes',
]);
/** The fields the store adds when it chains an entry. */
const CHAIN_FIELDS = new Set<string>(['id', 'prevHash', 'hash']);
const OUTCOMES = new Set<string>(AUDIT_OUTCOMES);

/** CREATE TABLE's column list; `bigint` is the 64-bit integer type's name in the dialect. */
export function columnDefinitions(bigint: string, real: string): string {
  return COLUMNS.map(([field, column]) => {
    if (field === 'id') return `id ${bigint} PRIMARY KEY`;
    const type = INTEGER_FIELDS.has(field) ? bigint : REAL_FIELDS.has(field) ? real : 'TEXT';
    const nullable = NULLABLE_FIELDS.has(field);
    return `${column} ${type}${nullable ? '' : ' NOT NULL'}`;
  }).join(', ');
}

export const COLUMN_LIST = COLUMNS.map(([, column]) => column).join(', ');

/** A record's values in column order. */
export const rowValues = (record: AuditRecord): unknown[] => COLUMNS.map(([field]) => record[field]);

/** A row as the driver returns it (PostgreSQL's BIGINT arrives as a string) back into a record. */
export function fromRow(row: Record<string, unknown>): AuditRecord {
  const record: Record<string, unknown> = {};
  for (const [field, column] of COLUMNS) {
    const value = row[column];
    record[field] =
      value === null || value === undefined
        ? null
        : INTEGER_FIELDS.has(field) || REAL_FIELDS.has(field)
          ? Number(value)
          : value;
  }
  return record as unknown as AuditRecord & { outcome: AuditOutcome }; // every column is read above
}

/**
 * Whether `value` is an entry the table can hold as it is: every column's field of its type (or null where the
 * column allows it), a known decision and outcome. What a record queue holds is checked so before it is stored.
 */
export function isStorableEntry(value: unknown): value is AuditEntry {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  for (const [field] of COLUMNS) {
    if (CHAIN_FIELDS.has(field)) continue;
    const member = entry[field];
    if (member === null && NULLABLE_FIELDS.has(field)) continue;
    const fits = INTEGER_FIELDS.has(field)
      ? Number.isSafeInteger(member)
      : REAL_FIELDS.has(field)
        ? typeof member === 'number' && Number.isFinite(member)
        : typeof member === 'string';
    if (!fits) return false;
  }
  return (
    (entry.decision === 'allowed' || entry.decision === 'denied') && OUTCOMES.has(entry.outcome as string)
  );
}

/** The most rows one query returns. */
export const MAX_QUERY_ROWS = 10_000;

/** A filter as SQL: WHERE clause, ORDER and LIMIT, with `placeholder(n)` for the n-th (1-based) parameter. */
export function filterSql(
  filter: AuditFilter,
  placeholder: (index: number) => string,
): { where: string; order: string; limit: number; params: unknown[] } {
  const clauses: string[] = [];
  const params: unknown[] = [];
  const add = (sql: string, value: unknown): void => {
    params.push(value);
    clauses.push(`${sql} ${placeholder(params.length)}`);
  };
  if (filter.afterId !== undefined) add('id >', filter.afterId);
  if (filter.since !== undefined) add('time >=', filter.since.getTime());
  if (filter.subject !== undefined) add('subject =', filter.subject);
  if (filter.tool !== undefined) add('tool =', filter.tool);
  if (filter.outcome !== undefined) add('outcome =', filter.outcome);
  const asked = filter.limit ?? 100;
  // Written into the SQL text (LIMIT takes no parameter in every dialect): only ever a whole number in range.
  const limit = Number.isFinite(asked) ? Math.min(Math.max(Math.trunc(asked), 1), MAX_QUERY_ROWS) : 100;
  return {
    where: clauses.length === 0 ? '' : `WHERE ${clauses.join(' AND ')}`,
    order: filter.newest === true ? 'DESC' : 'ASC',
    limit,
    params,
  };
}
