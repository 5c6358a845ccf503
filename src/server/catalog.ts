// An ordered catalog of listable things (tools, prompts, resources, templates) with pages serialised once per change.

import type { Caller } from '../protocol/index.js';
import { DefinitionError } from './errors.js';
import { decodeCursor, encodeCursor } from './pagination.js';
import { VisibleLists, type EntryVisibility, type VisibleCacheLimits } from './visible-lists.js';

export type { EntryVisibility, VisibleCacheLimits } from './visible-lists.js';

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
  /**
   * The tail of modern pages filtered per caller (F8: must say `"cacheScope":"private"`). Default: `modernTail`
   * with its leading `"cacheScope":"public"` turned private, so a caller's list is never marked shareable.
   */
  privateModernTail?: string;
  /** Bounds of the per-caller page cache. Default: 64 distinct visible sets, 16 Mi characters of pages. */
  visibleCacheLimits?: VisibleCacheLimits;
  /** The result member holding the entries ("tools", "prompts", "resources", "resourceTemplates"). */
  listKey: string;
  /** How an entry is named in error messages ("Tool", "Prompt", …). */
  noun: string;
}

export class Catalog<E extends CatalogEntry> {
  readonly #entries = new Map<string, E>();
  readonly #settings: CatalogSettings;
  readonly #onChange: () => void;
  readonly #privateTail: string;
  // Static pages by variant and page number, built once per change of the catalog.
  #pages: Record<ListVariant, (string | undefined)[]> = emptyPages();
  #enabled: E[] | undefined;
  // Per-caller lists of the current generation and predicate; dropped on every change.
  #visibleLists: VisibleLists<E, ListVariant> | undefined;

  constructor(settings: CatalogSettings, onChange: () => void) {
    this.#settings = settings;
    this.#onChange = onChange;
    this.#privateTail =
      settings.privateModernTail ??
      settings.modernTail.replace(/^("ttlMs":[0-9]+,)?"cacheScope":"public"/, '$1"cacheScope":"private"');
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
    const index = offset / this.#settings.pageSize;
    const pages = this.#pages[variant];
    const cached = pages[index];
    if (cached !== undefined) return cached;
    const json = this.#build(this.enabled(), offset, variant, this.#settings.modernTail);
    if (Number.isInteger(index)) pages[index] = json;
    return json;
  }

  /**
   * A list request's result JSON: the page at `cursor` (undefined: the first) of what `caller` may see. Without a
   * predicate this is the shared static page; with one, the caller's visible subset in registration order,
   * paginated with the same page size, its cursors offsets into that subset, modern pages marked private (F8).
   * Throws the -32602 RpcError for a cursor that does not fit the caller's list, and whatever the predicate throws.
   */
  pageFor(
    cursor: unknown,
    variant: ListVariant,
    caller: Caller,
    visible: EntryVisibility<E> | undefined,
  ): string {
    if (visible === undefined) {
      const offset =
        cursor === undefined ? 0 : decodeCursor(cursor, this.#settings.pageSize, this.enabled().length);
      return this.page(offset, variant);
    }
    return this.#listsFor(visible).pageFor(cursor, variant, caller);
  }

  /** The enabled entry with this key if `caller` may see it: an invisible entry looks exactly like an unknown one. */
  getFor(key: string, caller: Caller, visible: EntryVisibility<E> | undefined): E | undefined {
    const entry = this.get(key);
    if (entry === undefined || visible === undefined) return entry;
    return this.#listsFor(visible).sees(caller, entry) ? entry : undefined;
  }

  /** Enabled entries `caller` may see, in registration order (all enabled entries without a predicate). */
  enabledFor(caller: Caller, visible: EntryVisibility<E> | undefined): readonly E[] {
    return visible === undefined ? this.enabled() : this.#listsFor(visible).entriesFor(caller);
  }

  /** What the per-caller page cache holds now (for tests and diagnostics). */
  visibleCacheStats(): { sets: number; pageChars: number } {
    return this.#visibleLists?.stats() ?? { sets: 0, pageChars: 0 };
  }

  // One predicate per catalog is the expected use; a different function object starts the per-caller caches over.
  #listsFor(visible: EntryVisibility<E>): VisibleLists<E, ListVariant> {
    let lists = this.#visibleLists;
    if (lists === undefined || !lists.uses(visible)) {
      lists = new VisibleLists(
        this.enabled(),
        visible,
        this.#settings.pageSize,
        (entries, offset, variant) => this.#build(entries, offset, variant, this.#privateTail),
        this.#settings.visibleCacheLimits,
      );
      this.#visibleLists = lists;
    }
    return lists;
  }

  #build(entries: readonly E[], offset: number, variant: ListVariant, modernTail: string): string {
    const end = Math.min(offset + this.#settings.pageSize, entries.length);
    let json = '{"' + this.#settings.listKey + '":[';
    for (let i = offset; i < end; i++) {
      if (i > offset) json += ',';
      json += (entries[i] as E).json[variant];
    }
    json += ']';
    if (end < entries.length) json += ',"nextCursor":' + JSON.stringify(encodeCursor(end));
    json += variant === 'modern' ? ',' + modernTail + '}' : '}';
    return json;
  }

  #changed(): void {
    this.#enabled = undefined;
    this.#pages = emptyPages();
    this.#visibleLists = undefined;
    this.#onChange();
  }
}

const emptyPages = (): Record<ListVariant, (string | undefined)[]> => ({
  modern: [],
  legacy: [],
  'legacy-old': [],
});
