// The policy layer put together: who is calling (OAuth and API keys at the HTTP edge), what they may see and call
// (scopes: a visibility rule and middleware), how often (rate limits, after the scopes so a caller without scope never
// burns a budget), and a record of every call (the audit, outermost, so it sees the others' refusals). One object to
// install on a server and to spread into HTTP options.

import { type Caller, LOCAL_CALLER } from '../protocol/index.js';
import { type Logger, type McpServer, stderrLogger } from '../server/index.js';
import type { HttpAuthenticate, HttpRoute } from '../transports/http/index.js';
import {
  type ApiKeys,
  type ApiKeysOptions,
  apiKeys as createApiKeys,
  loadApiKeys,
} from './api-keys/index.js';
import { approvalEntry } from './approval-audit.js';
import { type Approvals, type ApprovalsOptions, approvals as createApprovals } from './approvals/index.js';
import { type Audit, type AuditOptions, openAudit } from './audit/index.js';
import { credentials } from './authenticate.js';
import { type Bearer, type BearerOptions, bearer as createBearer } from './bearer/index.js';
import { type RateLimitOptions, type RateLimiter, rateLimit } from './rate-limit/index.js';
import { type Sanitiser, type SanitiseOptions, sanitise as createSanitiser } from './sanitise/index.js';
import { type Scopes, type ScopesOptions, scopes as createScopes } from './scopes/index.js';
import { type Telemetry, type TelemetryOptions, telemetry as createTelemetry } from './telemetry/index.js';

export interface PolicyOptions {
  /** OAuth 2.1 resource server: JWT access tokens (JWKS) and opaque ones (introspection). */
  oauth?: BearerOptions;
  /** API keys (only their hashes), beside or instead of OAuth. */
  apiKeys?: ApiKeysOptions;
  /** Requests without credentials go on as the anonymous caller instead of getting 401. Default false. */
  anonymous?: boolean;
  /** Per-tool scopes, deny by default: required once a policy is configured. */
  scopes: ScopesOptions;
  /** Rate limits, quotas and concurrency caps; none when absent. */
  rateLimits?: RateLimitOptions;
  /**
   * The scopes of the process that started a stdio server (the local user). Default none: with a policy, a stdio
   * client sees what rules with empty `see` scopes show, like any caller.
   */
  localScopes?: readonly string[];
  /**
   * OpenTelemetry: a SERVER span and a duration per request, as the MCP semantic conventions say (true: the global
   * providers). Needs the optional peer @opentelemetry/api; without it nothing is installed.
   */
  telemetry?: true | TelemetryOptions;
  /**
   * A human in the loop: which calls need an approver's decision (by default destructive and unannotated tools),
   * the flow on both eras, and the store; serve the approval page and API with `approvalsAdmin`.
   */
  approvals?: ApprovalsOptions;
  /**
   * Clean outputs: escapes and invisible characters removed, sizes bounded, internals masked in errors, optionally
   * secrets redacted. On by default with a policy; false turns it off (and says so in the log).
   */
  sanitise?: SanitiseOptions | false;
  /** The audit trail: one chained, redacted record per call outcome (opened by loadPolicy only: it is async). */
  audit?: AuditOptions;
  /** Where the pieces report outages of the authorization server or the rate-limit store (never a token). */
  logger?: Logger;
}

/** A configured policy: install it on the server, spread `http` into the HTTP options, pass `stdio` to serveStdio. */
export interface Policy {
  /** The HTTP edge hooks: `authenticate` (absent when neither OAuth nor API keys are set) and metadata routes. */
  readonly http: { authenticate?: HttpAuthenticate; routes?: Record<string, HttpRoute> };
  /** The stdio transport's options: the local caller with `localScopes`. */
  readonly stdio: { caller: Caller };
  readonly bearer: Bearer | undefined;
  readonly apiKeys: ApiKeys | undefined;
  readonly scopes: Scopes;
  readonly rateLimiter: RateLimiter | undefined;
  readonly audit: Audit | undefined;
  readonly approvals: Approvals | undefined;
  /** Undefined only when `sanitise: false`. */
  readonly sanitiser: Sanitiser | undefined;
  /** Undefined when telemetry is off or @opentelemetry/api is not installed. */
  readonly telemetry: Telemetry | undefined;
  /**
   * Adds the visibility rule and the middleware to a server: telemetry outermost (its span covers everything), then
   * the audit (it records the others' refusals and sees what the client got), then clean outputs, then scopes, then
   * rate limits, then approvals (a caller refused for scope or rate never creates an approval to decide).
   */
  install(server: McpServer): McpServer;
  /** Stops timers and caches, and waits for the audit records of calls already admitted. */
  close(): Promise<void>;
}

