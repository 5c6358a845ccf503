// A human in the loop: which tool calls need an approver's decision, the flow that waits for it on both eras, the
// store that keeps approvals single-use, and the admin side (JSON API, approval page) approvers use.

export { approvals, type Approvals } from './approvals.js';
export type { ApprovalsOptions } from './options.js';
export type { ApprovalRule } from './rules.js';
export type { ApprovalDecision, ApprovalRuleRef } from './decide.js';
export type { ApprovalEvent, ApprovalEventType } from './events.js';
export { ApprovalDecisionError, ApprovalRuleError } from './errors.js';
export { MemoryApprovalStore } from './memory-store.js';
export { approvalsAdmin, type ApprovalsAdminOptions } from './admin.js';
export { SIGNATURE_HEADER, TIMESTAMP_HEADER, signWebhook, type ApprovalWebhookOptions } from './webhook.js';
export type {
  AddRefusal,
  Approval,
  ApprovalBinding,
  ApprovalStatus,
  ApprovalStore,
  ApprovalVerdict,
  StoreLimits,
} from './store.js';
