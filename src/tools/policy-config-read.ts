// Small readers the "policy" section's parts share: lists, required keys, lists of objects, and the annotation
// classes rules and limits name.

import { ConfigReader } from './config-reader.js';
import { ConfigError } from './pack.js';

export const ANNOTATION_CLASSES = [
  'read-only',
  'destructive',
  'open-world',
  'idempotent',
  'non-destructive',
] as const;
export const RATE_CLASSES = ANNOTATION_CLASSES;

export const MAX_RULES = 1_000;
export const MAX_KEYS = 100_000;
export const MAX_LIST = 1_000;

export const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

const nonEmpty = (item: string): string | undefined => (item === '' ? 'must not be empty' : undefined);
export const list = (read: ConfigReader, key: string): string[] =>
  read.stringList(key, [], { maxItems: MAX_LIST, check: nonEmpty });

/** A string key that must be there. */
export function required(read: ConfigReader, key: string, what: string): string {
  if (!read.given(key)) throw new ConfigError(`${read.name(key)} is required: ${what}`);
  return read.string(key, '', what, (value) => value !== '');
}

/** A list of objects, each read by `item` with a reader named `<key>[i]`. */
export function objects<T>(
  raw: unknown,
  path: string,
  keys: readonly string[],
  max: number,
  item: (read: ConfigReader, path: string, raw: unknown) => T,
): T[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) throw new ConfigError(`${path} must be a list of objects; got ${show(raw)}`);
  if (raw.length > max) throw new ConfigError(`${path} must have at most ${max} items; got ${raw.length}`);
  return raw.map((entry: unknown, index) => {
    const at = `${path}[${index}]`;
    return item(new ConfigReader(entry, at, keys), at, entry);
  });
}
