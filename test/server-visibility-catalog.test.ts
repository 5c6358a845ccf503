// Per-caller visibility in a Catalog: filtered pagination, private cache hints (F8), cursors, memoisation, bounds.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Caller } from '../src/protocol/index.js';
import {
  Catalog,
  type CatalogEntry,
  type CatalogSettings,
  type EntryVisibility,
} from '../src/server/catalog.js';
import { encodeCursor } from '../src/server/pagination.js';

interface Item extends CatalogEntry {
  readonly index: number;
}

const TOTAL = 1200;
const PUBLIC_TAIL = '"ttlMs":5,"cacheScope":"public","resultType":"complete","_meta":{"x":1}';
const PRIVATE_TAIL = '"ttlMs":0,"cacheScope":"private","resultType":"complete","_meta":{"x":1}';
const INVALID_CURSOR = {
  name: 'RpcError',
  code: -32602,
  message: 'Invalid params: invalid or expired cursor; list again without a cursor',
};

const item = (index: number): Item => {
  const key = `t${index}`;
  return {
    key,
    index,
    enabled: true,
    json: {
      modern: JSON.stringify({ name: key, era: 'modern' }),
      legacy: JSON.stringify({ name: key, era: 'legacy' }),
      'legacy-old': JSON.stringify({ name: key }),
    },
  };
};

const catalog = (pageSize: number, extra: Partial<CatalogSettings> = {}, total = TOTAL): Catalog<Item> => {
  const settings = { pageSize, modernTail: PUBLIC_TAIL, listKey: 'tools', noun: 'Tool', ...extra };
  const result = new Catalog<Item>(settings, () => undefined);
  for (let i = 0; i < total; i++) result.add(item(i));
  return result;
};

const caller = (subject: string): Caller => ({ subject, via: 'bearer', scopes: [] });
const alice = caller('alice'); // sees the even entries: 600
const bob = caller('bob'); // sees keys starting with "t1": t1, t10–t19, t100–t199, t1000–t1199: 311

const rule: EntryVisibility<Item> = (who, entry) =>
  who.subject === 'alice' ? entry.index % 2 === 0 : entry.key.startsWith('t1');

/** A rule that counts how often it is asked, per caller subject. */
const counting = (inner: EntryVisibility<Item> = rule) => {
  const calls = new Map<string, number>();
  const visible: EntryVisibility<Item> = (who, entry) => {
    calls.set(who.subject, (calls.get(who.subject) ?? 0) + 1);
    return inner(who, entry);
  };
  return { visible, calls };
};

interface Page {
  tools: { name: string; era?: string }[];
  nextCursor?: string;
  ttlMs?: number;
  cacheScope?: string;
  resultType?: string;
  _meta?: unknown;
}

/** Walks every page for a caller; returns the names in order and the raw pages. */
const walk = (
  list: Catalog<Item>,
  who: Caller,
  visible: EntryVisibility<Item> | undefined,
  variant: 'modern' | 'legacy' | 'legacy-old' = 'modern',
): { names: string[]; pages: Page[]; cursors: string[] } => {
  const names: string[] = [];
  const pages: Page[] = [];
  const cursors: string[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard <= TOTAL; guard++) {
    const page = JSON.parse(list.pageFor(cursor, variant, who, visible)) as Page;
    pages.push(page);
    names.push(...page.tools.map((tool) => tool.name));
    if (page.nextCursor === undefined) return { names, pages, cursors };
    cursors.push(page.nextCursor);
    cursor = page.nextCursor;
  }
  throw new Error('pagination did not end');
};

const expected = (who: Caller): string[] =>
  Array.from({ length: TOTAL }, (_, i) => item(i))
    .filter((entry) => rule(who, entry))
    .map((entry) => entry.key);

