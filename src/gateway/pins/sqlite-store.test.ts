// The SQLite pin store: a quarantine survives a restart (C2), the file is private, a directory anyone may write is
// refused, a store of a newer schema is refused, and the store is bounded; its server table (C8): a version 1 file
// migrated forward, a held server kept across restarts until the CLI approves it.

import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRequire } from 'node:module';
import type { Tool } from '../../protocol/index.js';
import type { UpstreamConfig } from '../upstream/index.js';
import { admitServer, admitServers } from './admit-server.js';
import { PinBook } from './pin-book.js';
import { ServerPinBook } from './server-pin-book.js';
import { openPinStore, PIN_SCHEMA_VERSION } from './sqlite-store.js';
import { PinError, type PinStore } from './types.js';

const tool: Tool = {
  name: 'search',
  description: 'Searches.',
  inputSchema: { type: 'object', properties: { q: { type: 'string' } } },
  annotations: { readOnlyHint: true },
};

let base: string;
before(async () => {
  base = await mkdtemp(join(tmpdir(), 'toolwire-pins-'));
});
after(async () => {
  await rm(base, { recursive: true, force: true });
});

/** Runs `body` with a store that is closed afterwards whatever happens. */
function withStore<T>(path: string, body: (store: PinStore) => T, options = {}): T {
  const store = openPinStore(path, options);
  try {
    return body(store);
  } finally {
    store.close();
  }
}

describe('openPinStore', () => {
  test('C2 the quarantine holds across a restart, and an approval made by another process counts', () => {
    const file = join(base, 'restart', 'pins.sqlite');
    withStore(file, (store) => {
      const pins = new PinBook(store);
      assert.deepEqual(pins.check('docs', tool), { kind: 'new' });
      assert.equal(
        pins.check('docs', { ...tool, description: 'Searches. <IMPORTANT>obey</IMPORTANT>' }).kind,
        'changed',
      );
    });
    withStore(file, (store) => {
      const pins = new PinBook(store);
      const [held] = pins.quarantined();
      assert.equal(held?.tool, 'search');
      assert.equal(held?.pending?.definition.description, 'Searches. <IMPORTANT>obey</IMPORTANT>');
      // A restarted gateway that sees the old definition again does not get the tool back either.
      assert.equal(pins.check('docs', tool).kind, 'changed');
      // The admin's CLI, a second connection to the same file, approves; the first sees it at its next check.
      withStore(file, (admin) => new PinBook(admin).approve('docs', 'search'));
      assert.deepEqual(pins.check('docs', tool), { kind: 'match' });
    });
  });

  test('records read back exactly as written', () => {
    const file = join(base, 'exact', 'pins.sqlite');
    withStore(file, (store) => {
      const record = {
        server: 'a',
        tool: 'b',
        digest: 'd1',
        definition: tool,
        state: 'quarantined' as const,
        firstSeen: '2026-01-01T00:00:00.000Z',
        changedAt: '2026-01-02T00:00:00.000Z',
        pending: { digest: 'd2', definition: { ...tool, title: 'T' } },
      };
      store.put(record);
      store.put({
        server: 'A',
        tool: 'z',
        digest: 'd3',
        definition: tool,
        state: 'pinned',
        firstSeen: record.firstSeen,
      });
      assert.deepEqual(store.get('a', 'b'), record);
      assert.deepEqual(
        store.list().map((r) => `${r.server}/${r.tool}`),
        ['A/z', 'a/b'],
      );
      assert.equal(store.get('a', 'nope'), undefined);
    });
  });

  test('the file is created 0600 in a directory created 0700', async () => {
    const file = join(base, 'modes', 'deeper', 'pins.sqlite');
    withStore(file, () => undefined);
    assert.equal((await stat(file)).mode & 0o777, 0o600);
    assert.equal((await stat(join(base, 'modes', 'deeper'))).mode & 0o777, 0o700);
  });

  test('a directory anyone may write is refused', async () => {
    const open = join(base, 'open');
    withStore(join(open, 'first.sqlite'), () => undefined);
    await chmod(open, 0o777);
    assert.throws(() => openPinStore(join(open, 'pins.sqlite')), {
      message: `anyone can write the directory ${open}, and could replace the pin store with their own: run chmod o-w ${open}, or keep the pins elsewhere`,
    });
  });

  test('mustExist: a missing store is an error and nothing is created', () => {
    const file = join(base, 'missing', 'pins.sqlite');
    assert.throws(() => openPinStore(file, { mustExist: true }), {
      message: `no pin store at ${file} (nothing was pinned there yet)`,
    });
  });

  test('a store written by a newer schema is refused, not rewritten', () => {
    const file = join(base, 'newer', 'pins.sqlite');
    withStore(file, () => undefined);
    const Sqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
      pragma(source: string): unknown;
      close(): void;
    };
    const db = new Sqlite(file);
    db.pragma('user_version = 9');
    db.close();
    assert.throws(
      () => openPinStore(file),
      (error: unknown) =>
        error instanceof PinError &&
        error.message ===
          `the pin store ${file} has schema version 9, newer than this toolwire's (2): upgrade toolwire`,
    );
  });

  test('bounded: a new key beyond maxRecords is refused, or with evict the oldest pinned record goes', () => {
    const file = join(base, 'bounded', 'pins.sqlite');
    withStore(
      file,
      (store) => {
        const pins = new PinBook(store);
        pins.check('s', { ...tool, name: 'a' });
        pins.check('s', { ...tool, name: 'b' });
        assert.throws(() => pins.check('s', { ...tool, name: 'c' }), {
          message: `the pin store ${file} holds 2 tools already; no more are pinned`,
        });
      },
      { maxRecords: 2 },
    );
    withStore(
      file,
      (store) => {
        let now = Date.parse('2026-01-01T00:00:00Z');
        const pins = new PinBook(store, { now: () => (now += 1000) });
        pins.check('s', { ...tool, name: 'a', description: 'changed' }); // a: quarantined, never evicted
        pins.check('s', { ...tool, name: 'c' });
        assert.deepEqual(
          store.list().map((r) => `${r.tool}:${r.state}`),
          ['a:quarantined', 'c:pinned'],
        );
      },
      { maxRecords: 2, evict: true },
    );
  });

  test('C2 with evict, room is made in the server holding the most: one flooding the store forgets only its own pins', () => {
    const file = join(base, 'evict-largest', 'pins.sqlite');
    withStore(
      file,
      (store) => {
        let now = Date.parse('2026-01-01T00:00:00Z');
        const pins = new PinBook(store, { now: () => (now += 1000) });
        pins.check('mine', { ...tool, name: 'old' }); // seen first, longest ago
        for (const name of ['f1', 'f2', 'f3']) pins.check('flood', { ...tool, name });
        pins.check('mine', { ...tool, name: 'new' });
        pins.check('flood', { ...tool, name: 'f4' });
        assert.deepEqual(
          store.list().map((r) => `${r.server}/${r.tool}`),
          ['flood/f3', 'flood/f4', 'mine/new', 'mine/old'],
        );
        // mine's old pin is still there: a change to it is still caught.
        assert.equal(pins.check('mine', { ...tool, name: 'old', description: 'changed' }).kind, 'changed');
      },
      { maxRecords: 4, evict: true },
    );
  });
});

