// The counter store behind the buckets (issue 15, threat F4): a failing store fails closed (503, logged once per
// outage), a plugged-in store is asked once per bucket, close() forgets and refuses.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { capturingLogger, connect, modern } from '../../../test/support/harness.js';
import {
  ALICE,
  BOB,
  limited,
  limitOf,
  passed,
  passes,
  sharedConnection,
  toolServer,
} from '../../../test/support/rate-limit-fixtures.js';
import { silentLogger } from '../../server/index.js';
import { rateLimit } from './index.js';

describe('rate limits: a failing store fails closed', () => {
  /** A store whose counters fail while `down` is true, and otherwise are the memory store. */
  function flakyStore(state: { down: boolean }) {
    return (name: string, limit: { points: number; durationSeconds: number }): RateLimiterAbstract => {
      const memory = new RateLimiterMemory({
        points: limit.points,
        duration: limit.durationSeconds,
        keyPrefix: name,
      });
      const consume = memory.consume.bind(memory);
      memory.consume = (key, points, options) =>
        state.down ? Promise.reject(new Error('ECONNREFUSED 127.0.0.1:6379')) : consume(key, points, options);
      return memory;
    };
  }

  it('F4 the store throws: 503 with Retry-After, never allowed; one warning per outage, one line when it is back', async () => {
    const state = { down: true };
    const logger = capturingLogger();
    const server = toolServer();
    server.use(
      rateLimit({
        perCall: { points: 5, durationSeconds: 60 },
        total: { points: 50, durationSeconds: 60 },
        store: flakyStore(state),
        logger,
      }).middleware,
    );
    const call = sharedConnection(server);
    for (let i = 0; i < 20; i++) {
      const refused = await call('search', ALICE);
      assert.deepEqual(refused.body.error, {
        code: -31429,
        message: 'Rate limits cannot be checked right now; retry in 5 s',
        data: { retryAfterMs: 5000, limit: 'unavailable' },
      });
      assert.equal(refused.options.httpStatus, 503);
      assert.deepEqual(refused.options.httpHeaders, { 'retry-after': '5' });
    }
    assert.equal(logger.lines.length, 1);
    assert.equal(logger.lines[0]?.level, 'warn');
    assert.match(
      logger.text(),
      /the counter store failed; calls that count are refused \(503\)[^]*ECONNREFUSED/,
    );
    state.down = false;
    assert.equal(await passes(call, 'search', ALICE, 6), 5);
    assert.deepEqual(logger.lines.slice(1), [
      {
        level: 'info',
        message: 'rate limits: the counter store answers again (19 more failures during the outage)',
        details: '',
      },
    ]);
  });

  it('F4 a store that cannot make a counter, or throws synchronously, is the same 503', async () => {
    const logger = capturingLogger();
    const server = toolServer();
    let made = 0;
    server.use(
      rateLimit({
        perCall: { points: 5, durationSeconds: 60 },
        logger,
        store: () => {
          if (made++ === 0) throw new Error('no connection');
          const broken = new RateLimiterMemory({ points: 1, duration: 1 });
          broken.consume = () => {
            throw new Error('sync failure');
          };
          return broken;
        },
      }).middleware,
    );
    const call = sharedConnection(server);
    assert.equal((await call('search', ALICE)).options.httpStatus, 503);
    assert.equal((await call('search', ALICE)).options.httpStatus, 503);
    assert.equal(logger.lines.length, 1);
  });

  it('close(): from then on every request that would count is refused (503); others pass', async () => {
    const server = toolServer();
    const limiter = rateLimit({ perCall: { points: 5, durationSeconds: 60 }, logger: silentLogger });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    assert.ok(passed(await call('search', ALICE)));
    assert.equal(limiter.stats().keys, 1);
    limiter.close();
    assert.equal(limiter.stats().keys, 0);
    assert.equal((await call('search', ALICE)).options.httpStatus, 503);
    const client = await connect(server);
    assert.ok((await client.request('tools/list', modern())).result);
  });
});

describe('rate limits: a store that hangs', () => {
  it('F4 no answer within storeTimeoutMs: 503 and the slot freed; what the store counts later is given back', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const logger = capturingLogger();
    const late: Array<() => void> = [];
    const rewarded: string[] = [];
    const server = toolServer();
    const limiter = rateLimit({
      perCall: { points: 5, durationSeconds: 60 },
      concurrency: 1,
      storeTimeoutMs: 300,
      logger,
      store: (name, limit) => {
        const memory = new RateLimiterMemory({ points: limit.points, duration: limit.durationSeconds });
        const consume = memory.consume.bind(memory);
        const reward = memory.reward.bind(memory);
        // Like a client whose connection is down: the command waits, and is only sent once it is back.
        memory.consume = (key) =>
          new Promise((resolve, reject) => late.push(() => consume(key).then(resolve, reject)));
        memory.reward = (key) => {
          rewarded.push(`${name} ${key}`);
          return reward(key);
        };
        return memory;
      },
    });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    const answer = call('search', ALICE);
    for (let turn = 0; turn < 1000 && late.length === 0; turn++) await Promise.resolve();
    t.mock.timers.tick(299);
    assert.equal(limiter.stats().inFlight, 1, 'still waiting for the store at 299 ms');
    t.mock.timers.tick(1);
    const refused = await answer;
    assert.equal(refused.options.httpStatus, 503);
    assert.equal(limitOf(refused), 'unavailable');
    assert.equal(limiter.stats().inFlight, 0);
    assert.match(logger.text(), /the counter store failed[^]*did not answer within 300 ms/);
    // The store comes back and runs the queued command: that point is given back.
    late.shift()?.();
    for (let turn = 0; turn < 1000 && rewarded.length === 0; turn++) await Promise.resolve();
    assert.deepEqual(rewarded, ['tool:search bearer:alice']);
  });
});

describe('rate limits: a plugged-in store', () => {
  it('store(name, limit) is asked once per bucket, with the names the scale-out stores will prefix', async () => {
    const made: string[] = [];
    const call = limited({
      perCall: { points: 2, durationSeconds: 60 },
      classes: { 'read-only': { points: 9, durationSeconds: 60 } },
      total: { points: 9, durationSeconds: 60 },
      store: (name, limit) => {
        made.push(`${name} ${limit.points}/${limit.durationSeconds}`);
        return new RateLimiterMemory({
          points: limit.points,
          duration: limit.durationSeconds,
          keyPrefix: name,
        });
      },
    });
    assert.equal(await passes(call, 'search', ALICE, 3), 2);
    assert.equal(await passes(call, 'search', BOB, 3), 2);
    assert.deepEqual(made, ['class:read-only 9/60', 'total 9/60', 'tool:search 2/60']);
  });

  it('a Denial thrown by a later middleware still releases the slot and keeps the points (the call was admitted)', async () => {
    const server = toolServer();
    const limiter = rateLimit({
      concurrency: 1,
      perCall: { points: 2, durationSeconds: 60 },
      logger: silentLogger,
    });
    server.use(limiter.middleware);
    server.use((request) => request.deny(-32001, 'approval refused'));
    const call = sharedConnection(server);
    assert.equal((await call('search', ALICE)).body.error?.message, 'approval refused');
    assert.equal(limiter.stats().inFlight, 0);
    assert.equal((await call('search', ALICE)).body.error?.message, 'approval refused');
    assert.equal(limitOf(await call('search', ALICE)), 'tool');
  });
});
