// Every step of an approval in the audit trail: the request, the approver's decision, the redemption, a refused
// retry and an expiry each become a record of their own, chained with the calls, bound by the same argument digest.

import type { ApprovalEvent } from './approvals/index.js';
import type { AuditEntry } from './audit/index.js';
import { storableText } from './audit/entry.js';
import { redactText } from './redact/index.js';

/** The audit record of one approval event. Arguments are not repeated: the call's own record holds them, redacted. */
export function approvalEntry(event: ApprovalEvent): AuditEntry {
  const { approval } = event;
  const decided = event.type === 'approved' || event.type === 'redeemed';
  const said = [
    approval.approver === undefined ? undefined : `approver ${approval.approver}`,
    approval.reason === undefined ? undefined : `reason ${approval.reason}`,
    event.detail,
  ].filter((part): part is string => part !== undefined);
  return {
    time: event.at,
    requestId: storableText(JSON.stringify(`approval:${approval.id}`)),
    traceId: null,
    method: `approvals/${event.type}`,
    era: 'approval',
    subject: storableText(approval.caller.subject),
    authMethod: storableText(approval.caller.via),
    clientId: null,
    clientName: null,
    clientVersion: null,
    tool: storableText(approval.tool),
    argsDigest: approval.argsDigest,
    arguments: null,
    decision: decided || event.type === 'requested' ? 'allowed' : 'denied',
    rule: storableText(JSON.stringify({ rule: approval.rule, policyVersion: approval.policyVersion })),
    approvalId: approval.id,
    outcome: `approval_${event.type}`,
    errorCode: null,
    detail: said.length === 0 ? null : storableText(redactText(said.join('; ')).text),
    latencyMs: 0,
    resultBytes: null,
  };
}
