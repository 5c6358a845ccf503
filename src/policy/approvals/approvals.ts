// approvals(): a human in the loop for tool calls. Builds the decision rules, the store and the middleware, and
// gives the admin side (list, approve, deny) to the admin API, the approval page and the CLI.

import type { Caller } from '../../protocol/index.js';
import type { Middleware, ToolTarget } from '../../server/index.js';
import type { ApprovalDecision } from './decide.js';
import { ApprovalEngine } from './engine.js';
import { approvalMiddleware } from './flow.js';
import { resolveApprovalsOptions, type ApprovalsOptions } from './options.js';
import type { Approval, ApprovalStatus, ApprovalStore } from './store.js';

export interface Approvals {
  /** The middleware: install it after authentication-related middleware (scopes, rate limits). */
  readonly middleware: Middleware;
  /** `server.use(middleware)`. */
  install(server: { use(middleware: Middleware): void }): void;
  readonly store: ApprovalStore;
  /** Whether a call of `target` with `args` needs approval, and which rule said so. */
  decide(target: ToolTarget, args: unknown): ApprovalDecision;
  /** The approval page of one approval. */
  urlFor(id: string): string;
  /** For approvers (the decide scope): approvals, newest first. */
  list(approver: Caller, filter?: { status?: ApprovalStatus; limit?: number }): Promise<Approval[]>;
  get(approver: Caller, id: string): Promise<Approval>;
  /** Throws an ApprovalDecisionError (with an HTTP status) when the approver may not, or it is not pending. */
  approve(approver: Caller, id: string, reason?: string): Promise<Approval>;
  deny(approver: Caller, id: string, reason?: string): Promise<Approval>;
  /** Reports approvals whose time ran out (also done on every request and listing). */
  sweep(): Promise<void>;
  /** A signed decision from the webhook (headers x-toolwire-timestamp and x-toolwire-signature, the raw body). */
  fromWebhook(timestamp: string | undefined, signature: string | undefined, body: string): Promise<Approval>;
  /** The scope approvers hold. */
  readonly decideScope: string;
}

export function approvals(options: ApprovalsOptions): Approvals {
  const engine = new ApprovalEngine(resolveApprovalsOptions(options));
  const middleware = approvalMiddleware(engine);
  return {
    middleware,
    install: (server) => server.use(middleware),
    store: engine.options.store,
    decide: (target, args) => engine.decide(target, args),
    urlFor: (id) => engine.urlFor(id),
    list: (approver, filter) => engine.list(approver, filter),
    get: (approver, id) => engine.get(approver, id),
    approve: (approver, id, reason) => engine.settle(approver, id, 'approved', reason),
    deny: (approver, id, reason) => engine.settle(approver, id, 'denied', reason),
    sweep: () => engine.sweep(),
    fromWebhook: (timestamp, signature, body) => engine.fromWebhook(timestamp, signature, body),
    decideScope: engine.options.decideScope,
  };
}
