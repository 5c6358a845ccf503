// The options of approvals(), checked once: every problem names the option, and defaults are filled in here.

import type { Logger } from '../../server/index.js';
import type { AnnotationTrust } from '../scopes/decide.js';
import { ApprovalRuleError } from './errors.js';
import type { ApprovalEvent } from './events.js';
import { MemoryApprovalStore } from './memory-store.js';
import { ApprovalWebhook, type ApprovalWebhookOptions } from './webhook.js';
import { compileApprovalRules, type ApprovalRule, type CompiledApprovalRule } from './rules.js';
import type { ApprovalStore } from './store.js';

export interface ApprovalsOptions {
  /** Which calls need a human; the first rule that selects a call decides. Default: destructive or untrusted tools. */
  rules?: readonly ApprovalRule[];
  /** Whether tools' annotations are believed (all, none, or per tool). Default true. */
  trustAnnotations?: AnnotationTrust;
  /** How long an approval may wait for a decision and then for its retry, in ms. Default 10 minutes. */
  ttlMs?: number;
  /** Where approvals live. Default: this process's memory (one instance only). */
  store?: ApprovalStore;
  /** The approval page's base URL (absolute http/https, no query); an approval's page is `<approvalUrl>/<id>`. */
  approvalUrl: string;
  /** Whether the calling client's own "accept", or an approver who is the caller, counts as approval. Default false. */
  allowSelfApproval?: boolean;
  /** Bound into every approval: changing it voids approvals given under the old rules. Default "1". */
  policyVersion?: string;
  /** The scope an approver must hold. Default "approvals:decide". */
  decideScope?: string;
  /** Pending approvals one caller may have at once. Default 16. */
  maxPendingPerCaller?: number;
  /** Approvals held in all. Default 10 000. */
  maxApprovals?: number;
  /** Every request, decision, redemption, refusal and expiry (the audit trail records them). */
  onEvent?: (event: ApprovalEvent) => void;
  logger?: Logger;
  /** Chat-ops: new pending approvals POSTed (signed) to a URL, and signed decisions accepted back. */
  webhook?: ApprovalWebhookOptions;
  /** The clock (ms since the epoch), for tests. */
  now?: () => number;
}

export interface ResolvedApprovalsOptions {
  readonly rules: readonly CompiledApprovalRule[];
  readonly trust: AnnotationTrust;
  readonly ttlMs: number;
  readonly store: ApprovalStore;
  readonly approvalUrl: string;
  readonly allowSelfApproval: boolean;
  readonly policyVersion: string;
  readonly decideScope: string;
  readonly limits: { readonly perCaller: number; readonly total: number };
  readonly onEvent: ((event: ApprovalEvent) => void) | undefined;
  readonly logger: Logger | undefined;
  readonly webhook: ApprovalWebhook | undefined;
  readonly now: () => number;
}

const KEYS = [
  'rules',
  'trustAnnotations',
  'ttlMs',
  'store',
  'approvalUrl',
  'allowSelfApproval',
  'policyVersion',
  'decideScope',
  'maxPendingPerCaller',
  'maxApprovals',
  'onEvent',
  'logger',
  'webhook',
  'now',
];

function count(value: unknown, name: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
    throw new ApprovalRuleError(name, `must be an integer from 1 to ${max}`);
  }
  return value;
}

function checkUrl(value: unknown): string {
  if (typeof value !== 'string') {
    throw new ApprovalRuleError('approvalUrl', 'is required: the absolute http(s) URL of the approval page');
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ApprovalRuleError('approvalUrl', 'is not an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ApprovalRuleError('approvalUrl', 'must be an http or https URL');
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    throw new ApprovalRuleError('approvalUrl', 'may not carry credentials, a query or a fragment');
  }
  return url.href.replace(/\/+$/, '');
}

export function resolveApprovalsOptions(options: ApprovalsOptions): ResolvedApprovalsOptions {
  if (typeof options !== 'object' || options === null) {
    throw new ApprovalRuleError('options', 'must be an object with at least approvalUrl');
  }
  for (const key of Object.keys(options)) {
    if (!KEYS.includes(key))
      throw new ApprovalRuleError(key, `is not an approvals option (expected ${KEYS.join(', ')})`);
  }
  const trust: unknown = options.trustAnnotations ?? true;
  if (typeof trust !== 'boolean' && typeof trust !== 'function') {
    throw new ApprovalRuleError('trustAnnotations', 'must be true, false or a function of the tool');
  }
  for (const name of ['allowSelfApproval'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'boolean') {
      throw new ApprovalRuleError(name, 'must be true or false');
    }
  }
  for (const name of ['policyVersion', 'decideScope'] as const) {
    const value = options[name];
    if (value !== undefined && (typeof value !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(value))) {
      throw new ApprovalRuleError(name, 'must be 1-128 visible ASCII characters');
    }
  }
  for (const name of ['onEvent', 'now'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new ApprovalRuleError(name, 'must be a function');
    }
  }
  return {
    rules: compileApprovalRules(options.rules),
    trust: trust as AnnotationTrust, // checked just above
    ttlMs: count(options.ttlMs, 'ttlMs', 600_000, 7 * 24 * 3_600_000),
    store: options.store ?? new MemoryApprovalStore(),
    approvalUrl: checkUrl(options.approvalUrl),
    allowSelfApproval: options.allowSelfApproval ?? false,
    policyVersion: options.policyVersion ?? '1',
    decideScope: options.decideScope ?? 'approvals:decide',
    limits: {
      perCaller: count(options.maxPendingPerCaller, 'maxPendingPerCaller', 16, 10_000),
      total: count(options.maxApprovals, 'maxApprovals', 10_000, 10_000_000),
    },
    onEvent: options.onEvent,
    logger: options.logger,
    webhook: options.webhook === undefined ? undefined : new ApprovalWebhook(options.webhook, options.logger),
    now: options.now ?? Date.now,
  };
}
