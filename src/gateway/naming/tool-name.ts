// Exposed names: the spec's tool-name rules, the 64-character budget, and the short alias of a name over it.

import { createHash } from 'node:crypto';
import { MAX_SERVER_NAME_LENGTH, SEPARATOR } from './server-name.js';

/** The longest exposed name; hosts prefix names again (`mcp_{server}__{tool}`) and model APIs stop at 64. */
export const MAX_NAME_LENGTH = 64;
/** The spec's tool names (2025-11-25 and 2026-07-28, server/tools "Tool Names"): 1–128 of these characters. */
export const MAX_SPEC_NAME_LENGTH = 128;
const SPEC_NAME = /^[A-Za-z0-9_.-]+$/;
const OUTSIDE_CHARSET = /[^A-Za-z0-9_.-]/g;
const HASH_CHARS = 8;
/** An alias keeps at least this many characters of the readable name: see minimumNameLength. */
const MIN_READABLE = 4;

/** Whether a name follows the spec's tool-name rules (used for renames and, through them, exposed names). */
export const isSpecToolName = (name: unknown): name is string =>
  typeof name === 'string' && name.length <= MAX_SPEC_NAME_LENGTH && SPEC_NAME.test(name);

/** `server___name`, when that is a valid name within the budget; undefined when the name needs an alias. */
export function plainExposedName(server: string, name: string, maxLength: number): string | undefined {
  const exposed = `${server}${SEPARATOR}${name}`;
  return name.length > 0 && exposed.length <= maxLength && SPEC_NAME.test(name) ? exposed : undefined;
}

/** Why a name gets an alias, for the report (the name itself is shown by the caller). */
export function aliasReason(server: string, name: string, maxLength: number): string {
  if (name.length === 0) return 'its name is empty';
  const length = server.length + SEPARATOR.length + name.length;
  if (length > maxLength)
    return `${server}${SEPARATOR}… would be ${length} characters, over the ${maxLength} allowed`;
  return 'its name has characters outside A-Z, a-z, 0-9, "_", "-" and "."';
}

/** 8 hex characters of SHA-256 over server and name (NUL between: a server name never holds one). */
const aliasHash = (server: string, name: string): string =>
  createHash('sha256').update(`${server}\u0000${name}`, 'utf8').digest('hex').slice(0, HASH_CHARS);

/**
 * The alias of a name that cannot be exposed as it is: `server___` + the start of the name (characters outside the
 * spec's set become "_") + `_` + 8 hex characters of SHA-256 over server and name. It depends on nothing but the
 * server, the name and the budget, so it is the same on every run and whatever else the upstreams list.
 */
export function aliasName(server: string, name: string, maxLength: number): string {
  const hash = aliasHash(server, name);
  const room = maxLength - server.length - SEPARATOR.length - 1 - HASH_CHARS;
  // Cut before replacing: a 10 MB name costs no more than a short one here (the hash still reads it once).
  const readable = name
    .slice(0, Math.max(room, 0))
    .replace(OUTSIDE_CHARSET, '_')
    .replace(/[_.-]+$/, '');
  return readable === '' ? `${server}${SEPARATOR}${hash}` : `${server}${SEPARATOR}${readable}_${hash}`;
}

/** The smallest budget that still leaves a readable piece of a name after the longest server name. */
export const minimumNameLength = (maxServerNameLength: number): number =>
  maxServerNameLength + SEPARATOR.length + MIN_READABLE + 1 + HASH_CHARS;

export interface NamingOptions {
  /** The exposed-name budget, 48..128 (default 64): lower it to leave room for a host's own prefix. */
  maxLength?: number;
}

/** The budget asked for, checked: below 48 an alias after a 32-character server name would have nothing readable. */
export function nameBudget(options?: NamingOptions): number {
  const maxLength = options?.maxLength ?? MAX_NAME_LENGTH;
  const least = minimumNameLength(MAX_SERVER_NAME_LENGTH);
  if (!Number.isInteger(maxLength) || maxLength < least || maxLength > MAX_SPEC_NAME_LENGTH) {
    throw new RangeError(`maxLength must be an integer from ${least} to ${MAX_SPEC_NAME_LENGTH}`);
  }
  return maxLength;
}
