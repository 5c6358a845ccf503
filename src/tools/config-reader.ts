// Reads one raw config object key by key; every mistake is a ConfigError naming the key and what it accepts. While
// describing (recordReaders), each reader also records the JSON Schema of what it reads: toolwire.schema.json is built
// from those records, so the schema and the checks cannot drift apart.

import { ConfigError } from './pack.js';

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

const sentence = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;

/** A JSON Schema fragment. */
export type JsonSchema = { [keyword: string]: unknown };

/** What one reader was asked while describing. */
export interface RecordedReader {
  /** The dotted path of the object read ("" for the whole file, "packs.files", "http.legacy"). */
  readonly path: string;
  readonly allowedKeys: readonly string[];
  readonly fields: Map<string, JsonSchema>;
  /** Keys whose value another reader reads (a section, or a pack's own parser). */
  readonly delegated: Set<string>;
  /** Keys whose default is worked out at startup, so the schema states none. */
  readonly derived: Set<string>;
  readonly descriptions: Map<string, string>;
}

let recording: RecordedReader[] | undefined;

/**
 * Runs `parse` (which reads an absent config: every key falls back to its default) and returns every reader it
 * created with what each was asked. While recording, has() answers true so that optional branches are read too.
 */
export function recordReaders(parse: () => unknown): RecordedReader[] {
  const outer = recording;
  const readers: RecordedReader[] = [];
  recording = readers;
  try {
    parse();
  } finally {
    recording = outer;
  }
  return readers;
}

export interface ListOptions {
  maxItems: number;
  /** Why an item is wrong (completing "<key>[i] …"), or undefined when it is fine. */
  check?: (item: string) => string | undefined;
}

export interface ReaderOptions {
  /** How the object itself is named in messages (default: its path). */
  label?: string;
  /** How a key is named in messages, from its dotted path (e.g. a command-line flag); default: the path. */
  nameOf?: (path: string) => string;
  /** Keys that were settings once, with what replaced them: refused with that explanation, not "unknown key". */
  retired?: Readonly<Record<string, string>>;
}

/**
 * Wraps one object of the config (`packs.<name>`, `http`, the file itself). The constructor refuses anything that is
 * not an object and every unknown key; the readers return the default when a key is absent.
 */
export class ConfigReader {
  readonly #raw: Readonly<Record<string, unknown>>;
  readonly #path: string;
  readonly #options: ReaderOptions;
  readonly #record: RecordedReader | undefined;

  constructor(raw: unknown, path: string, allowedKeys: readonly string[], options: ReaderOptions = {}) {
    this.#path = path;
    this.#options = options;
    if (recording !== undefined) {
      this.#record = {
        path,
        allowedKeys,
        fields: new Map(),
        delegated: new Set(),
        derived: new Set(),
        descriptions: new Map(),
      };
      recording.push(this.#record);
    }
    const label = options.label ?? options.nameOf?.(path) ?? path;
    const allowed = allowedKeys.join(', ');
    if (raw === undefined) {
      this.#raw = {};
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ConfigError(`${label} must be an object with the optional keys ${allowed}; got ${show(raw)}`);
    }
    for (const name of Object.keys(raw)) {
      const retired =
        options.retired !== undefined && Object.hasOwn(options.retired, name)
          ? options.retired[name]
          : undefined;
      if (retired !== undefined)
        throw new ConfigError(`${label} key "${name}" is no longer a setting: ${retired}`);
      if (!allowedKeys.includes(name)) {
        throw new ConfigError(`${label} has an unknown key "${name}"; allowed keys: ${allowed}`);
      }
    }
    this.#raw = raw as Record<string, unknown>; // checked to be a plain object above
  }

  #value(name: string): unknown {
    return Object.hasOwn(this.#raw, name) ? this.#raw[name] : undefined;
  }

