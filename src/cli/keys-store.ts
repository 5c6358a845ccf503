// Where `toolwire keys` keeps key records: a keys file (`--file`, written whole, atomically, mode 0600) or the
// `policy.apiKeys.keys` array of a toolwire.json (`--config`, edited as text so everything else in the file stays
// byte for byte, replaced atomically and merged again if the file changes meanwhile). Either way only hashes land.

import { existsSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import {
  ApiKeysError,
  KeysFileChangedError,
  checkRecords,
  keysDirectoryProblem,
  keysFileProblem,
  readKeysFile,
  writeKeysFile,
  type ApiKeyRecord,
} from '../policy/api-keys/index.js';
import { commitFile, readBytes, writeTarget } from './config-write.js';
import { UsageError } from './errors.js';
import {
  JsonSyntaxError,
  insertMember,
  membersNamed,
  nodeValue,
  parseJsonDocument,
  replaceMemberValue,
  type JsonNode,
  type MemberNode,
  type ObjectNode,
} from './json-document.js';

/** A change to the records; it may throw (a UsageError) to leave the store untouched. */
export type RecordsChange = (records: readonly ApiKeyRecord[]) => readonly ApiKeyRecord[];

export interface KeyStore {
  /** What the messages call it: "keys file /x/keys.json" or "/x/toolwire.json (policy.apiKeys.keys)". */
  readonly name: string;
  /** The records kept; `missingOk` turns "does not exist" into no records (for create). */
  read(missingOk: boolean): Promise<readonly ApiKeyRecord[]>;
  /**
   * Applies a change and writes the result (the file is created, mode 0600, when missing); returns where the
   * previous file was backed up, if it was.
   */
  update(change: RecordsChange): Promise<string | undefined>;
}

/** The store the flags name: exactly one of --file and --config. */
export function keyStore(options: { file?: string; config?: string }, cwd: string): KeyStore {
  if (options.file !== undefined && options.config !== undefined)
    throw new UsageError('--file and --config both say where keys are kept: give one of them');
  if (options.file !== undefined) return fileStore(resolve(cwd, options.file));
  if (options.config !== undefined) return configStore(resolve(cwd, options.config));
  throw new UsageError(
    'say where keys are kept: --file KEYS.json (a keys file) or --config toolwire.json (its policy.apiKeys.keys)',
  );
}

/** Tries at writing a keys file that keeps changing underneath. */
const ATTEMPTS = 3;

function fileStore(path: string): KeyStore {
  const read = async (missingOk: boolean): Promise<readonly ApiKeyRecord[]> => {
    if (missingOk && !existsSync(path)) return [];
    return readKeysFile(path);
  };
  return {
    name: `keys file ${path}`,
    read,
    async update(change) {
      // Another `toolwire keys` writing meanwhile: start over from its records rather than lose its key.
      for (let attempt = 1; ; attempt++) {
        const before = await read(true);
        try {
          await writeKeysFile(path, change(before), { expected: before });
          return undefined;
        } catch (error) {
          if (!(error instanceof KeysFileChangedError) || attempt === ATTEMPTS) throw error;
        }
      }
    },
  };
}

// ---- toolwire.json -------------------------------------------------------------------------------------------------

const PATH = ['policy', 'apiKeys', 'keys'] as const;

/** The one member named `key` of `object`, if any; two are refused (which one would the server read?). */
function member(object: ObjectNode, key: string, file: string, where: string): MemberNode | undefined {
  const found = membersNamed(object, key);
  if (found.length > 1)
    throw new UsageError(`${file}: "${where}${key}" appears ${found.length} times; keep one`);
  return found[0];
}

interface Located {
  /** The deepest object on the path that exists, and the path members still missing under it. */
  parent: ObjectNode;
  missing: readonly string[];
  /** The keys member, when it exists. */
  keys: MemberNode | undefined;
}

/** Walks root → policy → apiKeys → keys, refusing anything on the way that is not the right type. */
function locate(root: JsonNode, file: string): Located {
  if (root.type !== 'object') throw new UsageError(`${file} must hold a JSON object`);
  let parent: ObjectNode = root;
  for (const [depth, key] of PATH.entries()) {
    const where = PATH.slice(0, depth).join('.') + (depth > 0 ? '.' : '');
    const found = member(parent, key, file, where);
    if (found === undefined) return { parent, missing: PATH.slice(depth), keys: undefined };
    if (key === 'keys') {
      if (found.value.type !== 'array')
        throw new UsageError(`${file}: policy.apiKeys.keys must be an array of key records`);
      return { parent, missing: [], keys: found };
    }
    if (found.value.type !== 'object') throw new UsageError(`${file}: ${where}${key} must be an object`);
    parent = found.value;
  }
  throw new Error('unreachable: the path ends with "keys"');
}

/** The records in a config's text (none when it has no policy.apiKeys.keys). */
function recordsIn(
  text: string,
  file: string,
): { located: Located | undefined; records: readonly ApiKeyRecord[] } {
  let root: JsonNode | undefined;
  try {
    root = parseJsonDocument(text, { jsonc: false });
  } catch (error) {
    if (error instanceof JsonSyntaxError) throw new UsageError(`${file} is not valid JSON: ${error.message}`);
    throw error;
  }
  if (root === undefined) return { located: undefined, records: [] };
  const located = locate(root, file);
  const records =
    located.keys === undefined ? [] : checkRecords(nodeValue(located.keys.value), `${file}: policy.apiKeys`);
  return { located, records };
}

/** The text with policy.apiKeys.keys set to `records`, everything else as it was. */
function withRecords(text: string, located: Located | undefined, records: readonly ApiKeyRecord[]): string {
  if (located === undefined)
    return `${JSON.stringify({ policy: { apiKeys: { keys: records } } }, null, 2)}\n`;
  if (located.keys !== undefined) return replaceMemberValue(text, located.keys, records);
  let value: unknown = records;
  for (const key of located.missing.slice(1).reverse()) value = { [key]: value };
  return insertMember(text, located.parent, located.missing[0] as string, value); // missing is never empty here
}

function checkPermissions(file: string): void {
  const problem =
    keysFileProblem(file, statSync(file)) ?? keysDirectoryProblem(file, statSync(dirname(file)));
  if (problem !== undefined) throw new ApiKeysError(`refusing the config file: ${problem}`);
}

function configStore(path: string): KeyStore {
  const file = writeTarget(path);
  const name = `${file} (policy.apiKeys.keys)`;
  return {
    name,
    async read(missingOk) {
      const bytes = readBytes(file);
      if (bytes === undefined) {
        if (missingOk) return [];
        throw new UsageError(`config file ${file} does not exist`);
      }
      checkPermissions(file);
      return recordsIn(bytes.toString('utf8'), file).records;
    },
    async update(change) {
      if (existsSync(file)) checkPermissions(file);
      const commit = commitFile(
        file,
        (before) => {
          const text = before ?? '';
          const { located, records } = recordsIn(text, file);
          return withRecords(text, located, checkRecords(change(records), `${file}: policy.apiKeys`));
        },
        { newFileMode: 0o600 },
      );
      return commit.backup;
    },
  };
}
