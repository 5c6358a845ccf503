// What an OAuthClient is configured with, and what it reports about a stored authorization (never a secret).

import type { PrivateKeyJwt } from './client-auth.js';
import type { AssertionProvider, AuthorizeHandler } from './flow.js';
import type { FetchLike } from './http.js';
import type { PreRegisteredClient } from './registration.js';
import type { OAuthStore } from './store.js';

export interface OAuthClientOptions {
  /** The MCP server's URL, exactly as the transport is given it. */
  serverUrl: string | URL;
  /** Where the authorization server sends the browser back (a loopback URL for a CLI). */
  redirectUri?: string;
  /** The user-agent step: open the URL, resolve with the URL the browser was redirected to. Without it the
   * client never asks the user: it refreshes tokens it has and otherwise returns the server's 401 unchanged. */
  authorize?: AuthorizeHandler;
  /** authorization_code (a user, the default), client_credentials (a service acting for itself), or jwt-bearer
   * (RFC 7523: a workload identity or enterprise IdP assertion from `assertion`). */
  grant?: 'authorization_code' | 'client_credentials' | 'jwt-bearer';
  /** For the jwt-bearer grant: the assertion to present, fetched for each grant (see enterpriseAssertion). */
  assertion?: AssertionProvider;
  /** A pre-registered client; with `privateKey` it authenticates with private_key_jwt. */
  client?: PreRegisteredClient & Partial<PrivateKeyJwt>;
  /** An https URL of this client's Client ID Metadata Document, used when the AS supports them. */
  clientMetadataUrl?: string;
  /** The client_name of a dynamic registration. */
  clientName?: string;
  /** Scopes always asked for, on top of the ones the server names. */
  scopes?: readonly string[];
  /** When set, a request that needs the user (no browser step configured, nothing to refresh) fails with an
   * `authorization_required` error ending in this hint (the CLI: run "toolwire login URL") instead of handing back
   * the server's 401; only for servers that announce OAuth (a challenge with resource_metadata). */
  loginHint?: string;
  /** Ask for offline_access (a refresh token) when the authorization server lists it; default true. */
  offlineAccess?: boolean;
  /** Step-ups (403 insufficient_scope) tried for one request before its 403 is returned; default 2. */
  maxStepUps?: number;
  store?: OAuthStore;
  fetch?: FetchLike;
  /** The clock, in milliseconds since the epoch. */
  now?: () => number;
  /** DPoP-bound tokens (RFC 9449): always (when the AS supports ES256), never, or 'auto' (the default) when the
   * server's challenge uses the DPoP scheme. */
  dpop?: boolean | 'auto';
}

export interface AuthorizationSummary {
  issuer: string;
  scope: string | undefined;
  expiresAt: number | undefined;
  refreshable: boolean;
}
