// What the audit trail stores and how a store is driven: the record, the query filter and the store contract.

/** How a request ended, as the audit trail names it. */
export const AUDIT_OUTCOMES = [
  'result',
  'tool_error',
  'protocol_error',
  'timeout',
  'cancelled',
  'denied',
  'rate_limited',
  'unknown_tool',
  'input_required',
  'task',
  // A human in the loop: each step of an approval (policy/approvals) is a record of its own.
  'approval_requested',
  'approval_approved',
  'approval_denied',
  'approval_redeemed',
  'approval_refused',
  'approval_expired',
] as const;

export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** What one request leaves in the trail before it is chained (the store gives it id, prevHash and hash). */
export interface AuditEntry {
  /** When the request reached the audit middleware, ms since the epoch. */
  readonly time: number;
  /** The JSON-RPC id as JSON text (`7` or `"abc"`: a number and a string stay apart). */
  readonly requestId: string;
  /** The W3C trace id from `params._meta.traceparent`, when a valid one was sent. */
  readonly traceId: string | null;
  readonly method: string;
  /** "modern" or "legacy". */
  readonly era: string;
  readonly subject: string;
  /** How the caller was established (caller.via: "bearer", "api-key", "local"…). */
  readonly authMethod: string;
  readonly clientId: string | null;
  readonly clientName: string | null;
  readonly clientVersion: string | null;
  /** The tool (prompt, resource) the request names, as the client sent it. */
  readonly tool: string | null;
  /** SHA-256 (base64url) of the arguments' canonical JSON: the same digest approvals bind to. */
  readonly argsDigest: string | null;
  /** The arguments as JSON text, secrets redacted before they were stored. */
  readonly arguments: string | null;
  readonly decision: 'allowed' | 'denied';
  /** The refusal that decided, as canonical JSON: its code and the data that says why (limit, missing scopes). */
  readonly rule: string | null;
  /** The approval that let the call through (none yet: approvals will fill it). */
  readonly approvalId: string | null;
  readonly outcome: AuditOutcome;
  /** The JSON-RPC error code the request was answered with, when it was an error. */
  readonly errorCode: number | null;
  /** What the error said (redacted), for the operator: the client may have seen a neutral message instead. */
  readonly detail: string | null;
  readonly latencyMs: number;
  /** The UTF-8 size of the result's JSON, when there was a result. */
  readonly resultBytes: number | null;
}

/** One stored row: the entry, its place in the chain and the chain's hashes. */
export interface AuditRecord extends AuditEntry {
  readonly id: number;
  readonly prevHash: string;
  readonly hash: string;
}

/** What the chain's head says: the last row written and the last one retention removed. */
export interface ChainHead {
  readonly lastId: number;
  readonly lastHash: string;
  /** Rows with ids up to this one were removed by retention (0: none). */
  readonly prunedThrough: number;
  /** The hash of row `prunedThrough` (the genesis hash when none was removed): where the kept chain starts. */
  readonly prunedHash: string;
}

export interface AuditFilter {
  /** Rows at or after this time. */
  since?: Date;
  subject?: string;
  tool?: string;
  outcome?: string;
  /** At most this many rows (default 100, at most 10,000). */
  limit?: number;
  /** Rows with an id above this one (paging, --follow). */
  afterId?: number;
  /** Take the newest `limit` matching rows instead of the oldest (still returned in id order). */
  newest?: boolean;
}

/** How retention trims the trail: rows older than `before`, and all but the newest `keepRows`. */
export interface PruneRule {
  readonly before?: number;
  readonly keepRows?: number;
}

/**
 * Where records go. `append` chains the entries after the last stored row (see chain.ts) and stores them in one
 * transaction, the head included, so a crash keeps all of a batch or none of it. Calls to `append` and `prune` are
 * never concurrent within a process (the writer serialises them); a store shared by processes locks the head.
 */
export interface AuditStore {
  /** For messages and logs ("sqlite /var/lib/toolwire/audit.db"); never a password. */
  readonly description: string;
  /**
   * Resolves once the batch is durable: committed (the SQLite and PostgreSQL stores, which give the records as
   * stored), or in the threaded SQLite store's record queue, from which it is stored moments later (null).
   */
  append(entries: readonly AuditEntry[]): Promise<unknown>;
  /** Records accepted by append() and not yet stored where queries see them (a queue's length); absent: none. */
  readonly backlog?: number;
  /** Rows matching the filter, in id order. */
  query(filter: AuditFilter): Promise<AuditRecord[]>;
  head(): Promise<ChainHead>;
  /** Removes rows by age and count, keeping the chain verifiable from the first kept row; returns how many went. */
  prune(rule: PruneRule): Promise<number>;
  close(): Promise<void>;
}
