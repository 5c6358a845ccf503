// C8 what the gateway does before starting upstreams: the first run's servers are trusted and logged with their full
// command, a later one is held (logged, with a status row), a removed one is noted, findings are warned about.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Logger } from '../../server/index.js';
import type { UpstreamConfig } from '../upstream/index.js';
import { admitUpstreams } from './admit-upstreams.js';
import { memoryPinStore } from './memory-store.js';

function recorder(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep =
    (level: string) =>
    (message: string): void =>
      void lines.push(`${level} ${message}`);
  return { lines, debug: keep('debug'), info: keep('info'), warn: keep('warn'), error: keep('error') };
}

const a: UpstreamConfig = { name: 'a', command: 'node', args: ['a.js'] };
const b: UpstreamConfig = { name: 'b', command: 'npx', args: ['-y', 'b-mcp'] };
const options = { configFile: '/srv/gw/toolwire.json', baseDir: '/srv/gw' };

describe('admitUpstreams', () => {
  test('C8 first run trusted and logged; a server added later is held, logged with its command, and shown held', () => {
    const store = memoryPinStore();
    const first = recorder();
    assert.deepEqual(admitUpstreams(store, [a], { ...options, logger: first }), { start: [a], held: [] });
    assert.deepEqual(first.lines, [
      `info gateway: upstream "a" trusted on the gateway's first run and pinned; a later change holds it until approved:\n  command: node a.js\n  cwd: /srv/gw`,
    ]);
    const second = recorder();
    const admitted = admitUpstreams(store, [a, b], { ...options, logger: second });
    assert.deepEqual(admitted.start, [a]);
    assert.deepEqual(admitted.held, [
      {
        name: 'b',
        state: 'held',
        failures: 0,
        restarts: 0,
        tools: 0,
        lastError:
          'upstream "b" is new (not in the config when the gateway first ran, and never approved), so it is held and not started until an admin approves it',
      },
    ]);
    assert.equal(second.lines.length, 2);
    assert.match(
      second.lines[0] ?? '',
      /^warn gateway: upstream "b" args\[1\] \(unpinned-package, warn\): npx fetches/,
    );
    assert.match(
      second.lines[1] ?? '',
      /^warn gateway: upstream "b" is new .*\n {2}command: npx -y b-mcp\n {2}cwd: \/srv\/gw\n/,
    );
    assert.match(
      second.lines[1] ?? '',
      /approve it with: toolwire pins approve b --config \/srv\/gw\/toolwire\.json --digest [0-9a-f]{12}/,
    );
  });

  test('C8 a server left out of the config is noted as removed; firstUse quarantine holds even the first run', () => {
    const store = memoryPinStore();
    admitUpstreams(store, [a], { ...options, logger: recorder() });
    const later = recorder();
    admitUpstreams(store, [], { ...options, logger: later });
    assert.deepEqual(later.lines, [
      'info gateway: upstream "a" is no longer in the config; if it is added again, it is held until approved',
    ]);
    const strict = admitUpstreams(memoryPinStore(), [a], {
      ...options,
      firstUse: 'quarantine',
      logger: recorder(),
    });
    assert.deepEqual(strict.start, []);
    assert.equal(strict.held[0]?.name, 'a');
  });

  test('C8 unpinned: deny keeps an unpinned package from starting, with the finding as the status reason', () => {
    const admitted = admitUpstreams(memoryPinStore(), [b], {
      ...options,
      unpinned: 'deny',
      logger: recorder(),
    });
    assert.deepEqual(admitted.start, []);
    assert.equal(
      admitted.held[0]?.lastError,
      'upstream "b" is not started: it fetches code at start without pinning it (unpinned: deny)',
    );
  });
});
