// API key records (what a keys file or the `keys` option holds: an id, a subject, scopes and a hash, never a key)
// and their validation: every mistake is reported with the record's index and the member at fault.

import { KEY_HASH, KEY_ID } from './key-format.js';

/** One API key as stored: who it stands for, what it grants, and the hash of the key (the key itself is not kept). */
export interface ApiKeyRecord {
  /** The public part of the key (`twk_<id>_…`): lists and logs name a key by it. */
  readonly id: string;
  /** The principal the key authenticates as (Caller.subject). */
  readonly subject: string;
  /** What the key grants (Caller.scopes). */
  readonly scopes: readonly string[];
  /** "sha256:" and the base64url SHA-256 digest of the whole key. */
  readonly hash: string;
  /** When the key was made (ISO 8601). */
  readonly created?: string;
  /** A note for people: what the key is for, who holds it. */
  readonly label?: string;
  /** After this instant (ISO 8601) the key is refused. */
  readonly expires?: string;
}

/** A keys file or `keys` option that cannot be used as it is; the message names the record and the member. */
export class ApiKeysError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiKeysError';
  }
}

/** More keys than this in one set is a mistake (or an attack on memory), not a deployment. */
export const MAX_KEYS = 100_000;
const MAX_SUBJECT = 256;
const MAX_LABEL = 256;
const MAX_SCOPES = 64;
const MAX_SCOPE = 128;

/** RFC 6749 §3.3 scope-token: visible ASCII except space, `"` and `\`. */
export const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** An ISO 8601 date, or date-time with seconds optional and a zone (Z or ±hh:mm). */
const ISO_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d))?$/;

const MEMBERS = ['id', 'subject', 'scopes', 'hash', 'created', 'label', 'expires'] as const;

// eslint-disable-next-line no-control-regex -- refusing control characters is the point
const CONTROL = /[\x00-\x1f\x7f]/;

const describe = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/** The instant an ISO 8601 time names, or undefined when it is not one. */
export function isoInstant(value: string): number | undefined {
  const match = ISO_TIME.exec(value);
  if (match === null) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // Date.parse rolls "02-30" over into March: the day must exist in its month.
  if (month < 1 || month > 12 || day < 1 || day > new Date(Date.UTC(year, month, 0)).getUTCDate())
    return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Problems with a subject, or undefined. */
export function subjectProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
  if (value.trim() === '') return 'must not be empty';
  if (value.length > MAX_SUBJECT) return `must be at most ${MAX_SUBJECT} characters`;
  if (CONTROL.test(value)) return 'must not contain control characters';
  return undefined;
}

/** Problems with a scope list, or undefined. */
export function scopesProblem(value: unknown): string | undefined {
  if (!Array.isArray(value)) return `must be an array of scope strings, got ${describe(value)}`;
  if (value.length > MAX_SCOPES) return `must hold at most ${MAX_SCOPES} scopes`;
  const seen = new Set<string>();
  for (const [i, scope] of value.entries()) {
    if (typeof scope !== 'string') return `[${i}] must be a string, got ${describe(scope)}`;
    if (scope.length > MAX_SCOPE || !SCOPE.test(scope)) {
      return `[${i}] ${JSON.stringify(scope.slice(0, MAX_SCOPE))} is not a scope: use 1 to ${MAX_SCOPE} visible ASCII characters other than space, '"' and '\\' (RFC 6749)`;
    }
    if (seen.has(scope)) return `[${i}] ${JSON.stringify(scope)} is listed twice`;
    seen.add(scope);
  }
  return undefined;
}

/** Problems with a label, or undefined. */
export function labelProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
  if (value.length > MAX_LABEL) return `must be at most ${MAX_LABEL} characters`;
  if (CONTROL.test(value)) return 'must not contain control characters';
  return undefined;
}

/** Problems with an ISO 8601 time, or undefined. */
export function timeProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be an ISO 8601 time string, got ${describe(value)}`;
  if (isoInstant(value) === undefined)
    return `${JSON.stringify(value.slice(0, 40))} is not an ISO 8601 time like "2027-01-31T12:00:00Z"`;
  return undefined;
}

function idProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
  if (!KEY_ID.test(value))
    return `${JSON.stringify(value.slice(0, 70))} is not a key id: 12 to 64 letters, digits or "-"`;
  return undefined;
}

function hashProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return `must be a string, got ${describe(value)}`;
  // Never quote it: a pasted key in this place would be copied into an error message and a log.
  if (!KEY_HASH.test(value))
    return 'must be "sha256:" and 43 base64url characters (a key\'s hash, never the key)';
  return undefined;
}

const CHECKS: Record<(typeof MEMBERS)[number], (value: unknown) => string | undefined> = {
  id: idProblem,
  subject: subjectProblem,
  scopes: scopesProblem,
  hash: hashProblem,
  created: timeProblem,
  label: labelProblem,
  expires: timeProblem,
};
const REQUIRED: ReadonlySet<string> = new Set(['id', 'subject', 'scopes', 'hash']);

/** One record, checked; `where` names it in messages ("keys file /x/keys.json: keys[3]"). */
function checkRecord(value: unknown, where: string): ApiKeyRecord {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ApiKeysError(
      `${where} must be an object { id, subject, scopes, hash }, got ${describe(value)}`,
    );
  for (const key of Object.keys(value)) {
    if (!(MEMBERS as readonly string[]).includes(key)) {
      throw new ApiKeysError(
        `${where}: unknown member ${JSON.stringify(key.slice(0, 40))}; a key record has ${MEMBERS.join(', ')}`,
      );
    }
  }
  const record = value as Record<string, unknown>; // an object with known member names only, checked above
  for (const member of MEMBERS) {
    const given = record[member];
    if (given === undefined) {
      if (REQUIRED.has(member)) throw new ApiKeysError(`${where}.${member} is missing`);
      continue;
    }
    const problem = CHECKS[member](given);
    if (problem !== undefined)
      throw new ApiKeysError(`${where}.${member}${problem.startsWith('[') ? '' : ' '}${problem}`);
  }
  return value as ApiKeyRecord; // every member checked above
}

/**
 * Checks a list of records (from a file or the `keys` option) and returns frozen copies; duplicate ids are refused.
 * `source` names where they came from in every message.
 */
export function checkRecords(value: unknown, source: string): readonly ApiKeyRecord[] {
  if (!Array.isArray(value)) throw new ApiKeysError(`${source}: "keys" must be an array of key records`);
  if (value.length > MAX_KEYS) throw new ApiKeysError(`${source}: more than ${MAX_KEYS} keys`);
  const seen = new Map<string, number>();
  return Object.freeze(
    value.map((item: unknown, index) => {
      const where = `${source}: keys[${index}]`;
      const record = checkRecord(item, where);
      const first = seen.get(record.id);
      if (first !== undefined)
        throw new ApiKeysError(`${where}.id "${record.id}" is already the id of keys[${first}]`);
      seen.set(record.id, index);
      return freezeRecord(record);
    }),
  );
}

/** A frozen copy with only the known members (and the optional ones only when set). */
export function freezeRecord(record: ApiKeyRecord): ApiKeyRecord {
  return Object.freeze({
    id: record.id,
    subject: record.subject,
    scopes: Object.freeze([...record.scopes]),
    hash: record.hash,
    ...(record.created !== undefined && { created: record.created }),
    ...(record.label !== undefined && { label: record.label }),
    ...(record.expires !== undefined && { expires: record.expires }),
  });
}