  #childPath(name: string): string {
    return this.#path === '' ? name : `${this.#path}.${name}`;
  }

  /** True when the key is present (for settings whose absence means "derive it at startup"). */
  has(name: string): boolean {
    if (this.#record !== undefined) {
      this.#record.derived.add(name);
      return true;
    }
    return this.#value(name) !== undefined;
  }

  /** True when the key is present; unlike has(), it changes nothing in what the schema says of the key. */
  given(name: string): boolean {
    return this.#value(name) !== undefined;
  }

  /** The name of a key, as messages show it. */
  name(name: string): string {
    const path = this.#childPath(name);
    return this.#options.nameOf?.(path) ?? path;
  }

  /** A sentence for the schema's description of a key (editors show it); nothing happens outside describing. */
  describe(name: string, text: string): this {
    this.#record?.descriptions.set(name, text);
    return this;
  }

  boolean(name: string, fallback: boolean): boolean {
    this.#record?.fields.set(name, { type: 'boolean', default: fallback });
    const value = this.#value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      throw new ConfigError(`${this.name(name)} must be true or false; got ${show(value)}`);
    }
    return value;
  }

  /** A whole number in [min, max]; `unit` ("bytes", "ms") completes the message. */
  integer(name: string, fallback: number, min: number, max: number, unit: string): number {
    this.#record?.fields.set(name, {
      type: 'integer',
      minimum: min,
      maximum: max,
      default: fallback,
      description: `A whole number of ${unit} from ${min} to ${max}.`,
    });
    const value = this.#value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(
        `${this.name(name)} must be a whole number of ${unit} from ${min} to ${max}; got ${show(value)}`,
      );
    }
    return value;
  }

  /** A string accepted by `check`; `expected` completes "<key> must be …" when it is not. */
  string(name: string, fallback: string, expected: string, check: (value: string) => boolean): string {
    this.#record?.fields.set(name, { type: 'string', default: fallback, description: sentence(expected) });
    const value = this.#value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !check(value)) {
      throw new ConfigError(`${this.name(name)} must be ${expected}; got ${show(value)}`);
    }
    return value;
  }

  /** A list of strings, each checked, duplicates dropped (first kept). */
  stringList(name: string, fallback: readonly string[], options: ListOptions): string[] {
    if (this.#record !== undefined) {
      // What the check says of an empty string is the best description of a good item it can give.
      const item = options.check?.('');
      this.#record.fields.set(name, {
        type: 'array',
        maxItems: options.maxItems,
        items:
          item === undefined ? { type: 'string' } : { type: 'string', description: `Each item ${item}.` },
        default: [...fallback],
      });
    }
    const value = this.#value(name);
    if (value === undefined) return [...fallback];
    const what = `${this.name(name)} must be a list of at most ${options.maxItems} strings`;
    if (!Array.isArray(value)) throw new ConfigError(`${what}; got ${show(value)}`);
    if (value.length > options.maxItems) throw new ConfigError(`${what}; got ${value.length} items`);
    const out: string[] = [];
    value.forEach((item: unknown, index) => {
      if (typeof item !== 'string') throw new ConfigError(`${what}; item ${index} is ${show(item)}`);
      const problem = options.check?.(item);
      if (problem !== undefined) {
        throw new ConfigError(`${this.name(name)}[${index}] ${problem}; got ${show(item)}`);
      }
      if (!out.includes(item)) out.push(item);
    });
    return out;
  }

  /** A non-empty list whose items come from `allowed`. */
  choiceList<T extends string>(name: string, fallback: readonly T[], allowed: readonly T[]): T[] {
    this.#record?.fields.set(name, {
      type: 'array',
      minItems: 1,
      items: { enum: [...allowed] },
      default: [...fallback],
    });
    const value = this.#value(name);
    if (value === undefined) return [...fallback];
    const what = `${this.name(name)} must be a non-empty list of: ${allowed.join(', ')}`;
    if (!Array.isArray(value) || value.length === 0) throw new ConfigError(`${what}; got ${show(value)}`);
    const out: T[] = [];
    for (const item of value as unknown[]) {
      const choice = allowed.find((candidate) => candidate === item);
      if (choice === undefined) throw new ConfigError(`${what}; got ${show(item)}`);
      if (!out.includes(choice)) out.push(choice);
    }
    return out;
  }

  /** An object mapping names the user chooses (`keyWhat`, e.g. "tool name") to whole numbers in [min, max]. */
  integerMap(name: string, keyWhat: string, min: number, max: number, unit: string): Record<string, number> {
    const what = `a whole number of ${unit} from ${min} to ${max}`;
    this.#record?.fields.set(name, {
      type: 'object',
      propertyNames: { minLength: 1 },
      additionalProperties: { type: 'integer', minimum: min, maximum: max },
      default: {},
      description: `Maps each ${keyWhat} to ${what}.`,
    });
    const value = this.#value(name);
    if (value === undefined) return {};
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new ConfigError(`${this.name(name)} must map each ${keyWhat} to ${what}; got ${show(value)}`);
    }
    const out: Record<string, number> = {};
    for (const [key, item] of Object.entries(value)) {
      if (key === '') throw new ConfigError(`${this.name(name)} has an empty ${keyWhat}`);
      if (typeof item !== 'number' || !Number.isInteger(item) || item < min || item > max) {
        throw new ConfigError(`${this.name(name)}.${key} must be ${what}; got ${show(item)}`);
      }
      out[key] = item;
    }
    return out;
  }

  /** A nested object with keys of its own, read by the reader returned. */
  section(name: string, allowedKeys: readonly string[]): ConfigReader {
    this.#record?.delegated.add(name);
    return new ConfigReader(this.#value(name), this.#childPath(name), allowedKeys, {
      ...(this.#options.nameOf !== undefined && { nameOf: this.#options.nameOf }),
    });
  }

  /** The raw value of a key that another parser reads (a pack's own); that parser's reader describes it. */
  raw(name: string): unknown {
    this.#record?.delegated.add(name);
    return this.#value(name);
  }

  /** A key this reader allows but another part of toolwire reads; `schema` is what that part accepts. */
  external(name: string, schema: JsonSchema): void {
    this.#record?.fields.set(name, schema);
  }
}
