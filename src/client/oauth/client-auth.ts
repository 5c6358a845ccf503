// How the client authenticates at the token endpoint (RFC 6749 §2.3, RFC 7523): secret in a Basic header or the
// body, a signed JWT assertion, or nothing but its id (a public client).

import { randomUUID } from 'node:crypto';
import { SignJWT, importPKCS8, type CryptoKey, type KeyObject } from 'jose';
import { OAuthError } from './errors.js';

export type TokenEndpointAuthMethod =
  'client_secret_basic' | 'client_secret_post' | 'none' | 'private_key_jwt';

export interface RegisteredClient {
  clientId: string;
  clientSecret?: string;
  authMethod: TokenEndpointAuthMethod;
  /** The redirect URIs it was registered with (dynamic registration), to know when to register again. */
  redirectUris?: string[];
  /** How it was obtained: only dynamically registered clients are forgotten and registered again. */
  origin: 'pre-registered' | 'metadata-document' | 'dynamic';
}

export interface PrivateKeyJwt {
  /** A PKCS#8 PEM private key, or a key already imported. */
  privateKey: string | CryptoKey | KeyObject;
  /** The JWS algorithm; ES256 unless said otherwise. */
  algorithm?: string;
}

/** A client assertion is short-lived: it proves possession now, for this one request. */
const ASSERTION_LIFETIME_S = 300;

/** Applies the client's authentication to a token-endpoint request (headers and form parameters). */
export async function authenticateClient(
  client: RegisteredClient,
  params: URLSearchParams,
  headers: Headers,
  audience: string,
  jwt?: PrivateKeyJwt,
): Promise<void> {
  switch (client.authMethod) {
    case 'client_secret_basic': {
      const secret = requireSecret(client);
      // RFC 6749 §2.3.1: both parts are form-urlencoded before being joined.
      const pair = `${formEncode(client.clientId)}:${formEncode(secret)}`;
      headers.set('authorization', `Basic ${Buffer.from(pair, 'utf8').toString('base64')}`);
      return;
    }
    case 'client_secret_post':
      params.set('client_id', client.clientId);
      params.set('client_secret', requireSecret(client));
      return;
    case 'none':
      params.set('client_id', client.clientId);
      return;
    case 'private_key_jwt': {
      if (jwt === undefined) {
        throw new OAuthError('no_client', 'private_key_jwt needs a private key (client.privateKey)');
      }
      params.set('client_id', client.clientId);
      params.set('client_assertion_type', 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer');
      params.set('client_assertion', await clientAssertion(client.clientId, audience, jwt));
      return;
    }
  }
}

function requireSecret(client: RegisteredClient): string {
  if (client.clientSecret === undefined) {
    throw new OAuthError('no_client', `the client authenticates with ${client.authMethod} but has no secret`);
  }
  return client.clientSecret;
}

const formEncode = (text: string): string => new URLSearchParams({ v: text }).toString().slice(2);

/** RFC 7523 §3: iss and sub are the client id, aud the authorization server's issuer. */
export async function clientAssertion(
  clientId: string,
  audience: string,
  jwt: PrivateKeyJwt,
): Promise<string> {
  const algorithm = jwt.algorithm ?? 'ES256';
  const key =
    typeof jwt.privateKey === 'string' ? await importPKCS8(jwt.privateKey, algorithm) : jwt.privateKey;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: algorithm, typ: 'JWT' })
    .setIssuer(clientId)
    .setSubject(clientId)
    .setAudience(audience)
    .setIssuedAt(now)
    .setExpirationTime(now + ASSERTION_LIFETIME_S)
    .setJti(randomUUID())
    .sign(key);
}

/**
 * The method for a client with (or without) a secret, from what the AS supports. RFC 8414 §2: an absent
 * token_endpoint_auth_methods_supported means client_secret_basic.
 */
export function chooseAuthMethod(
  hasSecret: boolean,
  supported: readonly string[] | undefined,
): TokenEndpointAuthMethod {
  if (!hasSecret) return 'none';
  const offered = supported ?? ['client_secret_basic'];
  if (offered.includes('client_secret_basic')) return 'client_secret_basic';
  if (offered.includes('client_secret_post')) return 'client_secret_post';
  return 'client_secret_basic';
}
