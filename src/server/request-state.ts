// Sealed requestState for multi round-trip requests: HMAC-protected, expiring, bound to the tool, its arguments and
// the caller that started the call (threat B7: a state replayed by another principal is refused).

import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { ErrorCode, RpcError, type JsonObject } from '../jsonrpc/index.js';
import { sha256 } from '../protocol/sha256.js';

/** What the server keeps across rounds: the answers gathered so far, bound to one tool call. */
export interface StatePayload {
  /** tool name */
  t: string;
  /** digest of the arguments */
  d: string;
  /** expiry, ms since the epoch */
  e: number;
  /** digest of the principal (via and subject) the state was issued to */
  p: string;
  /** answers gathered in earlier rounds, by input-request key */
  a: Record<string, unknown>;
  /** middleware's own states (RequestView.requireInput), by the name of the middleware that sealed each */
  m?: Record<string, MiddlewareState>;
}

/** What one middleware sealed into a requestState: its state, and the keys of its input requests (not the handler's). */
export interface MiddlewareState {
  s: JsonObject;
  k: string[];
}

/** The longest requestState accepted back from a client. */
export const MAX_REQUEST_STATE_LENGTH = 1024 * 1024;

/** JSON with object keys sorted, so the same arguments always give the same digest. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return '[' + value.map(canonicalJson).join(',') + ']';
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record).sort();
    return '{' + keys.map((key) => JSON.stringify(key) + ':' + canonicalJson(record[key])).join(',') + '}';
  }
  return JSON.stringify(value) ?? 'null';
}

export const argumentsDigest = (args: unknown): string => sha256(canonicalJson(args), 'base64url');

/**
 * Who a state belongs to: a digest of the caller's `via` and `subject` (the payload is readable by the client, so the
 * subject itself is not written into it). An API key and a token with the same subject are two principals.
 */
export const principalDigest = (caller: { readonly via: string; readonly subject: string }): string =>
  sha256(`${caller.via}\0${caller.subject}`, 'base64url').slice(0, 22);

const rejected = (why: string): RpcError =>
  new RpcError(
    ErrorCode.InvalidParams,
    `Invalid params: requestState ${why}; send the request again without it`,
  );

export class RequestStateCodec {
  readonly #key: Buffer;
  readonly #ttlMs: number;

  /** `key`: the HMAC key (at least 32 bytes); random per process when not given, so set it when running several instances. */
  constructor(key: string | Uint8Array | undefined, ttlMs: number) {
    this.#key = key === undefined ? randomBytes(32) : Buffer.from(key);
    if (this.#key.length < 32) throw new Error('requestState key must be at least 32 bytes');
    this.#ttlMs = ttlMs;
  }

  seal(
    tool: string,
    digest: string,
    principal: string,
    answers: Record<string, unknown>,
    middleware?: Record<string, MiddlewareState>,
  ): string {
    const payload: StatePayload = {
      t: tool,
      d: digest,
      e: Date.now() + this.#ttlMs,
      p: principal,
      a: answers,
    };
    if (middleware !== undefined) payload.m = middleware;
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `tw1.${body}.${this.#mac(body)}`;
  }

  /** Verifies and opens a requestState; anything tampered, expired, bound to another call or caller → -32602. */
  open(token: unknown, tool: string, digest: string, principal: string): StatePayload {
    if (typeof token !== 'string' || token.length > MAX_REQUEST_STATE_LENGTH) throw rejected('is malformed');
    const parts = token.split('.');
    if (parts.length !== 3 || parts[0] !== 'tw1') throw rejected('is malformed');
    const body = parts[1] as string;
    const mac = Buffer.from(parts[2] as string, 'base64url');
    const expected = Buffer.from(this.#mac(body), 'base64url');
    if (mac.length !== expected.length || !timingSafeEqual(mac, expected))
      throw rejected('failed verification');
    let payload: StatePayload;
    try {
      payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as StatePayload; // authenticated above
    } catch {
      throw rejected('is malformed');
    }
    if (typeof payload.e !== 'number' || payload.e < Date.now()) throw rejected('has expired');
    if (payload.t !== tool || payload.d !== digest) throw rejected('belongs to a different call');
    if (payload.p !== principal) throw rejected('was issued to another caller');
    return payload;
  }

  #mac(body: string): string {
    return createHmac('sha256', this.#key).update('tw1.').update(body).digest('base64url');
  }
}
