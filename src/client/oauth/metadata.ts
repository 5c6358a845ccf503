// The two metadata documents OAuth discovery reads, validated at the boundary: RFC 9728 and RFC 8414.

import { OAuthError, quoteForeign } from './errors.js';
import { type JsonObject } from './http.js';
import { endpointUrl } from './resource.js';

export interface ProtectedResourceMetadata {
  resource: string;
  authorizationServers: string[];
  scopesSupported?: string[];
}

export interface AuthorizationServerMetadata {
  issuer: string;
  authorizationEndpoint?: string;
  tokenEndpoint: string;
  registrationEndpoint?: string;
  revocationEndpoint?: string;
  scopesSupported?: string[];
  codeChallengeMethods?: string[];
  tokenEndpointAuthMethods?: string[];
  grantTypes?: string[];
  clientIdMetadataDocumentSupported: boolean;
  issParameterSupported: boolean;
  dpopSigningAlgs?: string[];
}

/** A bound on list-valued metadata: real servers list a handful of scopes or methods. */
const MAX_LIST = 256;

function stringList(doc: JsonObject, key: string, what: string): string[] | undefined {
  const value = doc[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length > MAX_LIST || !value.every((v) => typeof v === 'string')) {
    throw new OAuthError('invalid_metadata', `${what}: "${key}" must be an array of strings`);
  }
  return value as string[]; // every element checked just above
}

export function parseResourceMetadata(doc: JsonObject, where: string): ProtectedResourceMetadata {
  const what = `the protected resource metadata at ${where}`;
  if (typeof doc.resource !== 'string' || doc.resource === '') {
    throw new OAuthError('invalid_metadata', `${what} has no "resource"`);
  }
  const servers = stringList(doc, 'authorization_servers', what);
  if (servers === undefined || servers.length === 0) {
    throw new OAuthError('invalid_metadata', `${what} names no "authorization_servers"`);
  }
  for (const server of servers) endpointUrl(server, `${what}: authorization server ${quoteForeign(server)}`);
  const scopes = stringList(doc, 'scopes_supported', what);
  return {
    resource: doc.resource,
    authorizationServers: servers,
    ...(scopes && { scopesSupported: scopes }),
  };
}

/**
 * Validates an AS metadata document found for `issuer`: the issuer must be identical (simple string comparison,
 * RFC 8414 §3.3), the endpoints absolute https URLs (http on loopback).
 */
export function parseServerMetadata(
  doc: JsonObject,
  issuer: string,
  where: string,
): AuthorizationServerMetadata {
  const what = `the authorization server metadata at ${where}`;
  if (doc.issuer !== issuer) {
    throw new OAuthError(
      'issuer_mismatch',
      `${what} is for issuer ${quoteForeign(doc.issuer)}, not ${quoteForeign(issuer)}: refusing to use it`,
    );
  }
  const optionalEndpoint = (key: string): string | undefined =>
    doc[key] === undefined ? undefined : endpointUrl(doc[key], `${what}: "${key}"`).href;
  const authorizationEndpoint = optionalEndpoint('authorization_endpoint');
  const tokenEndpoint = optionalEndpoint('token_endpoint');
  if (tokenEndpoint === undefined)
    throw new OAuthError('invalid_metadata', `${what} has no "token_endpoint"`);
  const registrationEndpoint = optionalEndpoint('registration_endpoint');
  const revocationEndpoint = optionalEndpoint('revocation_endpoint');
  const scopesSupported = stringList(doc, 'scopes_supported', what);
  const codeChallengeMethods = stringList(doc, 'code_challenge_methods_supported', what);
  const tokenEndpointAuthMethods = stringList(doc, 'token_endpoint_auth_methods_supported', what);
  const grantTypes = stringList(doc, 'grant_types_supported', what);
  const dpopSigningAlgs = stringList(doc, 'dpop_signing_alg_values_supported', what);
  return {
    issuer,
    tokenEndpoint,
    ...(authorizationEndpoint && { authorizationEndpoint }),
    ...(registrationEndpoint && { registrationEndpoint }),
    ...(revocationEndpoint && { revocationEndpoint }),
    ...(scopesSupported && { scopesSupported }),
    ...(codeChallengeMethods && { codeChallengeMethods }),
    ...(tokenEndpointAuthMethods && { tokenEndpointAuthMethods }),
    ...(grantTypes && { grantTypes }),
    ...(dpopSigningAlgs && { dpopSigningAlgs }),
    clientIdMetadataDocumentSupported: doc.client_id_metadata_document_supported === true,
    issParameterSupported: doc.authorization_response_iss_parameter_supported === true,
  };
}
