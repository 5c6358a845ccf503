// The concurrency cap (issue 15, threat F6): calls in flight per caller key, the slot released when the call ends,
// is cancelled, its client goes away or it times out (fake timers), even while the handler ignores its signal.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, deferred, modern } from '../../../test/support/harness.js';
import {
  ALICE,
  BOB,
  limitOf,
  passed,
  sharedConnection,
  toolServer,
} from '../../../test/support/rate-limit-fixtures.js';
import { silentLogger } from '../../server/index.js';
import { rateLimit, type RateLimitOptions } from './index.js';

describe('rate limits: concurrency cap', () => {
  /** A server whose "hold" tool waits until the test lets it go (ignoring its signal unless told otherwise). */
  function holdingServer(timeoutMs?: number, limits: RateLimitOptions = {}) {
    const started: Array<() => void> = [];
    const release = deferred();
    const server = toolServer();
    server.tool({
      name: 'hold',
      ...(timeoutMs !== undefined && { timeoutMs }),
      handler: async () => {
        started.shift()?.();
        await release.promise;
        return 'held';
      },
    });
    const limiter = rateLimit({ concurrency: 1, logger: silentLogger, ...limits });
    server.use(limiter.middleware);
    const nextStart = (): Promise<void> => {
      const d = deferred();
      started.push(d.resolve);
      return d.promise;
    };
    return { server, limiter, release, nextStart };
  }

  it('F6 a second call in flight is refused with limit "concurrency" and Retry-After 1; the slot frees at the end', async () => {
    const { server, limiter, release, nextStart } = holdingServer();
    const call = sharedConnection(server);
    const started = nextStart();
    const first = call('hold', ALICE);
    await started;
    const refused = await call('search', ALICE);
    assert.deepEqual(refused.body.error, {
      code: -31429,
      message: 'Rate limited: at most 1 call may run at once per caller; retry in 1 s',
      data: { retryAfterMs: 1000, limit: 'concurrency' },
    });
    assert.equal(refused.options.httpStatus, 429);
    assert.deepEqual(refused.options.httpHeaders, { 'retry-after': '1' });
    assert.ok(passed(await call('search', BOB)), 'another caller has its own slots');
    assert.equal(limiter.stats().inFlight, 1);
    release.resolve();
    assert.ok(passed(await first));
    assert.equal(limiter.stats().inFlight, 0);
    assert.ok(passed(await call('search', ALICE)));
  });

  it('F6 the slot is released when the client cancels, even while the handler ignores its signal', async () => {
    const { server, limiter, nextStart } = holdingServer();
    const client = await connect(server);
    const started = nextStart();
    client.send({ jsonrpc: '2.0', id: 'held', method: 'tools/call', params: modern({ name: 'hold' }) });
    await started;
    assert.equal((await client.request('tools/call', modern({ name: 'search' }))).error?.code, -31429);
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'held' } });
    // The call's execution ends on the cancel (its handler never returns); a flush lets that settle.
    await client.flush();
    assert.equal(limiter.stats().inFlight, 0);
    const after = await client.request('tools/call', modern({ name: 'search' }));
    assert.ok(after.result, JSON.stringify(after));
    assert.equal(limiter.stats().inFlight, 0);
  });

  it('F6 the slot is released when an HTTP client goes away (its POST aborted), even while the handler ignores it', async () => {
    const { server, limiter, nextStart } = holdingServer();
    const call = sharedConnection(server);
    const gone = new AbortController();
    const started = nextStart();
    void call('hold', ALICE, undefined, gone.signal);
    await started;
    assert.equal(limitOf(await call('search', ALICE)), 'concurrency');
    gone.abort();
    // Nothing answers an aborted request: wait (a bounded number of turns) for its execution to end.
    for (let turn = 0; turn < 1000 && limiter.stats().inFlight > 0; turn++) {
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(limiter.stats().inFlight, 0);
    assert.ok(passed(await call('search', ALICE)));
  });

  it('F6 the slot is released when the call times out (fake timers), even while the handler ignores its signal', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const { server, limiter, nextStart } = holdingServer(50);
    const client = await connect(server);
    const started = nextStart();
    const first = client.request('tools/call', modern({ name: 'hold' }), { id: 'slow' });
    await started;
    assert.equal((await client.request('tools/call', modern({ name: 'search' }))).error?.code, -31429);
    t.mock.timers.tick(50);
    const timedOut = await first;
    assert.equal(timedOut.result?.isError, true);
    assert.equal(limiter.stats().inFlight, 0);
    assert.ok((await client.request('tools/call', modern({ name: 'search' }))).result);
  });

  it('a call refused by the cap costs no points', async () => {
    const { server, release, nextStart } = holdingServer(undefined, {
      perCall: { points: 2, durationSeconds: 60 },
    });
    const call = sharedConnection(server);
    const started = nextStart();
    const first = call('hold', ALICE);
    await started;
    for (let i = 0; i < 5; i++) assert.equal(limitOf(await call('hold', ALICE)), 'concurrency');
    release.resolve();
    assert.ok(passed(await first));
    assert.ok(passed(await call('hold', ALICE)), 'the second of two points was still there');
    assert.equal(limitOf(await call('hold', ALICE)), 'tool');
  });

  it('a call refused by a bucket gives its slot back at once', async () => {
    const server = toolServer();
    const limiter = rateLimit({
      concurrency: 1,
      perCall: { points: 1, durationSeconds: 60 },
      logger: silentLogger,
    });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    assert.ok(passed(await call('search', ALICE)));
    assert.equal(limitOf(await call('search', ALICE)), 'tool');
    assert.equal(limiter.stats().inFlight, 0);
    assert.ok(passed(await call('lookup', ALICE)));
  });
});
