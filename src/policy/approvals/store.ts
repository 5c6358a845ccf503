// What an approval is and where approvals live: the ApprovalStore interface (memory here; a shared store makes
// single-use redemption hold across instances) and the transitions every store must make atomically.

/** pending → approved | denied | expired; approved → redeemed | expired. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'expired' | 'redeemed';

/** One approval, bound to the caller, the tool, the arguments' digest and the policy version (G2). */
export interface Approval {
  /** 144 random bits, base64url. */
  readonly id: string;
  /** The caller that made the call: how it authenticated and who it is. */
  readonly caller: { readonly via: string; readonly subject: string };
  /** Digest of via and subject (what requestState binds). */
  readonly principal: string;
  readonly tool: string;
  /** SHA-256 of the canonical JSON of the arguments. */
  readonly argsDigest: string;
  /** The arguments as canonical JSON, cut to a bound: what the approver is shown. */
  readonly argumentsPreview: string;
  readonly policyVersion: string;
  /** The rule that asked for approval (its index), or "default". */
  readonly rule: number | 'default';
  /** ms since the epoch. */
  readonly created: number;
  readonly expiresAt: number;
  readonly status: ApprovalStatus;
  /** The approver's subject (or the caller's, when self-approval is allowed and was used). */
  readonly approver?: string;
  readonly decidedAt?: number;
  readonly reason?: string;
}

/** What a lookup for a call's approval is keyed on. */
export interface ApprovalBinding {
  readonly principal: string;
  readonly tool: string;
  readonly argsDigest: string;
  readonly policyVersion: string;
}

export interface StoreLimits {
  /** Unexpired pending approvals one caller (principal) may have. */
  readonly perCaller: number;
  /** Approvals held in all (finished ones are dropped first, oldest first). */
  readonly total: number;
}

/** Why a store refused to add an approval. */
export type AddRefusal = 'caller-limit' | 'full';

/** An approver's decision. */
export interface ApprovalVerdict {
  readonly status: 'approved' | 'denied';
  readonly approver: string;
  readonly reason?: string;
}

/**
 * Where approvals live. Every method that changes one is atomic (a shared store does it in one transaction or
 * script); `now` comes from the caller's clock so expiry is judged the same everywhere.
 */
export interface ApprovalStore {
  /** Adds a pending approval, unless the limits refuse it. */
  add(approval: Approval, limits: StoreLimits, now: number): Promise<AddRefusal | undefined>;
  /** The approval (expired first when its time has passed), or undefined. */
  get(id: string, now: number): Promise<Approval | undefined>;
  /** The newest pending or approved, unexpired approval for this binding. */
  find(binding: ApprovalBinding, now: number): Promise<Approval | undefined>;
  /** Approvals, newest first, at most `limit`, optionally of one status. */
  list(filter: { status?: ApprovalStatus; limit: number }, now: number): Promise<Approval[]>;
  /** pending → approved | denied; answers the approval as it now is (unchanged when it was not pending). */
  decide(id: string, verdict: ApprovalVerdict, now: number): Promise<Approval | undefined>;
  /** approved → redeemed, once: true only for the one caller that made the change. */
  redeem(id: string, now: number): Promise<boolean>;
  /** redeemed → approved: the tool asked for input before it finished, so the approval holds for its retry. */
  release(id: string, now: number): Promise<void>;
  /** Marks every pending or approved approval whose time has passed as expired; answers those. */
  sweep(now: number): Promise<Approval[]>;
}