function build(options: PolicyOptions, keys: ApiKeys | undefined, audit: Audit | undefined): Policy {
  if (typeof options !== 'object' || options === null)
    throw new TypeError('policy: options must be an object');
  if (options.scopes === undefined) {
    throw new TypeError(
      'policy: scopes is required: with a policy every tool is hidden unless a rule grants it (e.g. { rules: [{ tools: ["*"], see: [] }] })',
    );
  }
  const { logger } = options;
  const bearer =
    options.oauth === undefined
      ? undefined
      : createBearer({ ...(logger !== undefined && { logger }), ...options.oauth });
  const scopes = createScopes({
    ...options.scopes,
    ...(bearer !== undefined &&
      options.scopes.stepUpHeaders === undefined && { stepUpHeaders: bearer.stepUpHeaders }),
  });
  // One answer to "are annotations trusted" for every piece: a tool counts in the same classes everywhere.
  const trust = options.scopes.trustAnnotations;
  const rateLimiter =
    options.rateLimits === undefined
      ? undefined
      : rateLimit({
          ...(logger !== undefined && { logger }),
          ...(trust !== undefined && { trustAnnotations: trust }),
          ...options.rateLimits,
        });
  const authenticate =
    bearer === undefined && keys === undefined
      ? undefined
      : credentials({
          ...(bearer && { bearer }),
          ...(keys && { apiKeys: keys }),
          anonymous: options.anonymous ?? false,
        });
  const local =
    options.localScopes === undefined || options.localScopes.length === 0
      ? LOCAL_CALLER
      : Object.freeze({ ...LOCAL_CALLER, scopes: Object.freeze([...options.localScopes]) });
  // Every step of an approval is audited too, beside whatever the operator listens with.
  const approvalOptions = options.approvals;
  const approvals =
    approvalOptions === undefined
      ? undefined
      : createApprovals({
          ...(logger !== undefined && { logger }),
          ...(trust !== undefined && { trustAnnotations: trust }),
          ...approvalOptions,
          ...((audit !== undefined || approvalOptions.onEvent !== undefined) && {
            onEvent: (event) => {
              audit?.recordEvent(approvalEntry(event)).catch((error: unknown) => {
                logger?.error(
                  `audit: the ${event.type} event of approval ${event.approval.id} was not recorded`,
                  error,
                );
              });
              approvalOptions.onEvent?.(event);
            },
          }),
        });
  if (options.sanitise === false) {
    (logger ?? stderrLogger).warn(
      'policy: clean outputs are off (sanitise: false): results leave with escape sequences, invisible characters and unbounded sizes',
    );
  }
  const sanitiser =
    options.sanitise === false
      ? undefined
      : createSanitiser({ ...(logger !== undefined && { logger }), ...options.sanitise });
  const traces =
    options.telemetry === undefined
      ? undefined
      : createTelemetry(options.telemetry === true ? {} : options.telemetry);
  const tracing = traces?.middleware;
  const installed = new WeakSet<McpServer>();
  return {
    http: {
      ...(authenticate !== undefined && { authenticate }),
      ...(bearer !== undefined && { routes: bearer.routes }),
    },
    stdio: { caller: local },
    bearer,
    apiKeys: keys,
    scopes,
    rateLimiter,
    audit,
    telemetry: tracing === undefined ? undefined : traces,
    approvals,
    sanitiser,
    install(server) {
      if (installed.has(server)) throw new TypeError('policy: already installed on this server');
      installed.add(server);
      if (tracing !== undefined) server.use(tracing);
      if (audit !== undefined) server.use(audit.middleware);
      if (sanitiser !== undefined) server.use(sanitiser.middleware);
      server.addVisibility(scopes.visibility);
      server.use(scopes.middleware);
      if (rateLimiter !== undefined) server.use(rateLimiter.middleware);
      approvals?.install(server);
      return server;
    },
    async close() {
      bearer?.close();
      rateLimiter?.close();
      await audit?.close();
    },
  };
}

/** A policy from options whose API keys (if any) are given inline. */
export function createPolicy(options: PolicyOptions): Policy {
  if (options.apiKeys?.file !== undefined) {
    throw new TypeError('policy: apiKeys.file is read asynchronously: use loadPolicy(options)');
  }
  if (options.audit !== undefined) {
    throw new TypeError('policy: the audit trail opens its database asynchronously: use loadPolicy(options)');
  }
  return build(
    options,
    options.apiKeys === undefined ? undefined : createApiKeys(options.apiKeys),
    undefined,
  );
}

/** A policy whose API keys may come from a keys file, and whose audit trail is opened. */
export async function loadPolicy(options: PolicyOptions): Promise<Policy> {
  const keys = options.apiKeys === undefined ? undefined : await loadApiKeys(options.apiKeys);
  const audit =
    options.audit === undefined
      ? undefined
      : await openAudit({
          ...(options.logger !== undefined && { logger: options.logger }),
          ...options.audit,
        });
  try {
    return build(options, keys, audit);
  } catch (error) {
    // A mistake in another piece must not leave the database open.
    await audit?.close();
    throw error;
  }
}
