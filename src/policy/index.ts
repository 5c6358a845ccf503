// The policy layer's public API (`toolwire/policy`): authenticators for the HTTP edge (OAuth resource server, API
// keys), per-tool scopes, rate limits, and createPolicy/loadPolicy, which put them together in the order the
// pipeline wants them.

export { createPolicy, loadPolicy, type Policy, type PolicyOptions } from './policy.js';
export { credentials, type CredentialsOptions } from './authenticate.js';
export { credentialInQuery, presentedCredential, quoteParameter, type Presented } from './credentials.js';
export {
  ASYMMETRIC_ALGORITHMS,
  bearer,
  type Bearer,
  type BearerOptions,
  type VerifyOutcome,
} from './bearer/index.js';
export {
  ApiKeysError,
  KeysFileChangedError,
  apiKeys,
  createApiKey,
  hashKey,
  loadApiKeys,
  readKeysFile,
  writeKeysFile,
  type ApiKeyRecord,
  type ApiKeys,
  type ApiKeysOptions,
  type NewApiKey,
} from './api-keys/index.js';
export {
  ScopeRuleError,
  defaultStepUpHeaders,
  scopes,
  type AnnotationClass,
  type Decision,
  type ScopeRule,
  type Scopes,
  type ScopesOptions,
} from './scopes/index.js';
export {
  MemoryApprovalStore,
  approvals,
  approvalsAdmin,
  signWebhook,
  type Approval,
  type ApprovalEvent,
  type ApprovalRule,
  type ApprovalStore,
  type Approvals,
  type ApprovalsAdminOptions,
  type ApprovalsOptions,
} from './approvals/index.js';
export {
  DEFAULT_MAX_BINARY_BYTES,
  DEFAULT_MAX_RESULT_BYTES,
  cleanText,
  maskInternals,
  sanitise,
  type SanitiseOptions,
  type Sanitiser,
} from './sanitise/index.js';
export {
  createRedactor,
  redactSecrets,
  redactText,
  type Redaction,
  type Redactor,
  type RedactorOptions,
  type TextRedaction,
} from './redact/index.js';
export {
  AUDIT_OUTCOMES,
  openAudit,
  queryAudit,
  verifyAudit,
  type Audit,
  type AuditOptions,
  type AuditRecord,
  type AuditStore,
} from './audit/index.js';
export {
  checkTelemetryOptions,
  telemetry,
  type ClientTraceContext,
  type Telemetry,
  type TelemetryOptions,
} from './telemetry/index.js';
export {
  callerKey,
  checkRateLimitOptions,
  rateLimit,
  type Limit,
  type LimitStore,
  type RateLimitOptions,
  type RateLimitedData,
  type RateLimiter,
  type RateLimitStats,
} from './rate-limit/index.js';
