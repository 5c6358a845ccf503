// How a request ended, read from what the rest of the chain answered: a result, an isError result, a refusal, an
// error, or nothing (cancelled). The audit middleware is outermost, so it sees policy's Denials as they leave.

import { ErrorCode, RpcError, isJsonObject } from '../../jsonrpc/index.js';
import { Denial, type Outcome, type RequestView } from '../../server/index.js';
import { canonicalJson } from './chain.js';
import type { AuditOutcome } from './types.js';

export interface Classified {
  readonly outcome: AuditOutcome;
  readonly decision: 'allowed' | 'denied';
  readonly rule: string | null;
  readonly errorCode: number | null;
  /** The error's own message (before redaction), for the operator. */
  readonly detail: string | null;
}

/** What of a refusal's data says which rule decided: the limit, the scopes missing, when to retry. */
const RULE_DATA_KEYS = [
  'limit',
  'missingScopes',
  'requiredScopes',
  'retryAfterMs',
  'rule',
  'policy',
] as const;

function ruleOf(error: RpcError): string {
  const rule: Record<string, unknown> = { code: error.code };
  const data = error.data;
  if (isJsonObject(data)) {
    for (const key of RULE_DATA_KEYS) if (data[key] !== undefined) rule[key] = data[key];
  }
  return canonicalJson(rule);
}

/** The "timed out" result the server makes for a tool that ran past its limit (server/call-tool.ts). */
const TIMED_OUT = /^Tool "([\s\S]*)" timed out after (\d+) ms$/;

function resultOutcome(view: RequestView, result: object): AuditOutcome {
  const record = result as Record<string, unknown>;
  if (record.resultType === 'input_required') return 'input_required';
  if (record.resultType === 'task') return 'task';
  if (record.isError !== true) return 'result';
  const content = record.content;
  const first = Array.isArray(content) && content.length === 1 ? (content[0] as unknown) : undefined;
  const text = isJsonObject(first) && first.type === 'text' ? first.text : undefined;
  const match = typeof text === 'string' ? TIMED_OUT.exec(text) : null;
  return match !== null && match[1] === view.target?.name ? 'timeout' : 'tool_error';
}

/** The text blocks of an isError result, joined. */
function errorText(result: object): string | null {
  const content = (result as { content?: unknown }).content;
  if (!Array.isArray(content)) return null;
  const texts = content.flatMap((block: unknown) =>
    isJsonObject(block) && block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
  return texts.length === 0 ? null : texts.join('\n');
}

/** An allowed request's classification, as one literal: spreading a shared base cost more than the rest (per call). */
const allowed = (outcome: AuditOutcome, detail: string | null): Classified => ({
  outcome,
  decision: 'allowed',
  rule: null,
  errorCode: null,
  detail,
});

/** A request's outcome from what next() returned. */
export function classifyOutcome(view: RequestView, outcome: Outcome): Classified {
  if (outcome === undefined) {
    // tools/call answers nothing only when cancelled; other handlers may have answered themselves (listen).
    const cancelled = view.method === 'tools/call' || view.signal.aborted;
    return allowed(cancelled ? 'cancelled' : 'result', null);
  }
  if (typeof outcome === 'string') return allowed('result', null);
  const kind = resultOutcome(view, outcome);
  // What a failed call told the model (a tool's message, a reference to the server log), for the operator.
  return allowed(kind, kind === 'tool_error' || kind === 'timeout' ? errorText(outcome) : null);
}

/** A request's outcome from what next() threw. */
export function classifyError(view: RequestView, error: unknown): Classified {
  if (!(error instanceof RpcError)) {
    const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return {
      outcome: 'protocol_error',
      decision: 'allowed',
      rule: null,
      errorCode: ErrorCode.InternalError,
      detail,
    };
  }
  const common = { errorCode: error.code, detail: error.message };
  if (error.code === ErrorCode.RateLimited) {
    return { ...common, outcome: 'rate_limited', decision: 'denied', rule: ruleOf(error) };
  }
  if (error.code === ErrorCode.InsufficientScope || error instanceof Denial) {
    return { ...common, outcome: 'denied', decision: 'denied', rule: ruleOf(error) };
  }
  const unknownTool =
    view.method === 'tools/call' &&
    view.target === undefined &&
    typeof view.params?.name === 'string' &&
    error.code === ErrorCode.InvalidParams;
  return {
    ...common,
    outcome: unknownTool ? 'unknown_tool' : 'protocol_error',
    decision: 'allowed',
    rule: null,
  };
}
