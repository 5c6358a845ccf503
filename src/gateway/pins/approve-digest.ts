// What `toolwire pins approve … --digest` checks, for tools and servers alike: the digest the admin read in the
// diff is the one waiting, so an approval never adopts a definition that moved on after it was read.

import { PinError } from './types.js';

/** The first 12 hex digits of a digest, "none" for the empty digest of a never-approved entry. */
export const shortDigest = (digest: string): string => (digest === '' ? 'none' : digest.slice(0, 12));

/**
 * Throws PinError('digest-mismatch') unless `expected` (when given) is 8 to 64 hex digits starting the pending
 * digest. `name` and `what` word the message: "fs___read" and "pending", or "fs" and "configured".
 */
export function checkExpectedDigest(
  name: string,
  what: string,
  pending: string,
  expected: string | undefined,
): void {
  if (expected === undefined) return;
  if (!/^[0-9a-f]{8,64}$/i.test(expected)) {
    throw new PinError(
      'digest-mismatch',
      `a digest is 8 to 64 hex digits (the start of the sha256 the diff shows); got ${JSON.stringify(expected.slice(0, 80))}`,
    );
  }
  if (!pending.startsWith(expected.toLowerCase())) {
    throw new PinError(
      'digest-mismatch',
      `${name} changed again: its ${what} definition is sha256 ${shortDigest(pending)}, not ${expected}; read the diff again`,
    );
  }
}
