// LiveList: the registry of open responses and session requests (protocol/live-list.ts). What matters beyond add and
// remove: a removed node keeps no link to any other node or item, so nothing ties one request to the next.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveList, type LiveNode } from '../src/protocol/live-list.js';

interface Item {
  readonly name: string;
}

/** What a node still points at (its fields are internal; the test reads them to prove they are cleared). */
const links = (node: LiveNode<Item>): unknown[] => {
  const raw = node as unknown as { item: unknown; prev: unknown; next: unknown };
  return [raw.item, raw.prev, raw.next];
};

describe('LiveList', () => {
  it('adds, removes from the head, middle and tail, and lists what is left newest first', () => {
    const list = new LiveList<Item>();
    const a = list.add({ name: 'a' });
    const b = list.add({ name: 'b' });
    const c = list.add({ name: 'c' });
    const d = list.add({ name: 'd' });
    assert.equal(list.size, 4);
    list.remove(b); // middle
    assert.deepEqual(
      list.items().map((item) => item.name),
      ['d', 'c', 'a'],
    );
    list.remove(d); // head
    assert.deepEqual(
      list.items().map((item) => item.name),
      ['c', 'a'],
    );
    list.remove(a); // tail
    assert.deepEqual(
      list.items().map((item) => item.name),
      ['c'],
    );
    list.remove(c);
    assert.deepEqual(list.items(), []);
    assert.equal(list.size, 0);
  });

  it('a removed node links to nothing (no chain from one request to the next)', () => {
    const list = new LiveList<Item>();
    const nodes = [0, 1, 2, 3, 4].map((index) => list.add({ name: String(index) }));
    for (const node of [nodes[2]!, nodes[4]!, nodes[0]!]) {
      list.remove(node);
      assert.deepEqual(links(node), [undefined, undefined, undefined]);
    }
    assert.deepEqual(
      list.items().map((item) => item.name),
      ['3', '1'],
    );
  });

  it('removing a node twice, or a node of another list, changes nothing', () => {
    const list = new LiveList<Item>();
    const other = new LiveList<Item>();
    const a = list.add({ name: 'a' });
    list.add({ name: 'b' });
    const stranger = other.add({ name: 'x' });
    list.remove(a);
    list.remove(a);
    list.remove(stranger);
    assert.equal(list.size, 1);
    assert.deepEqual(
      list.items().map((item) => item.name),
      ['b'],
    );
    assert.equal(other.size, 1);
  });

  it('items() is a copy: removing while going through it is safe', () => {
    const list = new LiveList<Item>();
    const places = new Map<Item, LiveNode<Item>>();
    for (const name of ['a', 'b', 'c']) {
      const item = { name };
      places.set(item, list.add(item));
    }
    const seen: string[] = [];
    for (const item of list.items()) {
      seen.push(item.name);
      list.remove(places.get(item)!);
    }
    assert.deepEqual(seen, ['c', 'b', 'a']);
    assert.equal(list.size, 0);
  });

  it('clear() empties the list and unlinks every node', () => {
    const list = new LiveList<Item>();
    const nodes = [list.add({ name: 'a' }), list.add({ name: 'b' })];
    list.clear();
    assert.equal(list.size, 0);
    assert.deepEqual(list.items(), []);
    for (const node of nodes) assert.deepEqual(links(node), [undefined, undefined, undefined]);
    list.remove(nodes[0]!); // removed already: nothing happens
    assert.equal(list.size, 0);
  });
});
