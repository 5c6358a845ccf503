// C8 server pins: trusted on the gateway's first run, a server added later or changed is held (not started) until
// approved, a removed-then-re-added one is new again, and the hold message shows the full command and the change.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { UpstreamConfig } from '../upstream/index.js';
import { admitServer, admitServers } from './admit-server.js';
import { launchDefinition, launchDigest, secretHash } from './launch-definition.js';
import { memoryPinStore } from './memory-store.js';
import { ServerPinBook } from './server-pin-book.js';
import { PinError } from './types.js';

const a: UpstreamConfig = { name: 'a', command: 'node', args: ['a.js'], env: { TOKEN: 's3cret' } };
const b: UpstreamConfig = {
  name: 'b',
  command: 'npx',
  args: ['-y', '@scope/b@1.2.3', '--root', '/srv/my files'],
};
const web: UpstreamConfig = {
  name: 'web',
  url: 'https://mcp.example.com/mcp',
  headers: { Authorization: 'Bearer ${WEB_TOKEN}' },
};
const clock = (): number => Date.parse('2026-11-27T12:00:00Z');

const reason = (admission: ReturnType<typeof admitServer>): string =>
  admission.start ? assert.fail('expected a hold') : admission.reason;

describe('ServerPinBook', () => {
  test('C8 servers seen on the first run are trusted and recorded, with the full command in the note', () => {
    const store = memoryPinStore();
    const book = new ServerPinBook(store, { now: clock });
    assert.equal(book.firstRun, true);
    const admissions = admitServers(book, [a, b, web]);
    assert.deepEqual(
      [...admissions.values()].map((admission) => admission.start),
      [true, true, true],
    );
    const note = admissions.get('b');
    assert.equal(
      note?.start === true && note.note,
      `upstream "b" trusted on the gateway's first run and pinned; a later change holds it until approved:\n  command: npx -y @scope/b@1.2.3 --root '/srv/my files'`,
    );
    assert.deepEqual(
      store.listServers().map((record) => [record.server, record.state]),
      [
        ['a', 'pinned'],
        ['b', 'pinned'],
        ['web', 'pinned'],
      ],
    );
    // The next start: the same definitions match, nothing is noted.
    const next = new ServerPinBook(store, { now: clock });
    assert.equal(next.firstRun, false);
    assert.deepEqual(admitServer(next, a), { start: true, findings: [] });
  });

  test('C8 a server added after the first run is held, and the hold shows its full command and how to approve', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    const book = new ServerPinBook(store, { now: clock });
    const admission = admitServer(book, b, { configFile: '/etc/tool wire.json' });
    const digest = launchDigest(launchDefinition(b));
    assert.equal(
      reason(admission),
      [
        'upstream "b" is new (not in the config when the gateway first ran, and never approved), so it is held and not started until an admin approves it:',
        "  command: npx -y @scope/b@1.2.3 --root '/srv/my files'",
        `approve it with: toolwire pins approve b --config '/etc/tool wire.json' --digest ${digest.slice(0, 12)}   (toolwire pins diff b --config '/etc/tool wire.json' shows the change)`,
      ].join('\n'),
    );
    assert.equal(store.getServer('b')?.state, 'held');
    // Held across restarts, until approved.
    assert.equal(admitServer(new ServerPinBook(store), b).start, false);
    const approved = new ServerPinBook(store).approve('b', digest.slice(0, 12));
    assert.equal(approved.state, 'pinned');
    assert.deepEqual(admitServer(new ServerPinBook(store), b), { start: true, findings: [] });
  });

  test('C8 a changed launch definition is held with a diff that shows secrets only as hashes', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    const changed: UpstreamConfig = { ...a, args: ['a.js', '--evil'], env: { TOKEN: 'other-secret' } };
    const text = reason(admitServer(new ServerPinBook(store), changed));
    assert.match(text, /^upstream "a" changed its launch definition since it was approved, so it is held/);
    assert.match(text, /\n {2}command: node a\.js --evil\n {2}env: TOKEN \(sha256:/);
    assert.match(text, /\n-\s+"TOKEN": "sha256:[0-9a-f]{64}"\n\+\s+"TOKEN": "sha256:[0-9a-f]{64}"/);
    assert.match(text, /\n\+\s+"--evil"/);
    assert.ok(!text.includes('s3cret') && !text.includes('other-secret'), 'no secret value is shown');
    assert.equal(new ServerPinBook(store).diff('a')?.includes(secretHash('other-secret')), true);
  });

  test('C8 a change undone in the config before approval starts the approved definition again', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    assert.equal(admitServer(new ServerPinBook(store), { ...a, args: ['evil.js'] }).start, false);
    assert.deepEqual(admitServer(new ServerPinBook(store), a), { start: true, findings: [] });
    assert.equal(store.getServer('a')?.state, 'pinned');
    assert.equal(store.getServer('a')?.pending, undefined);
  });

  test('C8 a removed then re-added server is new again, even with the same definition', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a, b]);
    admitServers(new ServerPinBook(store, { now: clock }), [a]); // b removed from the config
    assert.equal(store.getServer('b')?.state, 'removed');
    assert.equal(store.getServer('b')?.removedAt, '2026-11-27T12:00:00.000Z');
    const back = admitServers(new ServerPinBook(store), [a, b]).get('b');
    assert.ok(back !== undefined && !back.start);
    assert.match(back.reason, /^upstream "b" was removed from the config and added again, so it is held/);
    assert.match(
      back.reason,
      /b: configured as approved \(sha256 [0-9a-f]{12}\), but it was removed from the config at 2026-11-27T12:00:00.000Z and added again/,
    );
    new ServerPinBook(store).approve('b');
    assert.equal(admitServer(new ServerPinBook(store), b).start, true);
    assert.equal(store.getServer('b')?.removedAt, undefined);
  });

  test('C8 a renamed server (same definition, another name) is new', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    assert.equal(admitServers(new ServerPinBook(store), [{ ...a, name: 'a2' }]).get('a2')?.start, false);
  });

  test('C8 firstRun hold: even the first run holds every server', () => {
    const book = new ServerPinBook(memoryPinStore(), { firstRun: 'hold' });
    assert.equal(book.firstRun, false);
    assert.equal(admitServer(book, a).start, false);
  });

  test('C8 a store from before server pins adopts the servers whose tools it pinned, and holds the others', () => {
    const store = memoryPinStore();
    store.put({
      server: 'a',
      tool: 't',
      digest: 'x',
      definition: { name: 't', inputSchema: { type: 'object' } },
      state: 'pinned',
      firstSeen: '2026-01-01T00:00:00.000Z',
    });
    const book = new ServerPinBook(store);
    assert.equal(book.firstRun, false);
    const admitted = admitServer(book, a);
    assert.equal(
      admitted.start && admitted.note?.split('\n')[0],
      'upstream "a" pinned as configured (the pin store predates server pins, and its tools were pinned already); a later change holds it until approved:',
    );
    assert.equal(admitServer(book, b).start, false);
  });

  test('C8 an unpinned package starts with a warning, or is refused under unpinned: deny even when approved', () => {
    const store = memoryPinStore();
    const loose: UpstreamConfig = { name: 'loose', command: 'npx', args: ['-y', 'pkg'] };
    const warned = admitServer(new ServerPinBook(store), loose);
    assert.equal(warned.start, true);
    assert.equal(warned.findings[0]?.where, 'args[1]');
    assert.equal(
      reason(admitServer(new ServerPinBook(store), loose, { unpinned: 'deny' })),
      'upstream "loose" is not started: it fetches code at start without pinning it (unpinned: deny):\n  args[1]: npx fetches code at every start: "pkg" has no version: pin it as "pkg@<exact version>" (npm view pkg version gives the latest)',
    );
  });

  test('C8 HTTP upstreams pin the URL, header names with value hashes and the credential settings', () => {
    const definition = launchDefinition({
      ...web,
      credentials: { kind: 'client-credentials', clientId: 'gw', clientSecretEnv: 'GW_SECRET' },
      trusted: true,
    });
    assert.deepEqual(definition, {
      kind: 'http',
      url: 'https://mcp.example.com/mcp',
      headers: { Authorization: secretHash('Bearer ${WEB_TOKEN}') },
      credentials: { kind: 'client-credentials', clientId: 'gw', clientSecretEnv: 'GW_SECRET' },
      trusted: true,
    });
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [web]);
    const moved = reason(admitServer(new ServerPinBook(store), { ...web, url: 'https://evil.example/mcp' }));
    assert.match(
      moved,
      /\n {2}url: https:\/\/evil\.example\/mcp\n {2}headers: Authorization \(sha256:[0-9a-f]{64}\)\n/,
    );
    assert.match(
      moved,
      /\n-\s+"url": "https:\/\/mcp\.example\.com\/mcp"\n\+\s+"url": "https:\/\/evil\.example\/mcp"/,
    );
  });

  test('C8 what does not change what runs does not hold: time limits, empty args, key order', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [{ name: 'n', command: 'node', env: { B: '2', A: '1' } }]);
    const same: UpstreamConfig = {
      name: 'n',
      command: 'node',
      args: [],
      env: { A: '1', B: '2' },
      timeoutMs: 5,
    };
    assert.deepEqual(admitServer(new ServerPinBook(store), same), { start: true, findings: [] });
  });

  test('C8 the cwd is pinned resolved against the config directory: the same config moved elsewhere is held', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store, { baseDir: '/srv/one' }), [a]);
    assert.deepEqual(store.getServer('a')?.definition, launchDefinition(a, { baseDir: '/srv/one' }));
    assert.equal(admitServer(new ServerPinBook(store, { baseDir: '/srv/one' }), a).start, true);
    assert.equal(admitServer(new ServerPinBook(store, { baseDir: '/tmp/other' }), a).start, false);
  });

  test('C8 the hold message escapes control and invisible characters in the command line', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    const sneaky: UpstreamConfig = {
      name: 's',
      command: 'node',
      args: ['ok.js\u202e', '\u001b[2Jx', "it's"],
    };
    const text = reason(admitServer(new ServerPinBook(store), sneaky));
    assert.match(text, /\n {2}command: node \$'ok\.js\\u202e' \$'\\x1b\[2Jx' 'it'\\''s'\n/);
    assert.ok(!text.includes('\u202e') && !text.includes('\u001b'), 'nothing raw');
  });

  test('C8 approve: unknown, not held, stale digest', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    const book = new ServerPinBook(store);
    assert.throws(() => book.approve('zz'), {
      name: 'PinError',
      code: 'unknown-server',
      message: 'no pinned server zz',
    });
    assert.throws(() => book.approve('a'), {
      code: 'not-held',
      message: 'a is not held: its pinned definition is the one configured',
    });
    admitServer(book, { ...a, args: ['v2.js'] });
    assert.throws(
      () => book.approve('a', 'deadbeef'),
      (error: unknown) => {
        assert.ok(error instanceof PinError);
        assert.equal(error.code, 'digest-mismatch');
        assert.match(
          error.message,
          /^a changed again: its configured definition is sha256 [0-9a-f]{12}, not deadbeef; read the diff again$/,
        );
        return true;
      },
    );
    assert.throws(() => book.approve('a', 'xyz'), { code: 'digest-mismatch' });
    admitServers(book, []);
    assert.throws(() => book.approve('a'), {
      message:
        'a is not held: it was removed from the config; it is held when it comes back, then approve it',
    });
  });

  test('C8 a store that cannot answer holds the server (fail closed)', () => {
    const store = memoryPinStore();
    admitServers(new ServerPinBook(store), [a]);
    const broken = {
      ...store,
      getServer: () => {
        throw new PinError('store', 'disk on fire');
      },
    };
    assert.equal(
      reason(admitServer(new ServerPinBook(broken), b)),
      'upstream "b" is not started: its server pin cannot be checked (disk on fire)',
    );
  });

  test('C8 the server records are bounded: the longest-removed record makes room, else the store is full', () => {
    const store = memoryPinStore(100, 2);
    admitServers(new ServerPinBook(store), [a, b]);
    const held = admitServers(new ServerPinBook(store), [a, b, web]).get('web');
    assert.ok(held !== undefined && !held.start);
    assert.match(held.reason, /the pin store holds 2 servers already/);
    admitServers(new ServerPinBook(store), [a]); // b removed
    assert.equal(admitServers(new ServerPinBook(store), [a, web]).get('web')?.start, false);
    assert.equal(store.getServer('b'), undefined, 'the removed record made room');
    assert.equal(store.getServer('web')?.state, 'held');
  });
});
