// Per-caller views of one catalog generation: each caller's visible subset, memoised per caller object, and the
// pages of each distinct subset, cached by exact membership in a bounded LRU.

import type { Caller } from '../protocol/index.js';
import { decodeCursor } from './pagination.js';

/**
 * Whether `caller` may see `entry` in lists and lookups. Only `true` means visible (fail closed). It must depend on
 * nothing but its arguments: the answer is memoised per caller object until the catalog changes. A predicate that
 * throws fails the request with its error (nothing is cached for that entry, so the next request asks again).
 */
export type EntryVisibility<E> = (caller: Caller, entry: E) => boolean;

/** Bounds of the per-subset page cache of one catalog. */
export interface VisibleCacheLimits {
  /** Distinct visible subsets whose pages are kept (least recently used go first). */
  readonly sets: number;
  /** Characters of page JSON kept across those subsets; the subset in use is never evicted for its own pages. */
  readonly pageChars: number;
}

export const DEFAULT_VISIBLE_CACHE_LIMITS: VisibleCacheLimits = Object.freeze({
  sets: 64,
  pageChars: 16 * 1024 * 1024,
});

/** One page's result JSON from a subset of entries (the catalog's serialiser, with the per-caller cache hints). */
export type PageBuilder<E, V extends string> = (entries: readonly E[], offset: number, variant: V) => string;

// A caller's decision about each entry, by index in the generation's enabled list.
const UNKNOWN = 0;
const VISIBLE = 1;
const HIDDEN = 2;

/** Which entries a caller sees: `key` is the exact membership bitmap, so two different subsets never share it. */
interface Membership<E> {
  readonly key: string;
  readonly bits: Buffer;
  readonly entries: readonly E[];
}

// Until a caller's whole membership is known, single lookups record their answers in `decided`.
interface CallerView<E> {
  decided: Uint8Array | undefined;
  membership: Membership<E> | undefined;
}

// Method syntax on purpose: a catalog of tools must stay usable where a catalog of plain entries is expected, and
// function-typed fields would make VisibleLists (and so Catalog) invariant in E.
interface Rules<E, V extends string> {
  visible(caller: Caller, entry: E): boolean;
  build(entries: readonly E[], offset: number, variant: V): string;
}

interface SubsetPages<E, V extends string> {
  readonly membership: Membership<E>;
  readonly pages: Map<V, (string | undefined)[]>;
  chars: number;
}

export class VisibleLists<E, V extends string> {
  readonly #entries: readonly E[];
  readonly #rules: Rules<E, V>;
  readonly #pageSize: number;
  readonly #limits: VisibleCacheLimits;
  // Weak: a caller's view lives as long as the caller object (a session's, a token's), never longer.
  readonly #views = new WeakMap<Caller, CallerView<E>>();
  // Insertion order is recency: the first key is the least recently used subset.
  readonly #subsets = new Map<string, SubsetPages<E, V>>();
  #newest: SubsetPages<E, V> | undefined;
  #chars = 0;
  #indexOf: Map<E, number> | undefined;

  /** `entries`: the catalog's enabled entries of this generation, in registration order. */
  constructor(
    entries: readonly E[],
    visible: EntryVisibility<E>,
    pageSize: number,
    build: PageBuilder<E, V>,
    limits: VisibleCacheLimits = DEFAULT_VISIBLE_CACHE_LIMITS,
  ) {
    this.#entries = entries;
    this.#rules = { visible, build };
    this.#pageSize = pageSize;
    this.#limits = limits;
  }

  /** Whether these lists were computed with this predicate (another one means starting over). */
  uses(visible: EntryVisibility<E>): boolean {
    return this.#rules.visible === visible;
  }

  /** The caller's visible entries in registration order. */
  entriesFor(caller: Caller): readonly E[] {
    return this.#membership(caller).entries;
  }

