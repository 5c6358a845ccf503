// From verified claims (a JWT's payload or an introspection answer) to the frozen Caller the pipeline carries:
// subject from `sub`, scopes from `scope` (or `scp`), the client from `client_id` (or `azp`), and a frozen subset of
// the claims. The token itself is never part of it.

import type { Caller } from '../../protocol/index.js';
import { invalid } from './failure.js';

/**
 * The claims a Caller keeps: RFC 9068's access-token claims and RFC 7662's introspection members that describe the
 * grant. Others are left out: a claim set may carry anything, including other tokens (`act`, `cnf`, custom ones).
 */
const KEPT_CLAIMS = [
  'iss',
  'sub',
  'aud',
  'exp',
  'iat',
  'nbf',
  'jti',
  'client_id',
  'azp',
  'scope',
  'auth_time',
  'acr',
  'amr',
  'groups',
  'roles',
  'entitlements',
  'username',
] as const;

const MAX_SCOPES = 256;

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function scopesOf(claims: Readonly<Record<string, unknown>>): string[] {
  const { scope, scp } = claims;
  // RFC 9068 / 7662: `scope` is one space-separated string; some issuers send `scp`, a list (or a string).
  const listed: unknown = scope !== undefined ? scope : scp;
  const list = typeof listed === 'string' ? listed.split(' ') : listed;
  if (list === undefined) return [];
  if (
    (scope !== undefined && typeof scope !== 'string') ||
    !Array.isArray(list) ||
    !list.every((item) => typeof item === 'string')
  ) {
    throw invalid('the token\'s "scope" is not a space-separated string (nor "scp" a list of strings)');
  }
  const scopes = [...new Set(list.filter((item) => item !== ''))];
  if (scopes.length > MAX_SCOPES) throw invalid(`the token grants more than ${MAX_SCOPES} scopes`);
  return scopes;
}

/** The Caller for verified claims; `sub` is required (a token must say whom it is for). */
export function callerFromClaims(claims: Readonly<Record<string, unknown>>): Caller {
  const { sub } = claims;
  if (typeof sub !== 'string' || sub === '') throw invalid('the token has no subject ("sub")');
  const clientId = typeof claims.client_id === 'string' ? claims.client_id : claims.azp;
  const kept: Record<string, unknown> = {};
  for (const name of KEPT_CLAIMS) {
    if (claims[name] !== undefined) kept[name] = structuredClone(claims[name]);
  }
  return Object.freeze({
    subject: sub,
    via: 'bearer',
    scopes: Object.freeze(scopesOf(claims)),
    ...(typeof clientId === 'string' && { clientId }),
    claims: deepFreeze(kept),
  });
}
