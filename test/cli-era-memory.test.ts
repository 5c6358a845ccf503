// list and call remember a stdio server that spoke only legacy, so the next run skips server/discover (issue 20).

import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, test } from 'node:test';
import { ERA_MEMORY_MAX_AGE_MS, eraMemory, eraMemoryPath } from '../src/cli/era-memory.js';
import { connect, type CliIo } from '../src/cli/session.js';
import { pinServerKey } from '../src/cli/user-pins.js';
import { fixtureTarget } from './fixtures/client/harness.js';

const home = mkdtempSync(join(tmpdir(), 'toolwire-era-'));
after(() => rmSync(home, { recursive: true, force: true }));

const ioIn = (config: string): CliIo => ({
  stdout: new PassThrough(),
  stderr: new PassThrough(),
  stdin: new PassThrough(),
  env: { ...process.env, XDG_CONFIG_HOME: config, TOOLWIRE_PINS: 'off' },
  cwd: home,
  version: '0.0.0',
});

/** Lists the target's tools once; returns the era settled on and what the server noted on stderr. */
async function listOnce(target: string, io: CliIo): Promise<{ era: string | undefined; got: string }> {
  const connected = await connect(target, { timeout: '20000' }, io, undefined);
  try {
    await connected.client.listTools();
    return { era: connected.client.era, got: connected.target.stderr?.() ?? '' };
  } finally {
    await connected.client.close();
  }
}

const remembered = (config: string): Record<string, number> =>
  (
    JSON.parse(readFileSync(eraMemoryPath({ XDG_CONFIG_HOME: config }), 'utf8')) as {
      legacy: Record<string, number>;
    }
  ).legacy;

test('a legacy-only stdio server is remembered: the next run greets it with initialize, without server/discover', async () => {
  const config = join(home, 'legacy');
  const raw = fixtureTarget('raw-server.mjs', 'ok');
  const first = await listOnce(raw, ioIn(config));
  assert.equal(first.era, 'legacy');
  assert.match(first.got, /got server\/discover/);
  assert.deepEqual(Object.keys(remembered(config)), [pinServerKey({ label: raw }, home)]);

  const second = await listOnce(raw, ioIn(config));
  assert.equal(second.era, 'legacy');
  assert.doesNotMatch(second.got, /server\/discover/);
  assert.match(second.got, /^got initialize/);
});

test('a modern stdio server is not remembered, and a stale note about it is removed', async () => {
  const config = join(home, 'modern');
  const modern = fixtureTarget('toolwire-stdio.ts');
  const key = pinServerKey({ label: modern }, home);
  mkdirSync(join(config, 'toolwire'), { recursive: true });
  const stale = Date.now() - ERA_MEMORY_MAX_AGE_MS - 1000;
  writeFileSync(
    eraMemoryPath({ XDG_CONFIG_HOME: config }),
    JSON.stringify({ legacy: { [key]: stale, other: stale } }),
  );
  const result = await listOnce(modern, ioIn(config));
  assert.equal(result.era, 'modern');
  assert.deepEqual(remembered(config), { other: stale });
});

test('era memory: a broken, hostile or oversized file is ignored and replaced at the next note', () => {
  const config = join(home, 'broken');
  const env = { XDG_CONFIG_HOME: config };
  mkdirSync(join(config, 'toolwire'), { recursive: true });
  const path = eraMemoryPath(env);
  for (const text of [
    'not json {',
    '[1,2]',
    '{"legacy":[]}',
    '{"legacy":{"k":"soon"}}',
    `{"legacy":{"k":1,"pad":"${'x'.repeat(300_000)}"}}`,
  ]) {
    writeFileSync(path, text);
    assert.equal(eraMemory('k', env).remembered, undefined, text.slice(0, 30));
  }
  eraMemory('k', env, () => 5).settled('legacy');
  assert.deepEqual(remembered(config), { k: 5 });
  assert.equal(eraMemory('k', env, () => 5 + ERA_MEMORY_MAX_AGE_MS - 1).remembered, 'legacy');
  assert.equal(eraMemory('k', env, () => 5 + ERA_MEMORY_MAX_AGE_MS).remembered, undefined);
});

test('era memory keeps at most MAX_REMEMBERED_ERAS servers, dropping the ones noted longest ago', async () => {
  const { MAX_REMEMBERED_ERAS } = await import('../src/cli/era-memory.js');
  const config = join(home, 'many');
  const env = { XDG_CONFIG_HOME: config };
  mkdirSync(join(config, 'toolwire'), { recursive: true });
  const legacy = Object.fromEntries(
    Array.from({ length: MAX_REMEMBERED_ERAS }, (_, index) => [`server-${index}`, 1000 + index]),
  );
  writeFileSync(eraMemoryPath(env), JSON.stringify({ legacy }));
  eraMemory('newest', env, () => 10_000_000).settled('legacy');
  const kept = remembered(config);
  assert.equal(Object.keys(kept).length, MAX_REMEMBERED_ERAS);
  assert.equal(kept['newest'], 10_000_000);
  assert.equal(kept['server-0'], undefined);
});
