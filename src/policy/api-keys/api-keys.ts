// API keys as an HTTP authenticator, for deployments without an authorization server: a `twk_<id>_<secret>` key
// is looked up by its id and checked with one constant-time digest comparison; a good key becomes the same frozen
// Caller every time; anything else is one 401 that does not say which part was wrong.

import { randomBytes } from 'node:crypto';
import type { Caller } from '../../protocol/index.js';
import type { HttpChallenge, HttpRequestInfo } from '../../transports/http/index.js';
import { presentedCredential, quoteParameter } from '../credentials.js';
import { KEY_PREFIX, digestMatches, hashDigest, hashKey, keyIdOf, newKey, newKeyId } from './key-format.js';
import { readKeysFile, readKeysFileSync } from './keys-file.js';
import {
  ApiKeysError,
  checkRecords,
  isoInstant,
  labelProblem,
  scopesProblem,
  subjectProblem,
  timeProblem,
  type ApiKeyRecord,
} from './records.js';

export interface ApiKeysOptions {
  /** Key records given in code or config (checked as a keys file's are). */
  keys?: readonly ApiKeyRecord[];
  /** A keys file `{ "keys": [records] }`, owned by this user and writable by no one else; `reload()` re-reads it. */
  file?: string;
  /** Also accept the key in `X-API-Key` (the default), or only in `Authorization: Bearer` (false). */
  headerName?: 'x-api-key' | false;
  /** The clock that decides expiry (milliseconds since the epoch). Default Date.now. */
  now?: () => number;
}

export interface ApiKeys {
  /**
   * The HTTP edge hook (an HttpAuthenticate, synchronous): a key in `Authorization: Bearer` or `X-API-Key` → its
   * Caller; otherwise a 401.
   */
  readonly authenticate: (request: HttpRequestInfo) => Caller | HttpChallenge;
  /** Whether a token is meant for API keys (starts with "twk_"), so a composition never sends it to an OAuth server. */
  owns(token: string): boolean;
  /** The Caller of a valid, unexpired key, the same frozen object every time; undefined for anything else. */
  verify(token: string): Caller | undefined;
  /** Re-reads the keys file (the `keys` option stays); on any error the keys in use stay and the error is thrown. */
  reload(): Promise<void>;
  /** How many keys are in use. */
  readonly size: number;
}

/** A key as the hot path needs it: the digest to compare, the expiry instant, the Caller to hand out. */
interface LoadedKey {
  readonly record: ApiKeyRecord;
  readonly digest: Buffer;
  readonly expires: number;
  readonly caller: Caller;
}

type Outcome = { readonly caller: Caller } | 'expired' | 'invalid';

const REALM = 'Bearer realm="mcp"';
const INVALID: HttpChallenge = Object.freeze({
  status: 401,
  headers: Object.freeze({ 'WWW-Authenticate': `${REALM}, error="invalid_token"` }),
  message: 'Unauthorized: the API key is not valid',
});
const EXPIRED: HttpChallenge = Object.freeze({
  status: 401,
  headers: Object.freeze({
    'WWW-Authenticate': `${REALM}, error="invalid_token", error_description="the API key has expired"`,
  }),
  message: 'Unauthorized: the API key has expired',
});
const MISSING: HttpChallenge = Object.freeze({
  status: 401,
  headers: Object.freeze({ 'WWW-Authenticate': REALM }),
  message: 'Unauthorized: this server needs an API key (Authorization: Bearer twk_…)',
});

/** Compared against when the id is unknown, so an unknown id costs what a wrong secret costs. */
const DECOY = randomBytes(32);

const sameRecord = (a: ApiKeyRecord, b: ApiKeyRecord): boolean =>
  a.id === b.id &&
  a.subject === b.subject &&
  a.hash === b.hash &&
  a.label === b.label &&
  a.expires === b.expires &&
  a.scopes.length === b.scopes.length &&
  a.scopes.every((scope, i) => scope === b.scopes[i]);

function loadKey(record: ApiKeyRecord, previous: LoadedKey | undefined): LoadedKey {
  // An unchanged key keeps its Caller across reloads: caches of a caller's visible list key on the object.
  if (previous !== undefined && sameRecord(previous.record, record)) return previous;
  const caller: Caller = Object.freeze({
    subject: record.subject,
    via: 'api-key',
    scopes: record.scopes, // frozen by checkRecords
    claims: Object.freeze({ keyId: record.id, ...(record.label !== undefined && { label: record.label }) }),
  });
  return {
    record,
    digest: hashDigest(record.hash),
    expires: record.expires === undefined ? Infinity : (isoInstant(record.expires) ?? -Infinity),
    caller,
  };
}

class ApiKeySet implements ApiKeys {
  readonly #inline: readonly ApiKeyRecord[];
  readonly #file: string | undefined;
  readonly #header: boolean;
  readonly #now: () => number;
  #keys: ReadonlyMap<string, LoadedKey> = new Map();

  constructor(options: ApiKeysOptions, inline: readonly ApiKeyRecord[], fromFile: readonly ApiKeyRecord[]) {
    this.#inline = inline;
    this.#file = options.file;
    this.#header = options.headerName !== false;
    this.#now = options.now ?? Date.now;
    this.#install(fromFile);
  }

