// Verifying a JWT access token with jose: the algorithm pinned, the key from the issuer's key set, then `iss`,
// `aud` (this resource, RFC 8707), `exp` and `nbf` with the configured skew. `typ` may be at+jwt (RFC 9068) or plain
// JWT. Every failure becomes a message that names what was wrong, never what the token said.

import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { AUDIENCE_REFUSED } from './audience.js';
import { TokenFailure, invalid } from './failure.js';
import { keyProblem, type KeySet } from './key-set.js';
import type { BearerConfig } from './options.js';

/** Three base64url segments (the last may be empty, as alg "none" leaves it): what is tried as a JWT. */
const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;
export const looksLikeJwt = (token: string): boolean => JWT_SHAPE.test(token);

// RFC 9068 §2.1 asks for "at+jwt"; RFC 8725 §3.11 allows the media type in full. Plain JWTs (or no typ) are what
// many authorization servers issue as access tokens.
const ACCEPTED_TYP = new Set(['at+jwt', 'application/at+jwt', 'jwt', 'application/jwt']);

const ISSUER_REFUSED = 'the token was issued by an issuer this resource does not accept';
const CLAIM_PROBLEMS: Readonly<Record<string, string>> = {
  iss: ISSUER_REFUSED,
  aud: AUDIENCE_REFUSED,
  nbf: 'the token is not valid yet ("nbf")',
  exp: 'the token has expired',
  sub: 'the token has no subject ("sub")',
};

/** jose's errors in words for the client. */
function problem(error: unknown): TokenFailure {
  if (error instanceof TokenFailure) return error;
  const fromKeys = keyProblem(error);
  if (fromKeys !== undefined) return fromKeys;
  if (error instanceof errors.JWTExpired) return invalid('the token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return invalid(`the token has no "${error.claim}" claim`);
    return invalid(CLAIM_PROBLEMS[error.claim] ?? `the token's "${error.claim}" claim is not acceptable`);
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return invalid("the token's signing algorithm is not accepted");
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return invalid("the token's signature does not verify");
  }
  return invalid('the token is not a well-formed signed JWT');
}

/**
 * The verified claims of a JWT. `keysFor` gives the key set of the issuer the token names (only called for an
 * accepted issuer, so a token cannot make us fetch keys from anywhere else).
 */
export async function verifyJwt(
  token: string,
  config: BearerConfig,
  keysFor: (issuer: string) => KeySet,
  forThisResource: (aud: unknown) => boolean,
): Promise<JWTPayload> {
  let issuer: unknown;
  try {
    const header = decodeProtectedHeader(token);
    if (header.typ !== undefined && !ACCEPTED_TYP.has(header.typ.toLowerCase())) {
      throw invalid('the token is not an access token ("typ" is neither at+jwt nor JWT)');
    }
    issuer = decodeJwt(token).iss;
  } catch (error) {
    throw problem(error);
  }
  if (typeof issuer !== 'string') throw invalid('the token has no "iss" claim');
  if (!config.issuers.includes(issuer)) throw invalid(ISSUER_REFUSED);
  try {
    const { payload } = await jwtVerify(token, keysFor(issuer).key, {
      algorithms: config.algorithms,
      issuer: [...config.issuers],
      // The audience is checked below, as URLs rather than jose's exact strings.
      clockTolerance: config.clockToleranceSeconds,
      currentDate: new Date(config.now()),
      requiredClaims: ['exp', 'sub', 'aud'],
    });
    if (!forThisResource(payload.aud)) throw invalid(AUDIENCE_REFUSED);
    return payload;
  } catch (error) {
    throw problem(error);
  }
}
