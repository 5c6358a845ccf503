// The approvals' state machine over a store: asking for an approval, an approver's decision (with the G1 checks),
// redemption, and the events each step reports. The middleware (flow.ts) and the admin API both go through here.

import { randomBytes } from 'node:crypto';
import type { Caller } from '../../protocol/index.js';
import type { ToolTarget } from '../../server/index.js';
import { argumentsDigest, canonicalJson, principalDigest } from '../../server/index.js';
import { decideApproval, type ApprovalDecision } from './decide.js';
import { ApprovalDecisionError } from './errors.js';
import type { ApprovalEvent, ApprovalEventType } from './events.js';
import type { ResolvedApprovalsOptions } from './options.js';
import type { Approval, ApprovalBinding, ApprovalStatus } from './store.js';

/** The shape of an approval id: 144 random bits in base64url. */
export const APPROVAL_ID = /^[A-Za-z0-9_-]{24}$/;

/**
 * 144 random bits as 24 base64url characters that never start with "-" or "_": an id is typed after
 * `toolwire approvals approve`, where a leading dash reads as an option (regression: 1 in 32 ids failed there).
 */
export function newApprovalId(): string {
  for (;;) {
    const id = randomBytes(18).toString('base64url');
    if (/^[A-Za-z0-9]/.test(id)) return id;
  }
}
/** How much of the arguments an approver is shown (canonical JSON). */
export const MAX_ARGUMENTS_PREVIEW = 8192;
const MAX_REASON_LENGTH = 500;
const MAX_LIST = 1000;

function preview(args: unknown): string {
  const text = canonicalJson(args);
  return text.length <= MAX_ARGUMENTS_PREVIEW ? text : `${text.slice(0, MAX_ARGUMENTS_PREVIEW)}… (cut)`;
}

/** A reason as an approver gives it: trimmed, bounded, one line of printable text. */
export function checkReason(reason: unknown): string | undefined {
  if (reason === undefined || reason === null || reason === '') return undefined;
  if (typeof reason !== 'string') throw new ApprovalDecisionError(400, 'reason must be a string');
  if (reason.length > MAX_REASON_LENGTH) {
    throw new ApprovalDecisionError(400, `reason is longer than ${MAX_REASON_LENGTH} characters`);
  }
  if (/[\p{Cc}\p{Cf}]/u.test(reason))
    throw new ApprovalDecisionError(400, 'reason may not contain control or format characters');
  return reason.trim() === '' ? undefined : reason.trim();
}

/** How often a waiting legacy call looks at the store (a decision made on another instance shows up this late). */
const POLL_MS = 1000;

export class ApprovalEngine {
  readonly options: ResolvedApprovalsOptions;
  /** Legacy calls waiting for a decision, by approval id (as many as calls in flight). */
  readonly #waiting = new Map<string, Set<() => void>>();

  constructor(options: ResolvedApprovalsOptions) {
    this.options = options;
  }

  decide(target: ToolTarget, args: unknown): ApprovalDecision {
    return decideApproval(this.options.rules, this.options.trust, target, args);
  }

  urlFor(id: string): string {
    return `${this.options.approvalUrl}/${id}`;
  }

  binding(caller: Caller, tool: string, args: unknown): ApprovalBinding {
    return {
      principal: principalDigest(caller),
      tool,
      argsDigest: argumentsDigest(args),
      policyVersion: this.options.policyVersion,
    };
  }

  emit(type: ApprovalEventType, approval: Approval, detail?: string): void {
    const onEvent = this.options.onEvent;
    if (onEvent === undefined) return;
    const event: ApprovalEvent = {
      type,
      approval,
      at: this.options.now(),
      ...(detail !== undefined && { detail }),
    };
    try {
      onEvent(event);
    } catch (error) {
      this.options.logger?.error(`approvals: onEvent failed on a "${type}" event`, error);
    }
  }

  /** Reports approvals whose time ran out since the last look. */
  async sweep(): Promise<void> {
    for (const approval of await this.options.store.sweep(this.options.now())) this.emit('expired', approval);
  }

  /** A new pending approval for this call; a string says why none could be made. */
  async request(
    caller: Caller,
    binding: ApprovalBinding,
    args: unknown,
    rule: number | 'default',
  ): Promise<Approval | string> {
    const now = this.options.now();
    const approval: Approval = {
      id: newApprovalId(),
      caller: { via: caller.via, subject: caller.subject },
      principal: binding.principal,
      tool: binding.tool,
      argsDigest: binding.argsDigest,
      argumentsPreview: preview(args),
      policyVersion: binding.policyVersion,
      rule,
      created: now,
      expiresAt: now + this.options.ttlMs,
      status: 'pending',
    };
    const refusal = await this.options.store.add(approval, this.options.limits, now);
    await this.sweep();
    if (refusal === 'caller-limit') {
      return `this caller already has ${this.options.limits.perCaller} approvals waiting; wait for a decision or for them to expire`;
    }
    if (refusal === 'full') return 'too many approvals are waiting; try again later';
    this.emit('requested', approval);
    this.options.webhook?.announce(approval, this.urlFor(approval.id), now);
    return approval;
  }

