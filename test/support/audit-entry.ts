// One audit entry for the audit tests (stores, CLI): a finished tools/call by alice, numbered `n` (its request id,
// and its time unless `fields` says otherwise); `fields` override any member.

import type { AuditEntry } from '../../src/policy/audit/index.js';

export const auditEntry = (n: number, fields: Partial<AuditEntry> = {}): AuditEntry => ({
  time: 1_000 + n,
  requestId: String(n),
  traceId: null,
  method: 'tools/call',
  era: 'modern',
  subject: 'alice',
  authMethod: 'local',
  clientId: null,
  clientName: null,
  clientVersion: null,
  tool: 'echo',
  argsDigest: 'digest',
  arguments: '{}',
  decision: 'allowed',
  rule: null,
  approvalId: null,
  outcome: 'result',
  errorCode: null,
  detail: null,
  latencyMs: 0.5,
  resultBytes: 2,
  ...fields,
});
