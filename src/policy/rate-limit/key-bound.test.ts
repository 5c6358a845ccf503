// The memory store's bound (issue 15, threat F2's flood): 100,000 distinct anonymous addresses never make it hold
// more than maxKeys keys, and ended windows leave as new ones open.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { ANONYMOUS_CALLER } from '../../protocol/index.js';
import { passed, sharedConnection, toolServer } from '../../../test/support/rate-limit-fixtures.js';
import { silentLogger, type RequestView, type ToolTarget } from '../../server/index.js';
import { KeyBound } from './key-bound.js';
import { rateLimit } from './index.js';

/** The n-th address of a flood: 10.x.y.z, one per n. */
const addressOf = (n: number): string => `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;

const SEARCH: ToolTarget = Object.freeze({
  kind: 'tool',
  name: 'search',
  annotations: Object.freeze({ readOnlyHint: true }),
  definition: Object.freeze({ name: 'search', inputSchema: { type: 'object' } }),
  timeoutMs: undefined,
});
const SEARCH_CALL = { method: 'tools/call', target: SEARCH, caller: ANONYMOUS_CALLER };

describe('rate limits: memory stays bounded', () => {
  it('F2 100,000 distinct anonymous addresses: the memory store never holds more than maxKeys', async () => {
    const limiter = rateLimit({
      perCall: { points: 5, durationSeconds: 60 },
      total: { points: 50, durationSeconds: 600 },
      maxKeys: 1000,
      logger: silentLogger,
    });
    // The middleware alone, with the one view member per call that changes: the flood costs seconds, not a minute,
    // on a loaded machine. The next test runs the same through a server.
    const admitted = {};
    const next = (): Promise<object> => Promise.resolve(admitted);
    let most = 0;
    for (let n = 0; n < 100_000; n++) {
      const view = { ...SEARCH_CALL, transport: { kind: 'http', remoteAddress: addressOf(n) } };
      assert.equal(await limiter.middleware(view as unknown as RequestView, next), admitted); // only what it reads
      if (n % 1000 === 999) most = Math.max(most, limiter.stats().keys);
    }
    assert.equal(most, 1000);
  });

  it('F2 a flood through a server: the newest callers are still counted, the oldest forgotten', async () => {
    const server = toolServer();
    const limiter = rateLimit({
      perCall: { points: 5, durationSeconds: 60 },
      maxKeys: 500,
      logger: silentLogger,
    });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) => call('search', ANONYMOUS_CALLER, addressOf(batch * 1000 + i))),
      );
      assert.ok(limiter.stats().keys <= 500);
    }
    const allowedTo = async (address: string): Promise<number> => {
      let allowed = 0;
      for (let i = 0; i < 6; i++) if (passed(await call('search', ANONYMOUS_CALLER, address))) allowed++;
      return allowed;
    };
    assert.equal(await allowedTo(addressOf(4999)), 4, 'the newest caller has used one of its five');
    assert.equal(await allowedTo(addressOf(0)), 5, 'the oldest window was forgotten: a fresh one');
  });

  it('the bound deletes from the store itself: RateLimiterMemory holds no more than maxKeys records', async () => {
    const memory = new RateLimiterMemory({ points: 3, duration: 60 });
    const bound = new KeyBound(500, Date.now);
    for (let n = 0; n < 20_000; n++) {
      const key = `k${n}`;
      bound.seen(0, memory, key, await memory.consume(key));
    }
    assert.equal(memory.dump().storage.length, 500);
    assert.equal(bound.size, 500);
    assert.deepEqual(
      memory
        .dump()
        .storage.map((record) => record.key)
        .slice(0, 2),
      ['k19500', 'k19501'],
    );
  });

  it('windows that ended leave the bound as new ones open', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 5_000_000 });
    const memory = new RateLimiterMemory({ points: 3, duration: 10 });
    const bound = new KeyBound(1000, Date.now);
    for (let n = 0; n < 100; n++) bound.seen(0, memory, `a${n}`, await memory.consume(`a${n}`));
    t.mock.timers.tick(10_000);
    bound.seen(0, memory, 'b', await memory.consume('b'));
    assert.equal(bound.size, 1);
    assert.equal(memory.dump().storage.length, 1);
  });
});
