// F5 and F6 against the malicious fixture over stdio: a hanging list is cut off at its limit (and the gateway
// can answer with the others), the circuit opens after N failures and closes after a probe, a call times out at T
// and is cancelled upstream, a caller's cancel reaches the upstream, and close leaves no process (not even a zombie).

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ConnectionClosedError, RequestAbortedError, RequestTimeoutError } from '../../client/index.js';
import { silentLogger } from '../../server/index.js';
import {
  CHILD_LIMIT_MS,
  LineWatch,
  maliciousStdio,
  processExists,
  within,
} from '../../../test/fixtures/malicious-upstream/harness.js';
import type { UpstreamConfig } from './config.js';
import { UpstreamTimeout, UpstreamUnavailable } from './errors.js';
import { ManualScheduler } from './manual-scheduler.js';
import type { UpstreamOptions } from './options.js';
import { Upstream } from './upstream.js';

const CLIENT_INFO = { name: 'gateway-test', version: '0.0.0' };
const open: Upstream[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((upstream) => upstream.close()));
});

function upstreamFor(
  config: UpstreamConfig,
  scheduler = new ManualScheduler(),
  options: Partial<UpstreamOptions> = {},
) {
  const stderr = new LineWatch();
  const upstream = new Upstream(config, {
    clientInfo: CLIENT_INFO,
    logger: silentLogger,
    handlers: {},
    scheduler,
    random: () => 0,
    onStderr: stderr.push,
    connectTimeoutMs: 10 * 60_000,
    closeTimeoutMs: 500,
    ...options,
  });
  open.push(upstream);
  return { upstream, scheduler, stderr };
}

/** The request id of the next `method` the fixture receives. */
async function received(stderr: LineWatch, method: string, after = 0): Promise<string> {
  const pattern = new RegExp(`^got ${method.replace('/', '\\/')} (\\d+)$`);
  const line = await stderr.waitFor(
    (l) => pattern.test(l) && Number(pattern.exec(l)?.[1]) > after,
    `the fixture to receive ${method}`,
  );
  return pattern.exec(line)?.[1] as string;
}

