// The OAuth 2.1 resource server (MCP authorization, 2026-07-28): bearer tokens verified as JWTs against the issuer's
// keys or through RFC 7662 introspection, RFC 9728 metadata, and the 401 / 403 / 503 challenges.

export { bearer, type Bearer } from './bearer.js';
export { ASYMMETRIC_ALGORITHMS, type BearerOptions } from './options.js';
export type { VerifyOutcome } from './failure.js';
