// One authorization, start to end: where the authorization server is, which scopes to ask for, and the grant
// itself (authorization code with PKCE through the user's browser, or client credentials for a service).

import { splitScopes, type Challenge } from './challenge.js';
import type { PrivateKeyJwt, RegisteredClient } from './client-auth.js';
import { assertPkceS256, discoverResourceMetadata, discoverServerMetadata } from './discovery.js';
import { OAuthError, quoteForeign } from './errors.js';
import type { FetchLike } from './http.js';
import type { AuthorizationServerMetadata, ProtectedResourceMetadata } from './metadata.js';
import { authorizationUrl, codeFromRedirect } from './authorization-response.js';
import { createPkce, randomState } from './pkce.js';
import { resolveClient, type PreRegisteredClient } from './registration.js';
import { canonicalResource } from './resource.js';
import { requestToken, type TokenSet } from './tokens.js';

export interface Discovery {
  /** The resource indicator to ask tokens for: the PRM's `resource`, else the server's canonical URI. */
  resource: string;
  resourceMetadata: ProtectedResourceMetadata | undefined;
  metadata: AuthorizationServerMetadata;
}

/** What the user agent step gets: open `url`, and resolve with the URL the browser was redirected to. */
export interface AuthorizeRequest {
  url: URL;
  state: string;
  redirectUri: string;
  signal: AbortSignal | undefined;
}

export type AuthorizeHandler = (request: AuthorizeRequest) => Promise<string | URL>;

/** AS metadata is looked up again on every authorization, except within this many issuers' worth of cache. */
const MAX_CACHED_ISSUERS = 8;

export class MetadataCache {
  readonly #entries = new Map<string, AuthorizationServerMetadata>();