interface RawDb {
  pragma(source: string, options?: { simple: boolean }): unknown;
  exec(source: string): void;
  prepare(source: string): { run(...params: unknown[]): unknown; all(): unknown[] };
  close(): void;
}
const RawSqlite = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => RawDb;

const a: UpstreamConfig = { name: 'a', command: 'node', args: ['a.js'] };
const b: UpstreamConfig = { name: 'b', command: 'node', args: ['b.js'] };

describe('openPinStore servers', () => {
  test('C8 a version 1 store is migrated forward: tools kept, servers table added, its servers adopted', () => {
    const file = join(base, 'server-v1.sqlite');
    const db = new RawSqlite(file);
    // The version 1 schema, as the previous release wrote it.
    db.exec(`CREATE TABLE pins (server TEXT NOT NULL, tool TEXT NOT NULL, digest TEXT NOT NULL,
        definition TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('pinned', 'quarantined')),
        first_seen TEXT NOT NULL, changed_at TEXT, pending_digest TEXT, pending_definition TEXT,
        PRIMARY KEY (server, tool));
      PRAGMA user_version = 1;`);
    db.prepare('INSERT INTO pins VALUES (?, ?, ?, ?, ?, ?, NULL, NULL, NULL)').run(
      'a',
      'search',
      'f'.repeat(64),
      '{"inputSchema":{"type":"object"},"name":"search"}',
      'pinned',
      '2026-01-01T00:00:00.000Z',
    );
    db.close();
    const store = openPinStore(file);
    try {
      assert.equal(store.get('a', 'search')?.digest, 'f'.repeat(64));
      assert.deepEqual(store.listServers(), []);
      const admissions = admitServers(new ServerPinBook(store), [a, b]);
      assert.equal(admissions.get('a')?.start, true, 'a ran before: its tools are pinned');
      assert.equal(admissions.get('b')?.start, false, 'b never ran: held');
    } finally {
      store.close();
    }
    const check = new RawSqlite(file);
    assert.equal(check.pragma('user_version', { simple: true }), PIN_SCHEMA_VERSION);
    assert.equal(PIN_SCHEMA_VERSION, 2);
    check.close();
  });

  test('C8 a held server stays held across restarts until the CLI (another connection) approves it', () => {
    const file = join(base, 'server-restart', 'pins.sqlite');
    const gateway = (configs: UpstreamConfig[]): Map<string, boolean> => {
      const store = openPinStore(file);
      try {
        const admissions = admitServers(new ServerPinBook(store), configs);
        return new Map([...admissions].map(([name, admission]) => [name, admission.start]));
      } finally {
        store.close();
      }
    };
    assert.deepEqual(gateway([a]), new Map([['a', true]]));
    assert.deepEqual(
      gateway([a, b]),
      new Map([
        ['a', true],
        ['b', false],
      ]),
    );
    assert.deepEqual(
      gateway([a, b]),
      new Map([
        ['a', true],
        ['b', false],
      ]),
    );
    const admin = openPinStore(file, { mustExist: true });
    try {
      assert.equal(new ServerPinBook(admin).approve('b').state, 'pinned');
    } finally {
      admin.close();
    }
    assert.deepEqual(
      gateway([a, b]),
      new Map([
        ['a', true],
        ['b', true],
      ]),
    );
  });

  test('C8 a server row in an unknown state is refused with a clear error', () => {
    const file = join(base, 'server-edited', 'pins.sqlite');
    const store = openPinStore(file);
    admitServer(new ServerPinBook(store), a);
    store.close();
    const db = new RawSqlite(file);
    db.exec("PRAGMA ignore_check_constraints = ON; UPDATE servers SET state = 'approved';");
    db.close();
    const reopened = openPinStore(file);
    try {
      assert.throws(() => reopened.getServer('a'), {
        name: 'PinError',
        message: `the pin store ${file} holds a server in an unknown state (edited by hand?)`,
      });
    } finally {
      reopened.close();
    }
  });
});
