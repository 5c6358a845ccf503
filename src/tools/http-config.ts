// The "http" section of toolwire.json and the `toolwire serve` flags that set the same things: one table of fields,
// read through ConfigReader, so the file, the flags and the JSON Schema accept exactly the same settings.

import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_CONNECTIONS,
  type HttpOptions,
} from '../transports/http/options.js';
import { ConfigReader } from './config-reader.js';
import { HTTP_FIELDS, type HttpField } from './http-fields.js';
import { ConfigError } from './pack.js';

export { HTTP_FIELDS, type HttpField } from './http-fields.js';

/** Keys of the "http" object, or of one of its sections ("cors", "legacy"). */
const keysIn = (section: string | undefined): string[] => [
  ...new Set(
    HTTP_FIELDS.map((field) => field.path.split('.')).flatMap(([first, second]) =>
      section === undefined ? [first as string] : first === section && second !== undefined ? [second] : [],
    ),
  ),
];

/** The values read, by dotted path: only those given, so every default stays the transport's own. */
export type HttpValues = ReadonlyMap<string, unknown>;

function readField(read: ConfigReader, name: string, field: HttpField): unknown {
  read.describe(name, field.description);
  // Without a fallback the transport works the default out (from the bind address, the server, another limit).
  if (field.fallback === undefined) read.has(name);
  switch (field.kind) {
    case 'integer':
      return read.integer(name, field.fallback ?? field.min, field.min, field.max, field.unit);
    case 'boolean':
      return read.boolean(name, field.fallback);
    case 'list':
      return read.stringList(name, field.fallback ?? [], { maxItems: field.maxItems, check: field.check });
    case 'string':
      return read.string(name, field.fallback, field.expected, field.check);
  }
}

/** Limits bounded below by another limit (JSON Schema draft-07 cannot say so): [limit, floor, the floor's default]. */
const RELATIONS = [
  ['maxBufferedBodyBytes', 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES],
  ['maxBufferedBodyBytesPerAddress', 'maxBodyBytes', DEFAULT_MAX_BODY_BYTES],
  ['hardMaxConnections', 'maxConnections', DEFAULT_MAX_CONNECTIONS],
] as const;

/** Refuses a limit below its floor, naming both as the user wrote them (a key of the file, or a flag). */
function checkRelations(values: HttpValues, nameOf: (path: string) => string): void {
  for (const [path, floorPath, floorDefault] of RELATIONS) {
    const value = values.get(path) as number | undefined; // integers, as HTTP_FIELDS reads them
    if (value === undefined) continue;
    const floor = (values.get(floorPath) as number | undefined) ?? floorDefault;
    if (value < floor) {
      const which = values.has(floorPath) ? '' : ', its default';
      throw new ConfigError(
        `${nameOf(path)} (${value}) must be at least ${nameOf(floorPath)} (${floor}${which})`,
      );
    }
  }
}

/** Reads the "http" object (or the flags' object of the same shape) into values by dotted path. */
export function readHttpSection(read: ConfigReader): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const sections = new Map<string, ConfigReader>();
  for (const field of HTTP_FIELDS) {
    const [first, second] = field.path.split('.') as [string, string | undefined];
    let reader = read;
    let name = first;
    if (second !== undefined) {
      const section = sections.get(first) ?? read.section(first, keysIn(first));
      sections.set(first, section);
      reader = section;
      name = second;
    }
    const value = readField(reader, name, field);
    if (reader.given(name)) values.set(field.path, value);
  }
  checkRelations(values, (path) => read.name(path));
  return values;
}

/** The reader of the "http" object of toolwire.json. */
export const httpSectionReader = (raw: unknown): ConfigReader =>
  new ConfigReader(raw, 'http', keysIn(undefined), { retired: RETIRED_HTTP_KEYS });

/** HTTP settings that are gone, and why: said instead of "unknown key" to someone upgrading a config. */
const RETIRED_HTTP_KEYS: Readonly<Record<string, string>> = {
  requestTimeoutMs:
    "a request's time limit is now what it runs: the tool's timeoutMs, else the server's defaultTimeoutMs (60 s); remove it",
};

/** `--allowed-hosts` for "allowedHosts", `--legacy-max-sessions` for "legacy.maxSessions". */
export const flagOf = (path: string): string =>
  `--${path.replace(/\./g, '-').replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)}`;

/**
 * Reads `toolwire serve` flags given as strings (each repeatable; lists also comma-separated) with the same checks as
 * the file, naming the flag in messages.
 */
export function readHttpFlags(given: ReadonlyMap<string, readonly string[]>): Map<string, unknown> {
  const raw: Record<string, unknown> = {};
  for (const field of HTTP_FIELDS) {
    const words = given.get(field.path);
    if (words === undefined || words.length === 0) continue;
    const last = words[words.length - 1] as string;
    const value =
      field.kind === 'list'
        ? words.flatMap((word) => word.split(',')).map((item) => item.trim())
        : field.kind === 'integer' && /^\d+$/.test(last)
          ? Number(last)
          : field.kind === 'boolean' && (last === 'true' || last === 'false')
            ? last === 'true'
            : last;
    const [first, second] = field.path.split('.') as [string, string | undefined];
    if (second === undefined) raw[first] = value;
    else raw[first] = { ...(raw[first] as Record<string, unknown> | undefined), [second]: value };
  }
  return readHttpSection(
    new ConfigReader(raw, 'http', keysIn(undefined), {
      nameOf: (path) => flagOf(path.replace(/^http\./, '')),
    }),
  );
}

/** The file's values with the flags' over them, the relations checked again on the whole. */
export function mergeHttp(file: HttpValues, flags: HttpValues): HttpValues {
  const merged = new Map([...file, ...flags]);
  checkRelations(merged, (path) => (flags.has(path) ? flagOf(path) : `http.${path}`));
  return merged;
}

/** The transport's options from the values read (file first, flags over it). */
export function toHttpOptions(values: HttpValues): HttpOptions {
  const options: Record<string, unknown> = {};
  const legacy: Record<string, unknown> = {};
  for (const [path, value] of values) {
    if (path === 'cors.origins') options.cors = (value as string[]).length === 0 ? false : { origins: value };
    else if (path.startsWith('legacy.')) legacy[path.slice('legacy.'.length)] = value;
    else options[path] = value;
  }
  const { enabled, ...limits } = legacy;
  if (enabled === false) options.legacy = false;
  else if (Object.keys(limits).length > 0) options.legacy = limits;
  // Each path is an HttpOptions key (HttpPath, checked against the transport's types) with a value read by its kind.
  return options as HttpOptions;
}