describe('catalog visibility: filtered pagination', () => {
  for (const pageSize of [500, 100]) {
    it(`F8 two callers walk ${TOTAL} entries (page size ${pageSize}) and each sees exactly its own set, in order`, () => {
      const list = catalog(pageSize);
      const a = walk(list, alice, rule);
      const b = walk(list, bob, rule);
      assert.equal(expected(alice).length, 600);
      assert.equal(expected(bob).length, 311);
      assert.deepEqual(a.names, expected(alice));
      assert.deepEqual(b.names, expected(bob));
      const aliceSet = new Set(expected(alice));
      const bobOnly = new Set(expected(bob).filter((name) => !aliceSet.has(name)));
      assert.ok(bobOnly.size > 100, 'the sets differ');
      assert.equal(a.names.filter((name) => bobOnly.has(name)).length, 0);
      assert.equal(a.pages.length, Math.ceil(600 / pageSize));
      assert.equal(b.pages.length, Math.ceil(311 / pageSize));
      for (const page of a.pages) assert.ok(page.tools.length <= pageSize);
    });
  }

  it('F8 modern per-caller pages carry cacheScope "private" (the derived tail when none is given)', () => {
    const list = catalog(500);
    for (const page of walk(list, alice, rule).pages) {
      assert.equal(page.cacheScope, 'private');
      assert.equal(page.ttlMs, 5);
      assert.equal(page.resultType, 'complete');
      assert.deepEqual(page._meta, { x: 1 });
    }
  });

  it('F8 modern per-caller pages use privateModernTail when given', () => {
    const list = catalog(500, { privateModernTail: PRIVATE_TAIL });
    const raw = list.pageFor(undefined, 'modern', bob, rule);
    assert.ok(raw.endsWith(',' + PRIVATE_TAIL + '}'), raw.slice(-120));
    assert.equal(raw.includes('"public"'), false);
  });

  it('legacy per-caller pages have no cache hints, and the entries are in the variant asked for', () => {
    const list = catalog(100);
    for (const variant of ['legacy', 'legacy-old'] as const) {
      const { names, pages } = walk(list, bob, rule, variant);
      assert.deepEqual(names, expected(bob));
      for (const page of pages) {
        assert.deepEqual(Object.keys(page).sort(), page.nextCursor ? ['nextCursor', 'tools'] : ['tools']);
        for (const tool of page.tools) assert.equal(tool.era, variant === 'legacy' ? 'legacy' : undefined);
      }
    }
  });

  it('F8 without a predicate pageFor serves the unchanged static pages with the public tail', () => {
    const list = catalog(500);
    const first = list.pageFor(undefined, 'modern', alice, undefined);
    assert.equal(first, list.page(0, 'modern'));
    assert.ok(first.endsWith(`,"nextCursor":${JSON.stringify(encodeCursor(500))},${PUBLIC_TAIL}}`));
    const { names, pages } = walk(list, bob, undefined);
    assert.equal(names.length, TOTAL);
    for (const page of pages) assert.equal(page.cacheScope, 'public');
    assert.equal(list.pageFor(undefined, 'legacy', alice, undefined), list.page(0, 'legacy'));
    assert.equal(list.visibleCacheStats().sets, 0); // no per-caller state without a predicate
  });

  it('a caller who sees nothing gets one empty page', () => {
    const list = catalog(100);
    const page = JSON.parse(list.pageFor(undefined, 'modern', caller('mallory'), () => false)) as Page;
    assert.deepEqual(page.tools, []);
    assert.equal(page.nextCursor, undefined);
  });
});

