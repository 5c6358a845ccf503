// What approvals report as they happen: each request, decision, redemption, refused redemption and expiry.

import type { Approval } from './store.js';

export type ApprovalEventType = 'requested' | 'approved' | 'denied' | 'redeemed' | 'refused' | 'expired';

export interface ApprovalEvent {
  readonly type: ApprovalEventType;
  readonly approval: Approval;
  /** ms since the epoch. */
  readonly at: number;
  /** refused: why the retry was refused (another call, already used, expired, denied, policy changed). */
  readonly detail?: string;
}