  /** Swaps in a new key set at once (a request sees the old set or the new one, never a mix). */
  #install(fromFile: readonly ApiKeyRecord[]): void {
    const next = new Map<string, LoadedKey>();
    for (const record of this.#inline) next.set(record.id, loadKey(record, this.#keys.get(record.id)));
    for (const record of fromFile) {
      if (next.has(record.id)) {
        throw new ApiKeysError(
          `keys file ${this.#file}: the key id "${record.id}" is also in the keys option; an id names one key`,
        );
      }
      next.set(record.id, loadKey(record, this.#keys.get(record.id)));
    }
    this.#keys = next;
  }

  get size(): number {
    return this.#keys.size;
  }

  owns(token: string): boolean {
    return token.startsWith(KEY_PREFIX);
  }

  #check(token: string): Outcome {
    const id = keyIdOf(token);
    if (id === undefined) return 'invalid'; // the shape is the caller's own knowledge: nothing to hide
    const key = this.#keys.get(id);
    // One digest and one comparison whether or not the id exists, so timing tells nothing about ids.
    const matches = digestMatches(token, key?.digest ?? DECOY);
    if (key === undefined || !matches) return 'invalid';
    // Only a holder of the secret learns that it expired.
    return this.#now() < key.expires ? key : 'expired';
  }

  verify(token: string): Caller | undefined {
    const outcome = this.#check(token);
    return typeof outcome === 'object' ? outcome.caller : undefined;
  }

  readonly authenticate = (request: HttpRequestInfo): Caller | HttpChallenge => {
    const presented = presentedCredential(request, this.#header);
    if (presented.kind === 'none') return MISSING;
    if (presented.kind === 'malformed') {
      return {
        status: 401,
        headers: {
          'WWW-Authenticate': `${REALM}, error="invalid_request", error_description=${quoteParameter(presented.problem)}`,
        },
        message: `Unauthorized: ${presented.problem}`,
      };
    }
    const outcome = this.#check(presented.token);
    if (outcome === 'invalid') return INVALID;
    if (outcome === 'expired') return EXPIRED;
    return outcome.caller;
  };

  async reload(): Promise<void> {
    if (this.#file === undefined) return;
    this.#install(await readKeysFile(this.#file));
  }
}

function inlineRecords(options: ApiKeysOptions): readonly ApiKeyRecord[] {
  if (typeof options !== 'object' || options === null)
    throw new ApiKeysError('apiKeys: options must be an object { keys } or { file }');
  if (options.keys === undefined && options.file === undefined)
    throw new ApiKeysError('apiKeys: give the keys (an array of key records) or a keys file (file)');
  if (options.file !== undefined && (typeof options.file !== 'string' || options.file === ''))
    throw new ApiKeysError('apiKeys: file must be the path of a keys file');
  if (options.headerName !== undefined && options.headerName !== 'x-api-key' && options.headerName !== false)
    throw new ApiKeysError('apiKeys: headerName must be "x-api-key" or false');
  if (options.now !== undefined && typeof options.now !== 'function')
    throw new ApiKeysError('apiKeys: now must be a function returning milliseconds since the epoch');
  return options.keys === undefined ? [] : checkRecords(options.keys, 'apiKeys keys option');
}

/** API keys from the `keys` option and, when given, a keys file read now (blocking: meant for startup). */
export function apiKeys(options: ApiKeysOptions): ApiKeys {
  const inline = inlineRecords(options);
  return new ApiKeySet(options, inline, options.file === undefined ? [] : readKeysFileSync(options.file));
}

/** The same as apiKeys, reading the keys file without blocking. */
export async function loadApiKeys(options: ApiKeysOptions): Promise<ApiKeys> {
  const inline = inlineRecords(options);
  return new ApiKeySet(options, inline, options.file === undefined ? [] : await readKeysFile(options.file));
}

export interface NewApiKey {
  subject: string;
  scopes: readonly string[];
  label?: string;
  expires?: string;
}

/** A new key and its record: show the key once to whoever will hold it, store only the record. */
export function createApiKey(input: NewApiKey): { key: string; record: ApiKeyRecord } {
  const problem = (what: string, text: string | undefined): void => {
    if (text !== undefined)
      throw new ApiKeysError(`createApiKey: ${what}${text.startsWith('[') ? '' : ' '}${text}`);
  };
  problem('subject', subjectProblem(input.subject));
  problem('scopes', scopesProblem(input.scopes));
  if (input.label !== undefined) problem('label', labelProblem(input.label));
  if (input.expires !== undefined) problem('expires', timeProblem(input.expires));
  const id = newKeyId();
  const key = newKey(id);
  const record: ApiKeyRecord = Object.freeze({
    id,
    subject: input.subject,
    scopes: Object.freeze([...input.scopes]),
    hash: hashKey(key),
    created: new Date().toISOString(),
    ...(input.label !== undefined && { label: input.label }),
    ...(input.expires !== undefined && { expires: input.expires }),
  });
  return { key, record };
}
