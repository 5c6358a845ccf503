// Which client id to use with an authorization server, in the spec's order: pre-registered, a Client ID Metadata
// Document URL when the AS supports them, else dynamic client registration (RFC 7591) as the fallback.

import {
  chooseAuthMethod,
  type PrivateKeyJwt,
  type RegisteredClient,
  type TokenEndpointAuthMethod,
} from './client-auth.js';
import { OAuthError, quoteForeign } from './errors.js';
import { describeOAuthError, readJsonObject, send, type FetchLike, type JsonObject } from './http.js';
import type { AuthorizationServerMetadata } from './metadata.js';
import { isLoopbackHost } from './resource.js';

export interface PreRegisteredClient {
  clientId: string;
  clientSecret?: string;
  /** Defaults from the secret and what the AS supports (client_secret_basic first). */
  authMethod?: TokenEndpointAuthMethod;
  /** The issuer these credentials belong to; without it they are offered to whichever AS the server names. */
  issuer?: string;
}

export interface RegistrationContext {
  fetch: FetchLike;
  metadata: AuthorizationServerMetadata;
  preRegistered: PreRegisteredClient | undefined;
  clientMetadataUrl: string | undefined;
  clientName: string;
  redirectUri: string | undefined;
  grantTypes: string[];
  signal: AbortSignal | undefined;
}

const KNOWN_METHODS: readonly string[] = [
  'client_secret_basic',
  'client_secret_post',
  'none',
  'private_key_jwt',
];

export async function resolveClient(context: RegistrationContext): Promise<RegisteredClient> {
  const { metadata, preRegistered } = context;
  if (
    preRegistered !== undefined &&
    (preRegistered.issuer === undefined || preRegistered.issuer === metadata.issuer)
  ) {
    const authMethod =
      preRegistered.authMethod ??
      chooseAuthMethod(preRegistered.clientSecret !== undefined, metadata.tokenEndpointAuthMethods);
    return {
      clientId: preRegistered.clientId,
      ...(preRegistered.clientSecret !== undefined && { clientSecret: preRegistered.clientSecret }),
      authMethod,
      origin: 'pre-registered',
    };
  }
  if (context.clientMetadataUrl !== undefined && metadata.clientIdMetadataDocumentSupported) {
    return { clientId: context.clientMetadataUrl, authMethod: 'none', origin: 'metadata-document' };
  }
  if (metadata.registrationEndpoint !== undefined) return register(context, metadata.registrationEndpoint);
  throw new OAuthError(
    'no_client',
    `the authorization server ${quoteForeign(metadata.issuer)} supports neither client ID metadata documents nor dynamic registration: configure a pre-registered client id`,
  );
}

function applicationType(redirectUri: string | undefined): 'native' | 'web' {
  if (redirectUri === undefined || !URL.canParse(redirectUri)) return 'native';
  const url = new URL(redirectUri);
  return url.protocol === 'https:' && !isLoopbackHost(url.hostname) ? 'web' : 'native';
}

async function register(context: RegistrationContext, endpoint: string): Promise<RegisteredClient> {
  const { metadata } = context;
  const supported = metadata.tokenEndpointAuthMethods;
  // A native app keeps no secret well; ask for a public client when the AS allows one.
  const wanted: TokenEndpointAuthMethod =
    supported === undefined || supported.includes('none') ? 'none' : chooseAuthMethod(true, supported);
  const body = {
    client_name: context.clientName,
    ...(context.redirectUri !== undefined && { redirect_uris: [context.redirectUri] }),
    grant_types: context.grantTypes,
    response_types: context.grantTypes.includes('authorization_code') ? ['code'] : [],
    token_endpoint_auth_method: wanted,
    // MCP 2026-07-28: clients MUST say. A loopback or custom-scheme redirect is a native app; https is the web.
    application_type: applicationType(context.redirectUri),
  };
  const response = await send(
    context.fetch,
    endpoint,
    {
      method: 'POST',
      redirect: 'error',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      ...(context.signal && { signal: context.signal }),
    },
    'dynamic client registration',
  );
  let answer: JsonObject | undefined;
  try {
    answer = await readJsonObject(response, 'the registration response');
  } catch (error) {
    if (response.ok) throw error;
  }
  if (!response.ok) {
    throw new OAuthError(
      'no_client',
      `dynamic client registration at ${endpoint} was refused: ${describeOAuthError(answer, response.status)}`,
    );
  }
  const registered = answer as JsonObject; // a 2xx whose body failed to parse has thrown above
  if (typeof registered.client_id !== 'string' || registered.client_id === '') {
    throw new OAuthError('invalid_metadata', 'the registration response has no client_id');
  }
  const secret = typeof registered.client_secret === 'string' ? registered.client_secret : undefined;
  const method = registered.token_endpoint_auth_method;
  // The answer says how the client was registered; when it is silent, it was registered as asked.
  const authMethod =
    typeof method === 'string' &&
    KNOWN_METHODS.includes(method) &&
    (method === 'none' || secret !== undefined)
      ? (method as TokenEndpointAuthMethod) // KNOWN_METHODS holds exactly these
      : wanted === 'none' || secret !== undefined
        ? wanted
        : 'none';
  return {
    clientId: registered.client_id,
    ...(secret !== undefined && { clientSecret: secret }),
    authMethod,
    ...(context.redirectUri !== undefined && { redirectUris: [context.redirectUri] }),
    origin: 'dynamic',
  };
}

/** The configured client as registration sees it: a private key means private_key_jwt unless said otherwise. */
export function preRegisteredFrom(
  client: (PreRegisteredClient & Partial<PrivateKeyJwt>) | undefined,
): PreRegisteredClient | undefined {
  if (client === undefined) return undefined;
  const { privateKey: _key, algorithm: _alg, ...rest } = client;
  return client.privateKey !== undefined && rest.authMethod === undefined
    ? { ...rest, authMethod: 'private_key_jwt' }
    : rest;
}

/** The key a private_key_jwt client signs its assertions with, when it has one. */
export function privateKeyFrom(
  client: (PreRegisteredClient & Partial<PrivateKeyJwt>) | undefined,
): PrivateKeyJwt | undefined {
  if (client?.privateKey === undefined) return undefined;
  return {
    privateKey: client.privateKey,
    ...(client.algorithm !== undefined && { algorithm: client.algorithm }),
  };
}