  /** Whether the caller sees this enabled entry; asks the predicate at most once per entry and caller object. */
  sees(caller: Caller, entry: E): boolean {
    this.#indexOf ??= new Map(this.#entries.map((e, i) => [e, i]));
    const index = this.#indexOf.get(entry);
    if (index === undefined) return false;
    const view = this.#view(caller);
    if (view.membership !== undefined) return hasBit(view.membership.bits, index);
    const decided = (view.decided ??= new Uint8Array(this.#entries.length));
    let decision = decided[index];
    if (decision === UNKNOWN) {
      decision = this.#ask(caller, index) ? VISIBLE : HIDDEN;
      decided[index] = decision;
    }
    return decision === VISIBLE;
  }

  /** The result JSON of the caller's page at `cursor` (undefined: the first page); -32602 for a cursor that does not fit. */
  pageFor(cursor: unknown, variant: V, caller: Caller): string {
    const membership = this.#membership(caller);
    const offset = cursor === undefined ? 0 : decodeCursor(cursor, this.#pageSize, membership.entries.length);
    const subset = this.#subset(caller, membership);
    let pages = subset.pages.get(variant);
    if (pages === undefined) subset.pages.set(variant, (pages = []));
    const index = offset / this.#pageSize;
    const cached = pages[index];
    if (cached !== undefined) return cached;
    const json = this.#rules.build(subset.membership.entries, offset, variant);
    pages[index] = json;
    subset.chars += json.length;
    this.#chars += json.length;
    this.#trim();
    return json;
  }

  /** What the page cache holds now (for tests and diagnostics). */
  stats(): { sets: number; pageChars: number } {
    return { sets: this.#subsets.size, pageChars: this.#chars };
  }

  #view(caller: Caller): CallerView<E> {
    let view = this.#views.get(caller);
    if (view === undefined) {
      view = { decided: undefined, membership: undefined };
      this.#views.set(caller, view);
    }
    return view;
  }

  #ask(caller: Caller, index: number): boolean {
    const visible = this.#rules.visible; // called bare: the predicate's `this` is not our rules object
    return visible(caller, this.#entries[index] as E) === true;
  }

  #membership(caller: Caller): Membership<E> {
    const view = this.#view(caller);
    if (view.membership !== undefined) return view.membership;
    const total = this.#entries.length;
    const bits = Buffer.alloc((total + 7) >> 3);
    const decided = view.decided;
    for (let i = 0; i < total; i++) {
      const known = decided === undefined ? UNKNOWN : decided[i];
      if (known === UNKNOWN ? this.#ask(caller, i) : known === VISIBLE) {
        bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7));
      }
    }
    // latin1 maps each byte to one character: the key is the exact bitmap, not a hash of it.
    const key = bits.toString('latin1');
    // A subset someone else already has: share its entries instead of building another copy.
    const membership = this.#subsets.get(key)?.membership ?? {
      key,
      bits,
      entries: this.#entries.filter((_entry, i) => hasBit(bits, i)),
    };
    view.membership = membership;
    view.decided = undefined;
    return membership;
  }

  #subset(caller: Caller, membership: Membership<E>): SubsetPages<E, V> {
    let subset = this.#subsets.get(membership.key);
    if (subset === undefined) {
      subset = { membership, pages: new Map(), chars: 0 };
      this.#subsets.set(membership.key, subset);
      this.#newest = subset;
      this.#evictWhile(() => this.#subsets.size > this.#limits.sets);
    } else if (subset !== this.#newest) {
      this.#subsets.delete(membership.key);
      this.#subsets.set(membership.key, subset);
      this.#newest = subset;
    }
    // Callers with the same subset share one entries array; a duplicate (its subset was evicted and rebuilt from
    // another caller's membership meanwhile) can be collected.
    if (subset.membership !== membership) {
      const view = this.#views.get(caller);
      if (view !== undefined) view.membership = subset.membership;
    }
    return subset;
  }

  #trim(): void {
    this.#evictWhile(() => this.#chars > this.#limits.pageChars && this.#subsets.size > 1);
  }

  #evictWhile(over: () => boolean): void {
    while (over()) {
      const oldest = this.#subsets.values().next().value;
      if (oldest === undefined || oldest === this.#newest) return;
      this.#subsets.delete(oldest.membership.key);
      this.#chars -= oldest.chars;
    }
  }
}

const hasBit = (bits: Buffer, index: number): boolean =>
  (((bits[index >> 3] as number) >> (index & 7)) & 1) === 1;
