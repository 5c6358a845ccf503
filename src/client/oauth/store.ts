// Where an OAuth client keeps what it obtained for one MCP server: the authorization server it used, the client
// registration there, and the tokens. The CLI keeps it in a 0600 file; the default keeps it in memory.

import type { RegisteredClient, TokenEndpointAuthMethod } from './client-auth.js';
import { isObject } from './http.js';
import type { TokenSet } from './tokens.js';

export interface StoredAuthorization {
  version: 1;
  /** The canonical URI of the MCP server this belongs to. */
  server: string;
  /** The resource indicator tokens were requested for (RFC 8707). */
  resource: string;
  /** The authorization server's issuer: client and tokens are bound to it and dropped when it changes. */
  issuer: string;
  tokenEndpoint: string;
  revocationEndpoint?: string;
  client: RegisteredClient;
  /** The scopes asked for: a step-up asks for these plus the challenged ones. */
  scopes: string[];
  tokens?: TokenSet;
  /** The private key (EC P-256 JWK) a DPoP-bound token is bound to; without it such a token is useless. */
  dpopKey?: Record<string, string>;
}

export interface OAuthStore {
  load(): Promise<StoredAuthorization | undefined>;
  save(value: StoredAuthorization): Promise<void>;
  clear(): Promise<void>;
}

export class MemoryOAuthStore implements OAuthStore {
  #value: StoredAuthorization | undefined;

  async load(): Promise<StoredAuthorization | undefined> {
    return this.#value && structuredClone(this.#value);
  }

  async save(value: StoredAuthorization): Promise<void> {
    this.#value = structuredClone(value);
  }

  async clear(): Promise<void> {
    this.#value = undefined;
  }
}

const METHODS: readonly TokenEndpointAuthMethod[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
  'private_key_jwt',
];
const ORIGINS: readonly RegisteredClient['origin'][] = ['pre-registered', 'metadata-document', 'dynamic'];
const str = (v: unknown): v is string => typeof v === 'string' && v !== '';
const strings = (v: unknown): v is string[] =>
  Array.isArray(v) && v.length <= 256 && v.every((s) => typeof s === 'string');

/** A stored record read back from disk (or anywhere untrusted): the value when every field is sound, else undefined. */
export function parseStoredAuthorization(value: unknown): StoredAuthorization | undefined {
  if (!isObject(value) || value.version !== 1) return undefined;
  const { server, resource, issuer, tokenEndpoint, revocationEndpoint, client, scopes, tokens, dpopKey } =
    value;
  if (!str(server) || !str(resource) || !str(issuer) || !str(tokenEndpoint) || !strings(scopes))
    return undefined;
  if (revocationEndpoint !== undefined && !str(revocationEndpoint)) return undefined;
  if (!isObject(client) || !str(client.clientId)) return undefined;
  if (!METHODS.includes(client.authMethod as TokenEndpointAuthMethod)) return undefined;
  if (!ORIGINS.includes(client.origin as RegisteredClient['origin'])) return undefined;
  if (client.clientSecret !== undefined && !str(client.clientSecret)) return undefined;
  if (client.redirectUris !== undefined && !strings(client.redirectUris)) return undefined;
  let tokenSet: TokenSet | undefined;
  if (tokens !== undefined) {
    if (!isObject(tokens) || !str(tokens.accessToken) || !str(tokens.tokenType)) return undefined;
    if (tokens.refreshToken !== undefined && !str(tokens.refreshToken)) return undefined;
    if (tokens.expiresAt !== undefined && typeof tokens.expiresAt !== 'number') return undefined;
    if (tokens.scope !== undefined && typeof tokens.scope !== 'string') return undefined;
    tokenSet = tokens as unknown as TokenSet; // every field checked just above
  }
  // The `as string`s below are checked by the `every` just before them.
  const key =
    isObject(dpopKey) &&
    dpopKey.kty === 'EC' &&
    dpopKey.crv === 'P-256' &&
    ['x', 'y', 'd'].every((name) => str(dpopKey[name]))
      ? { kty: 'EC', crv: 'P-256', x: dpopKey.x as string, y: dpopKey.y as string, d: dpopKey.d as string }
      : undefined;
  if (dpopKey !== undefined && key === undefined) return undefined;
  return {
    version: 1,
    server,
    resource,
    issuer,
    tokenEndpoint,
    ...(revocationEndpoint !== undefined && { revocationEndpoint }),
    client: client as unknown as RegisteredClient, // every field checked above
    scopes,
    ...(tokenSet !== undefined && { tokens: tokenSet }),
    ...(key !== undefined && { dpopKey: key }),
  };
}
