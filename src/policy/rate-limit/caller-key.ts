// Who a rate limit counts against: the verified caller, or for an anonymous caller the client's address group (F2).

import { createHash } from 'node:crypto';
import type { Caller } from '../../protocol/index.js';
import { addressBucket } from '../../transports/http/client-address.js';

/** Keys longer than this (a very long subject) are stored as a digest, so one key costs a bounded number of bytes. */
const MAX_KEY_LENGTH = 256;

/**
 * The key every bucket of this caller counts under: `${via}:${subject}`, so the same subject established two ways
 * (a bearer token, an API key) is two principals. An anonymous caller has no identity worth the name, so it is its
 * address group: an IPv4 address, an IPv6 /64, all of loopback as one ("anonymous:loopback"), "anonymous:unknown"
 * without an address. Nothing a client can rotate (connections, source ports, sessions, client ids, a fresh
 * initialize) is part of the key, so none of them resets a bucket.
 */
export function callerKey(caller: Caller, remoteAddress?: string): string {
  if (caller.via === 'anonymous') return keyOf(caller, remoteAddress);
  // An identified caller's object lives as long as its cached token or session: its key is made once.
  let key = keys.get(caller);
  if (key === undefined) keys.set(caller, (key = keyOf(caller, remoteAddress)));
  return key;
}

const keys = new WeakMap<Caller, string>();

function keyOf(caller: Caller, remoteAddress: string | undefined): string {
  const key =
    caller.via === 'anonymous'
      ? `anonymous:${addressBucket(remoteAddress) ?? 'unknown'}`
      : `${caller.via}:${caller.subject}`;
  if (key.length <= MAX_KEY_LENGTH) return key;
  return `${caller.via.slice(0, 32)}:#${createHash('sha256').update(key).digest('base64url')}`;
}
