// The OAuth client for MCP servers that need authorization (MCP authorization spec, 2025-11-25 and 2026-07-28).

export { OAuthClient } from './oauth-client.js';
export type { AuthorizationSummary, OAuthClientOptions } from './options.js';
export type { AuthorizeHandler, AuthorizeRequest } from './flow.js';
export { OAuthError, type OAuthErrorCode } from './errors.js';
export {
  MemoryOAuthStore,
  parseStoredAuthorization,
  type OAuthStore,
  type StoredAuthorization,
} from './store.js';
export type { PreRegisteredClient } from './registration.js';
export type { PrivateKeyJwt, RegisteredClient, TokenEndpointAuthMethod } from './client-auth.js';
export type { TokenSet } from './tokens.js';
export { startLoopbackRedirect, type LoopbackRedirect } from './loopback.js';
export { parseChallenge, type Challenge } from './challenge.js';
export { canonicalResource } from './resource.js';
export type { AssertionContext, AssertionProvider } from './flow.js';
export { enterpriseAssertion, type EnterpriseAssertionOptions } from './enterprise.js';
export { FileOAuthStore } from './file-store.js';
