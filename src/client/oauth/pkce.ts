// PKCE (RFC 7636) with S256, and the random state value of an authorization request.

import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
}

/** 32 random bytes give a 43-character verifier, the RFC's minimum length and 256 bits of entropy. */
export function createPkce(): Pkce {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: s256(verifier) };
}

export const s256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

export const randomState = (): string => randomBytes(24).toString('base64url');