describe('catalog visibility: cursors', () => {
  it('the cursor of page N fetches page N+1 of the same caller', () => {
    const list = catalog(100);
    const { cursors } = walk(list, alice, rule);
    assert.equal(cursors.length, 5);
    cursors.forEach((cursor, n) => {
      const page = JSON.parse(list.pageFor(cursor, 'modern', alice, rule)) as Page;
      assert.deepEqual(
        page.tools.map((tool) => tool.name),
        expected(alice).slice((n + 1) * 100, (n + 2) * 100),
      );
    });
  });

  it("F8 a cursor past the end of the caller's own list fails with -32602, though it fits another caller's", () => {
    const list = catalog(100);
    const aliceCursors = walk(list, alice, rule).cursors; // offsets 100…500; bob has 311 entries
    assert.doesNotThrow(() => list.pageFor(aliceCursors[2], 'modern', bob, rule)); // offset 300 < 311
    assert.throws(() => list.pageFor(aliceCursors[3], 'modern', bob, rule), INVALID_CURSOR); // offset 400
    assert.throws(() => list.pageFor(aliceCursors[4], 'modern', bob, rule), INVALID_CURSOR);
  });

  for (const [label, cursor] of [
    ['not a string', 100],
    ['not one we issued', 'abc'],
    ['off a page boundary', encodeCursor(150)],
    ['offset zero', encodeCursor(0)],
    ['past the whole catalog', encodeCursor(1300)],
  ] as const) {
    it(`a cursor ${label} fails with the -32602 text, with a predicate as without`, () => {
      const list = catalog(100);
      assert.throws(() => list.pageFor(cursor, 'modern', alice, rule), INVALID_CURSOR);
      assert.throws(() => list.pageFor(cursor, 'modern', alice, undefined), INVALID_CURSOR);
    });
  }
});

describe('catalog visibility: caching', () => {
  it('the predicate runs at most once per entry per caller object per generation', () => {
    const list = catalog(100);
    const { visible, calls } = counting();
    walk(list, alice, visible);
    walk(list, alice, visible);
    walk(list, bob, visible, 'legacy');
    for (let i = 0; i < TOTAL; i += 7) list.getFor(`t${i}`, alice, visible);
    list.enabledFor(bob, visible);
    assert.deepEqual(Object.fromEntries(calls), { alice: TOTAL, bob: TOTAL });
  });

  it('getFor on a fresh caller asks about that entry only', () => {
    const list = catalog(100);
    const { visible, calls } = counting();
    const carol = caller('alice');
    assert.equal(list.getFor('t4', carol, visible)?.key, 't4');
    assert.equal(list.getFor('t4', carol, visible)?.key, 't4');
    assert.equal(calls.get('alice'), 1);
  });

  it('two caller objects with the same visible set share one cached subset', () => {
    const list = catalog(100);
    const { visible, calls } = counting();
    const again = caller('alice');
    assert.deepEqual(walk(list, again, visible).names, walk(list, alice, visible).names);
    assert.equal(calls.get('alice'), 2 * TOTAL); // memoised per caller object, not per subject
    assert.equal(list.visibleCacheStats().sets, 1);
  });

  it('F8 disabling an entry removes it from both callers’ lists (the cache is per generation)', () => {
    const list = catalog(100);
    const { visible, calls } = counting();
    assert.ok(walk(list, alice, visible).names.includes('t100'));
    assert.ok(walk(list, bob, visible).names.includes('t100'));
    list.setEnabled('t100', false);
    assert.equal(list.visibleCacheStats().sets, 0);
    assert.deepEqual(
      walk(list, alice, visible).names,
      expected(alice).filter((name) => name !== 't100'),
    );
    assert.deepEqual(
      walk(list, bob, visible).names,
      expected(bob).filter((name) => name !== 't100'),
    );
    assert.equal(list.getFor('t100', alice, visible), undefined);
    assert.equal(calls.get('alice'), TOTAL + TOTAL - 1);
  });

  it('F8 add, replace and remove each start a new generation of per-caller lists', () => {
    const list = catalog(100);
    walk(list, bob, rule);
    list.add(item(1200)); // "t1200": bob's prefix
    assert.equal(walk(list, bob, rule).names.at(-1), 't1200');
    list.replace('t1200', { ...item(1201), key: 't1201' });
    assert.equal(walk(list, bob, rule).names.at(-1), 't1201');
    list.remove('t1201');
    assert.deepEqual(walk(list, bob, rule).names, expected(bob));
  });

  it('a different predicate function starts the per-caller caches over', () => {
    const list = catalog(100);
    walk(list, alice, rule);
    const odd: EntryVisibility<Item> = (_who, entry) => entry.index % 2 === 1;
    assert.deepEqual(walk(list, alice, odd).names.slice(0, 3), ['t1', 't3', 't5']);
  });

  it('F8 the page cache keeps at most 64 visible sets, and an evicted set is rebuilt correctly', () => {
    const list = catalog(100);
    const { visible, calls } = counting((who, entry) => entry.index % 100 !== Number(who.subject));
    const callers = Array.from({ length: 100 }, (_, i) => caller(String(i)));
    for (const who of callers) list.pageFor(undefined, 'modern', who, visible);
    assert.equal(list.visibleCacheStats().sets, 64);
    const first = JSON.parse(list.pageFor(undefined, 'modern', callers[0] as Caller, visible)) as Page;
    assert.equal(first.tools.length, 100);
    assert.equal(first.tools[0]?.name, 't1'); // t0 is the one entry caller 0 does not see
    assert.equal(list.visibleCacheStats().sets, 64);
    assert.equal(calls.get('0'), TOTAL); // its membership survived eviction: only its pages were rebuilt
  });

  it('the page cache drops least recently used sets past its character budget, never the one in use', () => {
    const onePage = catalog(100).pageFor(undefined, 'modern', alice, rule).length;
    const list = catalog(100, { visibleCacheLimits: { sets: 64, pageChars: onePage * 3 } });
    for (let i = 0; i < 10; i++) {
      list.pageFor(undefined, 'modern', caller(`c${i}`), (_who, entry) => entry.index % 10 !== i);
      const stats = list.visibleCacheStats();
      assert.ok(stats.pageChars <= onePage * 3 + 100, JSON.stringify(stats));
    }
    assert.ok(list.visibleCacheStats().sets <= 4);
    const huge = catalog(1000, { visibleCacheLimits: { sets: 64, pageChars: 10 } });
    assert.equal(JSON.parse(huge.pageFor(undefined, 'modern', alice, rule)).tools.length, 600);
    assert.equal(huge.visibleCacheStats().sets, 1);
  });
});

