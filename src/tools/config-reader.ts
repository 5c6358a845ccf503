// Reads one pack's raw config object key by key; every mistake is a ConfigError naming the key and what it accepts.

import { ConfigError } from './pack.js';

const show = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

export interface ListOptions {
  maxItems: number;
  /** Why an item is wrong (completing "<key>[i] …"), or undefined when it is fine. */
  check?: (item: string) => string | undefined;
}

/**
 * Wraps the `packs.<name>` object. The constructor refuses anything that is not an object and every unknown key;
 * the readers return the default when a key is absent.
 */
export class ConfigReader {
  readonly #raw: Readonly<Record<string, unknown>>;
  readonly #key: string;

  constructor(raw: unknown, key: string, allowedKeys: readonly string[]) {
    this.#key = key;
    const allowed = allowedKeys.join(', ');
    if (raw === undefined) {
      this.#raw = {};
      return;
    }
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ConfigError(`${key} must be an object with the optional keys ${allowed}; got ${show(raw)}`);
    }
    for (const name of Object.keys(raw)) {
      if (!allowedKeys.includes(name)) {
        throw new ConfigError(`${key} has an unknown key "${name}"; allowed keys: ${allowed}`);
      }
    }
    this.#raw = raw as Record<string, unknown>; // checked to be a plain object above
  }

  #value(name: string): unknown {
    return Object.hasOwn(this.#raw, name) ? this.#raw[name] : undefined;
  }

  /** True when the key is present (for settings whose absence means "derive it at startup"). */
  has(name: string): boolean {
    return this.#value(name) !== undefined;
  }

  /** The dotted name of a key, as messages show it. */
  name(name: string): string {
    return `${this.#key}.${name}`;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.#value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'boolean') {
      throw new ConfigError(`${this.name(name)} must be true or false; got ${show(value)}`);
    }
    return value;
  }

  /** A whole number in [min, max]; `unit` ("bytes", "ms") completes the message. */
  integer(name: string, fallback: number, min: number, max: number, unit: string): number {
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
    const value = this.#value(name);
    if (value === undefined) return fallback;
    if (typeof value !== 'string' || !check(value)) {
      throw new ConfigError(`${this.name(name)} must be ${expected}; got ${show(value)}`);
    }
    return value;
  }

  /** A list of strings, each checked, duplicates dropped (first kept). */
  stringList(name: string, fallback: readonly string[], options: ListOptions): string[] {
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
}