/** Lets pending promise callbacks run (setImmediate is real even under mock.timers). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function watch(promise: Promise<unknown>): { settled: () => boolean } {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { settled: () => done };
}

describe('F5 slow upstreams', () => {
  it('F5 a hanging tools/list rejects exactly at listTimeoutMs, and the listing is cancelled upstream', async () => {
    const { upstream, scheduler, stderr } = upstreamFor(
      maliciousStdio('hang', ['hang-list'], { listTimeoutMs: 5000 }),
    );
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const listing = upstream.listTools();
    const state = watch(listing);
    await within(
      scheduler.nextTimer((timer) => timer.delayMs === 5000),
      CHILD_LIMIT_MS,
      'the list time limit',
    );
    const id = await received(stderr, 'tools/list');
    scheduler.advance(4999);
    await settle();
    assert.equal(state.settled(), false, 'still waiting 1 ms before the limit');
    scheduler.advance(1);
    await assert.rejects(listing, (error: unknown) => {
      assert.ok(error instanceof UpstreamTimeout);
      assert.equal(error.message, 'upstream "hang" did not answer tools/list within 5000 ms');
      assert.equal(error.timeoutMs, 5000);
      return true;
    });
    await stderr.waitFor((line) => line === `cancelled ${id}`, 'the cancellation upstream');
  });

  it('F5 tools/list over two upstreams with one hanging: the live one answers, the hanging one is cut off', async () => {
    const scheduler = new ManualScheduler();
    const hanging = upstreamFor(maliciousStdio('hang', ['hang-list'], { listTimeoutMs: 2000 }), scheduler);
    const live = upstreamFor(maliciousStdio('live', [], { listTimeoutMs: 2000 }), scheduler);
    await within(Promise.all([hanging.upstream.start(), live.upstream.start()]), CHILD_LIMIT_MS, 'start');
    const cut = hanging.upstream.listTools();
    await received(hanging.stderr, 'tools/list');
    // The gateway's merge waits for the live one, and the hanging one is cut off at its limit: a partial answer.
    const tools = await within(live.upstream.listTools(), CHILD_LIMIT_MS, 'the live list');
    scheduler.advance(2000);
    await assert.rejects(cut, UpstreamTimeout);
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['echo', 'slow'],
    );
  });

  it("F5 concurrent lists share one upstream request, and one caller's cancel does not fail the others", async () => {
    const { upstream, scheduler, stderr } = upstreamFor(
      maliciousStdio('hang', ['hang-list'], { listTimeoutMs: 5000 }),
      new ManualScheduler(),
      { circuit: { failures: 2, probeAfterMs: 1000 } },
    );
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const leaving = new AbortController();
    const first = upstream.listTools(leaving.signal);
    const second = upstream.listTools();
    await received(stderr, 'tools/list');
    leaving.abort();
    await assert.rejects(first, { name: 'RequestAbortedError', message: 'tools/list was cancelled' });
    scheduler.advance(5000);
    await assert.rejects(second, UpstreamTimeout);
    assert.equal(
      stderr.lines.filter((line) => line.startsWith('got tools/list')).length,
      1,
      'one upstream request',
    );
    assert.equal(upstream.health().failures, 1, 'counted once');
  });

  it('F5 the circuit opens after N failures, refuses without reaching the upstream, and closes after one probe', async () => {
    const { upstream, scheduler, stderr } = upstreamFor(
      maliciousStdio('flaky', ['hang-list'], { listTimeoutMs: 1000 }),
      new ManualScheduler(),
      { circuit: { failures: 2, probeAfterMs: 30_000 } },
    );
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    let lastId = 0;
    for (let i = 0; i < 2; i++) {
      const listing = upstream.listTools();
      lastId = Number(await received(stderr, 'tools/list', lastId));
      scheduler.advance(1000);
      await assert.rejects(listing, UpstreamTimeout);
    }
    const health = upstream.health();
    assert.equal(health.state, 'open');
    assert.equal(health.failures, 2);
    assert.equal(health.nextAttemptAt, new Date(scheduler.now() + 30_000).toISOString());
    scheduler.advance(10_000);
    await assert.rejects(upstream.listTools(), (error: unknown) => {
      assert.ok(error instanceof UpstreamUnavailable);
      assert.equal(error.retryAfterMs, 20_000);
      assert.equal(
        error.message,
        'upstream "flaky" is unavailable: its circuit is open after 2 consecutive failures (retry in 20 s)',
      );
      return true;
    });
    scheduler.advance(20_000);
    // Half-open: one probe goes through (a request the fixture answers) and closes the circuit.
    assert.deepEqual(await upstream.call((client) => client.request('ping')), {});
    assert.equal(upstream.health().state, 'ready');
    assert.equal(upstream.health().failures, 0);
    // Nothing reached the upstream while the circuit was open: the next thing after the last list is the probe.
    const lines = stderr.lines.filter(
      (line) => line.startsWith('got ') && !line.startsWith('got notifications/'),
    );
    const lastList = lines.lastIndexOf(`got tools/list ${lastId}`);
    assert.match(lines[lastList + 1] ?? '', /^got ping \d+$/);
  });
});

describe('F6 timeouts and cancellation', () => {
  it('F6 a call to a hanging tool fails at exactly timeoutMs and is cancelled upstream', async (t) => {
    const { upstream, stderr } = upstreamFor(maliciousStdio('slow', ['slow-call'], { timeoutMs: 3000 }));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    await upstream.listTools(); // the client knows the tool: the call sends tools/call at once
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const call = upstream.call((client) => client.callTool('slow', {}));
    const state = watch(call);
    const id = await received(stderr, 'tools/call');
    t.mock.timers.tick(2999);
    await settle();
    assert.equal(state.settled(), false, 'still running 1 ms before the limit');
    t.mock.timers.tick(1);
    await assert.rejects(call, (error: unknown) => {
      assert.ok(error instanceof RequestTimeoutError);
      assert.equal(
        error.message,
        'tools/call timed out after 3000 ms (the request was cancelled on the server)',
      );
      return true;
    });
    t.mock.timers.reset();
    await stderr.waitFor((line) => line === `cancelled ${id}`, 'the cancellation upstream');
    assert.equal(upstream.health().failures, 1, 'a timeout counts for the circuit');
  });

  it("F6 the caller's cancel reaches the upstream, and does not count against it", async () => {
    const { upstream, stderr } = upstreamFor(maliciousStdio('slow', ['slow-call']));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const controller = new AbortController();
    const call = upstream.call((client) => client.callTool('slow', {}, { signal: controller.signal }));
    const id = await received(stderr, 'tools/call');
    controller.abort();
    await assert.rejects(call, RequestAbortedError);
    await stderr.waitFor((line) => line === `cancelled ${id}`, 'the cancellation upstream');
    assert.equal(upstream.health().failures, 0);
  });

  it('F6 close() with a call in flight kills a child that ignores stdin and SIGTERM, and leaves no zombie', async () => {
    const { upstream, stderr } = upstreamFor(maliciousStdio('stubborn', ['stubborn', 'slow-call']));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const pid = upstream.pid;
    assert.ok(pid !== undefined && processExists(pid));
    const call = upstream.call((client) => client.callTool('slow', {}));
    await received(stderr, 'tools/call');
    await within(upstream.close(), CHILD_LIMIT_MS, 'close');
    await assert.rejects(call, ConnectionClosedError);
    assert.ok(stderr.lines.includes('malicious upstream: ignoring SIGTERM'), 'SIGTERM was tried first');
    assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
  });
});
