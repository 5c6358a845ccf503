// queryAudit: records by time, subject, tool and outcome, checked before they reach SQL (always as parameters).

import { MAX_QUERY_ROWS } from './columns.js';
import { AUDIT_OUTCOMES, type AuditFilter, type AuditRecord, type AuditStore } from './types.js';

const OUTCOMES: ReadonlySet<string> = new Set(AUDIT_OUTCOMES);

/** Why a filter is wrong, or undefined. */
export function filterProblem(filter: AuditFilter): string | undefined {
  const { since, limit, afterId, outcome } = filter;
  if (since !== undefined && !(since instanceof Date && Number.isFinite(since.getTime())))
    return 'since must be a valid Date';
  if (limit !== undefined && !(Number.isSafeInteger(limit) && limit >= 1 && limit <= MAX_QUERY_ROWS)) {
    return `limit must be a whole number from 1 to ${MAX_QUERY_ROWS}, got ${String(limit)}`;
  }
  if (afterId !== undefined && !(Number.isSafeInteger(afterId) && afterId >= 0)) {
    return `afterId must be a whole number of at least 0, got ${String(afterId)}`;
  }
  if (outcome !== undefined && !OUTCOMES.has(outcome)) {
    return `outcome must be one of ${AUDIT_OUTCOMES.join(', ')}, got ${JSON.stringify(outcome)}`;
  }
  for (const key of ['subject', 'tool'] as const) {
    const value = filter[key];
    if (value !== undefined && typeof value !== 'string') return `${key} must be a string`;
  }
  return undefined;
}

export async function queryAudit(store: AuditStore, filter: AuditFilter = {}): Promise<AuditRecord[]> {
  const problem = filterProblem(filter);
  if (problem !== undefined) throw new TypeError(`audit query: ${problem}`);
  return store.query(filter);
}