  /** Whether `approver` may decide: the decide scope, and not the caller unless self-approval is allowed (G1). */
  #checkApprover(approver: Caller): void {
    if (!approver.scopes.includes(this.options.decideScope)) {
      throw new ApprovalDecisionError(
        403,
        `deciding approvals needs the scope "${this.options.decideScope}"`,
      );
    }
  }

  async list(
    approver: Caller,
    filter: { status?: ApprovalStatus; limit?: number } = {},
  ): Promise<Approval[]> {
    this.#checkApprover(approver);
    await this.sweep();
    const limit = Math.min(Math.max(1, filter.limit ?? 100), MAX_LIST);
    return this.options.store.list(
      { ...(filter.status !== undefined && { status: filter.status }), limit },
      this.options.now(),
    );
  }

  async get(approver: Caller, id: string): Promise<Approval> {
    this.#checkApprover(approver);
    const approval = APPROVAL_ID.test(id) ? await this.options.store.get(id, this.options.now()) : undefined;
    await this.sweep();
    if (approval === undefined)
      throw new ApprovalDecisionError(404, `no approval ${JSON.stringify(id.slice(0, 40))}`);
    return approval;
  }

  /** An approver's decision; refused when it is not the approver's to make, or the approval is not pending. */
  async settle(
    approver: Caller,
    id: string,
    status: 'approved' | 'denied',
    reason?: unknown,
  ): Promise<Approval> {
    const checkedReason = checkReason(reason);
    const approval = await this.get(approver, id);
    if (!this.options.allowSelfApproval && approver.subject === approval.caller.subject) {
      throw new ApprovalDecisionError(403, 'the caller of a tool may not decide its own approval');
    }
    if (approval.status !== 'pending') {
      throw new ApprovalDecisionError(409, `approval ${id} is ${approval.status}, not pending`);
    }
    const decided = await this.options.store.decide(
      id,
      { status, approver: approver.subject, ...(checkedReason !== undefined && { reason: checkedReason }) },
      this.options.now(),
    );
    if (decided === undefined || decided.status !== status || decided.approver !== approver.subject) {
      throw new ApprovalDecisionError(409, `approval ${id} is ${decided?.status ?? 'gone'}, not pending`);
    }
    this.emit(status, decided);
    for (const wake of this.#waiting.get(id) ?? []) wake();
    return decided;
  }

  /**
   * A decision from the webhook: signature, window and replay checked, then decided as the named approver (the
   * webhook's secret stands for the decide scope; the approver still may not be the caller, G1).
   */
  async fromWebhook(
    timestamp: string | undefined,
    signature: string | undefined,
    body: string,
  ): Promise<Approval> {
    const webhook = this.options.webhook;
    if (webhook === undefined) throw new ApprovalDecisionError(404, 'no webhook is configured');
    webhook.verify(timestamp, signature, body, this.options.now());
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      throw new ApprovalDecisionError(400, 'the body is not JSON');
    }
    const { id, decision, approver, reason } = (
      typeof parsed === 'object' && parsed !== null ? parsed : {}
    ) as Record<string, unknown>; // each checked below
    if (typeof id !== 'string') throw new ApprovalDecisionError(400, 'id must be a string');
    if (decision !== 'approve' && decision !== 'deny')
      throw new ApprovalDecisionError(400, 'decision must be "approve" or "deny"');
    if (typeof approver !== 'string' || !/^[^\p{Cc}\p{Cf}]{1,128}$/u.test(approver)) {
      throw new ApprovalDecisionError(400, 'approver must name who decided (1-128 characters)');
    }
    const as: Caller = Object.freeze({
      subject: approver,
      via: 'webhook',
      scopes: Object.freeze([this.options.decideScope]),
    });
    return this.settle(as, id, decision === 'approve' ? 'approved' : 'denied', reason);
  }

  /** G1, when policy allows it: the caller's own accept approves, recorded with the caller as approver. */
  async selfApprove(approval: Approval, caller: Caller): Promise<Approval> {
    const decided = await this.options.store.decide(
      approval.id,
      {
        status: 'approved',
        approver: caller.subject,
        reason: 'accepted by the caller (self-approval allowed)',
      },
      this.options.now(),
    );
    if (decided?.status === 'approved' && decided.approver === caller.subject) this.emit('approved', decided);
    return decided ?? approval;
  }

  /**
   * Waits until approval `id` is no longer pending, for at most `ms` or until `signal` aborts; answers it as it then
   * is. A decision made here wakes the wait at once; one made elsewhere (a shared store) is seen on the next look.
   */
  async waitForDecision(id: string, signal: AbortSignal, ms: number): Promise<Approval | undefined> {
    const end = Date.now() + ms;
    for (;;) {
      const approval = await this.options.store.get(id, this.options.now());
      const left = end - Date.now();
      if (approval?.status !== 'pending' || left <= 0 || signal.aborted) return approval;
      await new Promise<void>((resolve) => {
        const wake = (): void => {
          clearTimeout(timer);
          signal.removeEventListener('abort', wake);
          waiters.delete(wake);
          if (waiters.size === 0) this.#waiting.delete(id);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(left, POLL_MS));
        const waiters = this.#waiting.get(id) ?? new Set<() => void>();
        this.#waiting.set(id, waiters);
        waiters.add(wake);
        signal.addEventListener('abort', wake, { once: true });
      });
    }
  }
}