  async get(fetchFn: FetchLike, issuer: string, signal?: AbortSignal): Promise<AuthorizationServerMetadata> {
    const cached = this.#entries.get(issuer);
    if (cached !== undefined) return cached;
    const metadata = await discoverServerMetadata(fetchFn, issuer, signal);
    if (this.#entries.size >= MAX_CACHED_ISSUERS)
      this.#entries.delete(this.#entries.keys().next().value as string); // the map is full, so not empty
    this.#entries.set(issuer, metadata);
    return metadata;
  }
}

/**
 * PRM (from the challenge or the well-known URIs), then the AS it names (the one already in use when it is still
 * listed, else the first). Without PRM, the server's own origin is tried as its authorization server, as servers
 * written for the 2025-03-26 revision expect.
 */
export async function discover(
  fetchFn: FetchLike,
  serverUrl: URL,
  challenge: Challenge | undefined,
  currentIssuer: string | undefined,
  cache: MetadataCache,
  signal?: AbortSignal,
): Promise<Discovery> {
  const prm = await discoverResourceMetadata(fetchFn, serverUrl, challenge, signal);
  if (prm === undefined) {
    const issuer = serverUrl.origin;
    try {
      const metadata = await cache.get(fetchFn, issuer, signal);
      return { resource: canonicalResource(serverUrl), resourceMetadata: undefined, metadata };
    } catch (error) {
      if (!(error instanceof OAuthError) || error.code !== 'no_metadata') throw error;
      throw new OAuthError(
        'no_metadata',
        `${canonicalResource(serverUrl)} publishes no protected resource metadata, and its origin is no authorization server: it cannot be authorized with OAuth`,
      );
    }
  }
  const servers = prm.authorizationServers;
  const issuer =
    currentIssuer !== undefined && servers.includes(currentIssuer) ? currentIssuer : (servers[0] as string); // parseResourceMetadata refuses an empty list
  const metadata = await cache.get(fetchFn, issuer, signal);
  return { resource: prm.resource, resourceMetadata: prm, metadata };
}

/**
 * The spec's scope selection: the challenge's scope, else the PRM's scopes_supported, else none; plus what the
 * caller always wants and, on a re-authorization, what was asked before (a step-up keeps earlier grants).
 * offline_access is added only when the AS lists it, and never asked for when it does not.
 */
export function chooseScopes(
  challenge: Challenge | undefined,
  discovery: Discovery,
  extra: readonly string[],
  previous: readonly string[],
  offlineAccess: boolean,
): string[] {
  const challenged = splitScopes(challenge?.scope);
  const base = challenged.length > 0 ? challenged : (discovery.resourceMetadata?.scopesSupported ?? []);
  const chosen = new Set([...previous, ...base, ...extra]);
  const asLists = discovery.metadata.scopesSupported?.includes('offline_access') === true;
  if (!asLists) chosen.delete('offline_access');
  else if (offlineAccess && chosen.size > 0) chosen.add('offline_access');
  return [...chosen];
}

export interface GrantContext {
  fetch: FetchLike;
  discovery: Discovery;
  scopes: string[];
  client: RegisteredClient | undefined;
  preRegistered: PreRegisteredClient | undefined;
  jwt: PrivateKeyJwt | undefined;
  clientMetadataUrl: string | undefined;
  clientName: string;
  redirectUri: string | undefined;
  authorize: AuthorizeHandler | undefined;
  now: () => number;
  signal: AbortSignal | undefined;
  proof: ((url: string, nonce: string | undefined) => Promise<string>) | undefined;
}

export interface Granted {
  client: RegisteredClient;
  tokens: TokenSet;
}

/** Authorization code with PKCE (S256) and the resource indicator on both legs, and RFC 9207 checked between. */
export async function authorizationCodeGrant(context: GrantContext): Promise<Granted> {
  const { discovery, redirectUri, authorize } = context;
  const { metadata } = discovery;
  assertPkceS256(metadata);
  if (metadata.authorizationEndpoint === undefined) {
    throw new OAuthError(
      'invalid_metadata',
      `the authorization server ${quoteForeign(metadata.issuer)} has no authorization_endpoint`,
    );
  }
  if (authorize === undefined || redirectUri === undefined) {
    throw new OAuthError(
      'authorization_required',
      'the server needs the user to authorize this client, and no browser step is configured',
    );
  }
  const client = context.client ?? (await clientFor(context, ['authorization_code', 'refresh_token']));
  const pkce = createPkce();
  const state = randomState();
  const scope = context.scopes.join(' ');
  const url = authorizationUrl({
    endpoint: metadata.authorizationEndpoint,
    clientId: client.clientId,
    redirectUri,
    codeChallenge: pkce.challenge,
    state,
    scope: scope === '' ? undefined : scope,
    resource: discovery.resource,
  });
  const redirect = await authorize({ url, state, redirectUri, signal: context.signal });
  const code = codeFromRedirect(redirect, {
    state,
    issuer: metadata.issuer,
    issParameterSupported: metadata.issParameterSupported,
    redirectUri,
  });
  const params = new URLSearchParams({
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    code_verifier: pkce.verifier,
    resource: discovery.resource,
  });
  const tokens = await requestToken({
    fetch: context.fetch,
    endpoint: metadata.tokenEndpoint,
    issuer: metadata.issuer,
    client,
    jwt: context.jwt,
    params,
    now: context.now(),
    signal: context.signal,
    proof: proofFor(context, metadata.tokenEndpoint),
  });
  return { client, tokens: scope !== '' && tokens.scope === undefined ? { ...tokens, scope } : tokens };
}

/** The client credentials grant (the OAuth client credentials extension): no user, the client's own authority. */
export async function clientCredentialsGrant(context: GrantContext): Promise<Granted> {
  const { metadata } = context.discovery;
  const client = context.client ?? (await clientFor(context, ['client_credentials']));
  const params = new URLSearchParams({
    grant_type: 'client_credentials',
    resource: context.discovery.resource,
  });
  if (context.scopes.length > 0) params.set('scope', context.scopes.join(' '));
  const tokens = await requestToken({
    fetch: context.fetch,
    endpoint: metadata.tokenEndpoint,
    issuer: metadata.issuer,
    client,
    jwt: context.jwt,
    params,
    now: context.now(),
    signal: context.signal,
    proof: proofFor(context, metadata.tokenEndpoint),
  });
  return { client, tokens };
}

/** What an assertion provider is told: the audience (the AS issuer) and the resource the token is for. */
export interface AssertionContext {
  issuer: string;
  tokenEndpoint: string;
  resource: string;
  scopes: readonly string[];
  signal: AbortSignal | undefined;
}

export type AssertionProvider = (context: AssertionContext) => Promise<string> | string;

export const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

/**
 * The JWT bearer grant (RFC 7523 §2.1): a workload identity token, or an identity assertion from the enterprise
 * IdP (Enterprise-Managed Authorization), exchanged for an access token. A refusal is final: no other grant is tried.
 */
export async function assertionGrant(context: GrantContext, assertion: AssertionProvider): Promise<Granted> {
  const { metadata } = context.discovery;
  const client = context.client ?? (await clientFor(context, [JWT_BEARER_GRANT]));
  const jwt = await assertion({
    issuer: metadata.issuer,
    tokenEndpoint: metadata.tokenEndpoint,
    resource: context.discovery.resource,
    scopes: context.scopes,
    signal: context.signal,
  });
  if (typeof jwt !== 'string' || jwt === '')
    throw new OAuthError('no_client', 'the assertion provider returned no assertion');
  const params = new URLSearchParams({
    grant_type: JWT_BEARER_GRANT,
    assertion: jwt,
    resource: context.discovery.resource,
  });
  if (context.scopes.length > 0) params.set('scope', context.scopes.join(' '));
  const tokens = await requestToken({
    fetch: context.fetch,
    endpoint: metadata.tokenEndpoint,
    issuer: metadata.issuer,
    client,
    jwt: context.jwt,
    params,
    now: context.now(),
    signal: context.signal,
    proof: proofFor(context, metadata.tokenEndpoint),
  });
  return { client, tokens };
}

function proofFor(
  context: GrantContext,
  endpoint: string,
): ((nonce: string | undefined) => Promise<string>) | undefined {
  const { proof } = context;
  return proof && ((nonce) => proof(endpoint, nonce));
}

function clientFor(context: GrantContext, grantTypes: string[]): Promise<RegisteredClient> {
  return resolveClient({
    fetch: context.fetch,
    metadata: context.discovery.metadata,
    preRegistered: context.preRegistered,
    clientMetadataUrl: context.clientMetadataUrl,
    clientName: context.clientName,
    redirectUri: context.redirectUri,
    grantTypes,
    signal: context.signal,
  });
}
