// Adding named server entries to a host's config text: only the entries change; a file that is not valid JSON for
// its host, that holds the servers' key twice, or that already has a different server of that name (without
// --force) is refused and left as it was. The result is parsed again and checked before anyone writes it.

import { isDeepStrictEqual } from 'node:util';
import { RefusedFileError } from './config-write.js';
import {
  JsonSyntaxError,
  insertMember,
  layoutOf,
  membersNamed,
  nodeValue,
  parseJsonDocument,
  replaceMemberValue,
  type JsonNode,
  type ObjectNode,
} from './json-document.js';

export interface NamedEntry {
  name: string;
  entry: Record<string, unknown>;
}

export interface MergeTarget {
  /** The file, for messages. */
  file: string;
  /** The key that maps names to servers ("mcpServers" or "servers"). */
  key: string;
  /** Comments and trailing commas are part of the host's format. */
  jsonc: boolean;
  /** Replace an entry of the same name that differs. */
  force: boolean;
}

export type EntryOutcome = 'added' | 'replaced' | 'unchanged';

export interface MergeResult {
  text: string;
  outcomes: Record<string, EntryOutcome>;
}

const UNTOUCHED = 'nothing was changed';

function parse(text: string, target: MergeTarget): JsonNode | undefined {
  try {
    return parseJsonDocument(text, { jsonc: target.jsonc });
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new RefusedFileError(
      `${target.file} is not valid ${target.jsonc ? 'JSON with comments' : 'JSON'}: ${error.message}; ${UNTOUCHED} (fix the file, or move it away to start a new one)`,
    );
  }
}

/** The one member named `key`, refusing a file that has it twice (which of the two counts depends on the reader). */
function single(object: ObjectNode, key: string, where: string, target: MergeTarget) {
  const found = membersNamed(object, key);
  if (found.length > 1)
    throw new RefusedFileError(`${target.file} has ${where} ${JSON.stringify(key)} twice; ${UNTOUCHED}`);
  return found[0];
}

const describe = (node: JsonNode): string =>
  node.type === 'object' ? 'an object' : node.type === 'array' ? 'an array' : `${JSON.stringify(node.value)}`;

/** Adds (or with force replaces) each entry in `before` (undefined: no file yet). */
export function mergeEntries(
  before: string | undefined,
  entries: readonly NamedEntry[],
  target: MergeTarget,
): MergeResult {
  const outcomes: Record<string, EntryOutcome> = {};
  const original = before === undefined ? undefined : parse(before, target);
  if (original === undefined) {
    // No file, an empty one, or (JSONC) only comments: a new document after whatever was there.
    const servers = Object.fromEntries(entries.map(({ name, entry }) => [name, entry]));
    for (const { name } of entries) outcomes[name] = 'added';
    const kept = before?.trim() === '' ? '' : (before ?? '');
    const newline = layoutOf(kept).newline;
    const lead = kept === '' ? '' : kept.trimEnd() + newline;
    const document = JSON.stringify({ [target.key]: servers }, null, 2)
      .split('\n')
      .join(newline);
    return { text: lead + document + newline, outcomes };
  }
  if (original.type !== 'object') {
    throw new RefusedFileError(
      `${target.file} holds ${describe(original)} at the top, not an object with "${target.key}"; ${UNTOUCHED}`,
    );
  }
  let text = before as string; // original is defined, so before was
  for (const { name, entry } of entries) {
    const root = parse(text, target) as ObjectNode; // the same shape as checked above, plus our own edits
    const container = single(root, target.key, 'the key', target);
    if (container === undefined) {
      text = insertMember(text, root, target.key, { [name]: entry });
      outcomes[name] = 'added';
      continue;
    }
    if (container.value.type !== 'object') {
      throw new RefusedFileError(
        `"${target.key}" in ${target.file} is ${describe(container.value)}, not an object of named servers; ${UNTOUCHED}`,
      );
    }
    const existing = single(container.value, name, `a server named`, target);
    if (existing === undefined) {
      text = insertMember(text, container.value, name, entry);
      outcomes[name] = 'added';
    } else if (isDeepStrictEqual(nodeValue(existing.value), entry)) {
      outcomes[name] = 'unchanged';
    } else if (!target.force) {
      throw new RefusedFileError(
        `${target.file} already has a different server named "${name}"; pass --force to replace it (the file is backed up first) or --name to add this one under another name; ${UNTOUCHED}`,
      );
    } else {
      text = replaceMemberValue(text, existing, entry);
      outcomes[name] = 'replaced';
    }
  }
  verify(original, text, entries, target);
  return { text, outcomes };
}

/** The edited text must parse and mean exactly the old document plus the entries: anything else is our bug. */
function verify(original: JsonNode, text: string, entries: readonly NamedEntry[], target: MergeTarget): void {
  const expected = nodeValue(original) as Record<string, Record<string, unknown>>;
  expected[target.key] ??= {};
  for (const { name, entry } of entries) (expected[target.key] as Record<string, unknown>)[name] = entry;
  const edited = parseJsonDocument(text, { jsonc: target.jsonc });
  if (edited === undefined || !isDeepStrictEqual(nodeValue(edited), expected)) {
    throw new Error(
      `toolwire's edit of ${target.file} did not check out, so it was not written (${UNTOUCHED}); please report this`,
    );
  }
}
