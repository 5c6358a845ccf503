// An ordered catalog of listable things (tools, prompts, resources, templates) with pages serialised once per change.

import { DefinitionError } from './errors.js';
import { encodeCursor } from './pagination.js';

/** The shapes a list takes on the wire: modern, legacy ≥ 2025-06-18, legacy ≤ 2025-03-26. */
export type ListVariant = 'modern' | 'legacy' | 'legacy-old';

export interface CatalogEntry {
  /** What the entry is found by: a tool or prompt name, a resource URI, a URI template. */
  readonly key: string;
  enabled: boolean;
  /** The entry's JSON in each list variant, serialised when it was registered. */
  readonly json: Readonly<Record<ListVariant, string>>;
}

export interface CatalogSettings {
  pageSize: number;
  /** Extra members of every modern list result, as JSON text without braces (cache hints, resultType, _meta). */
  modernTail: string;
  /** The result member holding the entries ("tools", "prompts", "resources", "resourceTemplates"). */
  listKey: string;
  /** How an entry is named in error messages ("Tool", "Prompt", …). */
  noun: string;
}

export class Catalog<E extends CatalogEntry> {
  readonly #entries = new Map<string, E>();
  readonly #settings: CatalogSettings;
  readonly #onChange: () => void;
  readonly #pages = new Map<string, string>();
  #enabled: E[] | undefined;

  constructor(settings: CatalogSettings, onChange: () => void) {
    this.#settings = settings;
    this.#onChange = onChange;
  }

  get pageSize(): number {
    return this.#settings.pageSize;
  }

  get size(): number {
    return this.#entries.size;
  }

  add(entry: E): E {
    if (this.#entries.has(entry.key)) {
      throw new DefinitionError(`${this.#settings.noun} "${entry.key}" is already registered`);
    }
    this.#entries.set(entry.key, entry);
    this.#changed();
    return entry;
  }

  /** Replaces an entry in place (same position in the list); a new key must not collide. */
  replace(key: string, entry: E): E {
    const current = this.record(key);
    if (entry.key !== key && this.#entries.has(entry.key)) {
      throw new DefinitionError(`${this.#settings.noun} "${entry.key}" is already registered`);
    }
    entry.enabled = current.enabled;
    if (entry.key === key) this.#entries.set(key, entry);
    else {
      const entries = [...this.#entries].map(([k, v]): [string, E] =>
        k === key ? [entry.key, entry] : [k, v],
      );
      this.#entries.clear();
      for (const [k, v] of entries) this.#entries.set(k, v);
    }
    this.#changed();
    return entry;
  }

  remove(key: string): boolean {
    const removed = this.#entries.delete(key);
    if (removed) this.#changed();
    return removed;
  }

  setEnabled(key: string, enabled: boolean): void {
    const entry = this.record(key);
    if (entry.enabled === enabled) return;
    entry.enabled = enabled;
    this.#changed();
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  /** The enabled entry with this key, if any. */
  get(key: string): E | undefined {
    const entry = this.#entries.get(key);
    return entry?.enabled ? entry : undefined;
  }

  /** The entry with this key, enabled or not; throws if there is none. */
  record(key: string): E {
    const entry = this.#entries.get(key);
    if (entry === undefined) throw new DefinitionError(`${this.#settings.noun} "${key}" is not registered`);
    return entry;
  }

  /** Enabled entries in registration order. */
  enabled(): readonly E[] {
    this.#enabled ??= [...this.#entries.values()].filter((entry) => entry.enabled);
    return this.#enabled;
  }

  /** The result JSON of the page starting at `offset`, built once per change of the catalog. */
  page(offset: number, variant: ListVariant): string {
    const cacheKey = `${variant}:${offset}`;
    const cached = this.#pages.get(cacheKey);
    if (cached !== undefined) return cached;
    const entries = this.enabled();
    const end = Math.min(offset + this.#settings.pageSize, entries.length);
    let json = '{"' + this.#settings.listKey + '":[';
    for (let i = offset; i < end; i++) {
      if (i > offset) json += ',';
      json += (entries[i] as E).json[variant];
    }
    json += ']';
    if (end < entries.length) json += ',"nextCursor":' + JSON.stringify(encodeCursor(end));
    json += variant === 'modern' ? ',' + this.#settings.modernTail + '}' : '}';
    this.#pages.set(cacheKey, json);
    return json;
  }

  #changed(): void {
    this.#enabled = undefined;
    this.#pages.clear();
    this.#onChange();
  }
}
