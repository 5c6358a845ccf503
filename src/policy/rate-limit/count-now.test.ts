// countNow: the memory store counted in this turn answers exactly what RateLimiterMemory's promises answer.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { countNow } from './count-now.js';

describe('countNow', () => {
  it('counts in the same store as consume and reward, and refuses past the points as consume does', async () => {
    const limiter = new RateLimiterMemory({ points: 2, duration: 60, keyPrefix: 'tool:x' });
    const now = countNow(limiter);
    assert.ok(now !== undefined);
    const first = now('alice', 1);
    assert.equal(first.consumedPoints, 1);
    assert.equal(first.remainingPoints, 1);
    assert.equal(first.isFirstInDuration, true);
    const second = await limiter.consume('alice'); // the promise path sees the point counted now
    assert.equal(second.consumedPoints, 2);
    const third = now('alice', 1);
    assert.equal(third.consumedPoints, 3);
    assert.equal(third.remainingPoints, 0);
    await assert.rejects(limiter.consume('alice'), (res: unknown) => res instanceof RateLimiterRes);
    assert.equal(now('alice', -1).consumedPoints, 3); // a refund, as reward gives
    assert.equal(now('bob', 1).consumedPoints, 1); // keys apart
  });

  it('is undefined for a limiter that answers only through promises (another store, a block, execEvenly)', () => {
    assert.equal(countNow(new RateLimiterMemory({ points: 1, duration: 1, blockDuration: 5 })), undefined);
    assert.equal(countNow(new RateLimiterMemory({ points: 1, duration: 1, execEvenly: true })), undefined);
    const plugged = { consume: () => Promise.resolve(), reward: () => Promise.resolve() };
    assert.equal(countNow(plugged as unknown as RateLimiterMemory), undefined);
  });
});
