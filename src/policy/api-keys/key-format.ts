// The shape of an API key (`twk_<id>_<secret>`), how a new one is made, and the only form that is ever stored: a
// SHA-256 digest of the whole key, compared in constant time.

import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** Every key starts with this: a composition routes such tokens to API keys, never to an OAuth server. */
export const KEY_PREFIX = 'twk_';

/** A key id: letters, digits and "-" (never "_", which ends the id), 12 to 64 characters. */
export const KEY_ID = /^[A-Za-z0-9-]{12,64}$/;

/** The secret: 32 random bytes in unpadded base64url, 43 characters (256 bits). */
const SECRET = /^[A-Za-z0-9_-]{43}$/;

/** A stored hash: "sha256:" and the unpadded base64url of a 32-byte digest. */
export const KEY_HASH = /^sha256:[A-Za-z0-9_-]{43}$/;

/** Longer than any well-formed key: refused before it is hashed. */
export const MAX_KEY_LENGTH = KEY_PREFIX.length + 64 + 1 + 43;

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const ID_LENGTH = 16; // 62^16 ≈ 2^95: ids never collide in practice, and are not secret anyway

/** A fresh random key id (uniform over the alphabet: randomInt does not skew as `byte % 62` would). */
export function newKeyId(): string {
  let id = '';
  for (let i = 0; i < ID_LENGTH; i++) id += ID_ALPHABET[randomInt(ID_ALPHABET.length)];
  return id;
}

/** A fresh key for `id`, whose secret part is 256 random bits. */
export function newKey(id: string): string {
  return `${KEY_PREFIX}${id}_${randomBytes(32).toString('base64url')}`;
}

/** The digest of a whole key; hashing the id with the secret ties a stored hash to its record. */
export const keyDigest = (key: string): Buffer => createHash('sha256').update(key, 'utf8').digest();

/** The stored form of a key: "sha256:<base64url digest>". */
export const hashKey = (key: string): string => `sha256:${keyDigest(key).toString('base64url')}`;

/** The 32 digest bytes of a stored hash (checked with KEY_HASH beforehand). */
export const hashDigest = (hash: string): Buffer => Buffer.from(hash.slice('sha256:'.length), 'base64url');

/**
 * The id of a well-formed key, or undefined. Only the shape is checked here; whether the key is real is decided by
 * one digest comparison against the record of that id.
 */
export function keyIdOf(key: string): string | undefined {
  if (key.length > MAX_KEY_LENGTH || !key.startsWith(KEY_PREFIX)) return undefined;
  const end = key.indexOf('_', KEY_PREFIX.length);
  if (end === -1) return undefined;
  const id = key.slice(KEY_PREFIX.length, end);
  return KEY_ID.test(id) && SECRET.test(key.slice(end + 1)) ? id : undefined;
}

/** Whether `key` hashes to `digest`: equal-length digests compared with timingSafeEqual. */
export const digestMatches = (key: string, digest: Buffer): boolean =>
  timingSafeEqual(keyDigest(key), digest);
