// A human in the loop and an audit trail: the approval hook asked before calls, and the audit hook told after.

import type { JsonObject } from '../jsonrpc/index.js';
import type { Implementation, ToolAnnotations } from '../protocol/index.js';

export interface ApprovalRequest {
  /** The server's name (from options.serverName or its own, self-asserted, info). */
  server: string;
  serverInfo: Implementation | undefined;
  tool: string;
  arguments: JsonObject;
  /** The tool's annotations as the server sent them (hints, not guarantees). */
  annotations: ToolAnnotations | undefined;
  /** Whether the application marked this server trusted; if not, annotations were ignored for the decision. */
  trusted: boolean;
  /** The effective reading: read-only only for a trusted server that says readOnlyHint: true. */
  readOnly: boolean;
  destructive: boolean;
}

/** Returns true to allow the call; false (or a thrown error) refuses it. */
export type ApprovalHook = (request: ApprovalRequest) => boolean | Promise<boolean>;

export type CallOutcomeKind = 'success' | 'tool-error' | 'denied' | 'error' | 'timeout' | 'cancelled';

export interface AuditEntry {
  server: string;
  tool: string;
  arguments: JsonObject;
  outcome: CallOutcomeKind;
  durationMs: number;
  /** The error message, for outcomes other than success and tool-error. */
  error?: string;
}

export type AuditHook = (entry: AuditEntry) => void;

/** Reads annotations the way the spec asks: untrusted servers' hints do not count, and the defaults are pessimistic. */
export function effectiveAnnotations(
  annotations: ToolAnnotations | undefined,
  trusted: boolean,
): { readOnly: boolean; destructive: boolean } {
  if (!trusted || annotations === undefined) return { readOnly: false, destructive: true };
  const readOnly = annotations.readOnlyHint === true;
  return { readOnly, destructive: !readOnly && annotations.destructiveHint !== false };
}
