// Why a token was not accepted, in words safe to send to the client: never the token, never a claim's value.

import type { Caller } from '../../protocol/index.js';

/** What `verify` answers: a caller, or why not (invalid: 401; unavailable: 503 with Retry-After). */
export type VerifyOutcome =
  | { readonly ok: true; readonly caller: Caller }
  | {
      readonly ok: false;
      readonly reason: 'invalid' | 'unavailable';
      readonly message: string;
      /** For "unavailable": when to try again, in whole seconds. */
      readonly retryAfterSeconds?: number;
    };

/**
 * A token check that did not succeed. "invalid" is the token's fault (the client gets 401 invalid_token);
 * "unavailable" is ours or the authorization server's (503: the token may be fine, we cannot tell now).
 */
export class TokenFailure extends Error {
  readonly reason: 'invalid' | 'unavailable';
  readonly retryAfterSeconds: number;

  constructor(reason: 'invalid' | 'unavailable', message: string, retryAfterSeconds = 0) {
    super(message);
    this.name = 'TokenFailure';
    this.reason = reason;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const invalid = (message: string): TokenFailure => new TokenFailure('invalid', message);

/** Seconds a client waits after the key set or introspection endpoint failed (and we stop asking it). */
export const UNAVAILABLE_RETRY_SECONDS = 5;

export const unavailable = (message: string, retryAfterSeconds = UNAVAILABLE_RETRY_SECONDS): TokenFailure =>
  new TokenFailure('unavailable', message, Math.max(1, Math.ceil(retryAfterSeconds)));