describe('catalog visibility: lookups and failures', () => {
  it('getFor: an invisible entry looks exactly like an unknown or disabled one', () => {
    const list = catalog(100);
    assert.equal(list.getFor('t2', alice, rule)?.key, 't2');
    assert.equal(list.getFor('t3', alice, rule), undefined);
    assert.equal(list.getFor('nope', alice, rule), undefined);
    list.setEnabled('t2', false);
    assert.equal(list.getFor('t2', alice, rule), undefined);
    assert.equal(list.getFor('t3', alice, undefined)?.key, 't3');
  });

  it('enabledFor gives the caller’s visible entries in registration order', () => {
    const list = catalog(100);
    assert.deepEqual(
      list.enabledFor(bob, rule).map((entry) => entry.key),
      expected(bob),
    );
    assert.equal(list.enabledFor(bob, undefined).length, TOTAL);
  });

  it('only true means visible (fail closed on a truthy non-boolean)', () => {
    const list = catalog(100, {}, 3);
    const sloppy = ((_who: Caller, entry: Item) =>
      entry.index === 1 ? 'yes' : true) as unknown as EntryVisibility<Item>; // a JS caller's mistake
    assert.deepEqual(
      list.enabledFor(alice, sloppy).map((entry) => entry.key),
      ['t0', 't2'],
    );
  });

  it('a predicate that throws fails the request with its error, and is asked again next time', () => {
    const list = catalog(100, {}, 5);
    let failing = true;
    let asked = 0;
    const flaky: EntryVisibility<Item> = (_who, entry) => {
      if (entry.index === 3) {
        asked++;
        if (failing) throw new Error('policy store unreachable');
      }
      return true;
    };
    assert.throws(() => list.pageFor(undefined, 'modern', alice, flaky), {
      message: 'policy store unreachable',
    });
    assert.throws(() => list.getFor('t3', alice, flaky), { message: 'policy store unreachable' });
    failing = false;
    assert.equal(JSON.parse(list.pageFor(undefined, 'modern', alice, flaky)).tools.length, 5);
    assert.equal(asked, 3);
  });
});
