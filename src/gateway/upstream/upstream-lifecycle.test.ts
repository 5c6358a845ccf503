// An Upstream against the malicious fixture over stdio (a real child process): start never throws for a down
// upstream, a crash restarts it with backoff, list changes arrive debounced, close leaves no process behind.
// Time is a ManualScheduler: restarts and debouncing fire when the test says so, never by sleeping.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ConnectionClosedError } from '../../client/index.js';
import { silentLogger } from '../../server/index.js';
import {
  CHILD_LIMIT_MS,
  LineWatch,
  maliciousStdio,
  processExists,
  within,
} from '../../../test/fixtures/malicious-upstream/harness.js';
import type { UpstreamConfig } from './config.js';
import { UpstreamUnavailable } from './errors.js';
import { ManualScheduler } from './manual-scheduler.js';
import type { ChangeKind } from './changes.js';
import type { UpstreamOptions } from './options.js';
import { Upstream } from './upstream.js';

const CLIENT_INFO = { name: 'gateway-test', version: '0.0.0' };
const open: Upstream[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((upstream) => upstream.close()));
});

function upstreamFor(config: UpstreamConfig, options: Partial<UpstreamOptions> = {}) {
  const scheduler = new ManualScheduler();
  const stderr = new LineWatch();
  const upstream = new Upstream(config, {
    clientInfo: CLIENT_INFO,
    logger: silentLogger,
    handlers: {},
    scheduler,
    random: () => 0,
    restart: { initialMs: 1000, maxMs: 8000, factor: 2 },
    onStderr: stderr.push,
    // The real handshake has its own limits; the manual clock must not have to drive it.
    connectTimeoutMs: 10 * 60_000,
    closeTimeoutMs: 500,
    ...options,
  });
  open.push(upstream);
  return { upstream, scheduler, stderr };
}

describe('upstream lifecycle', () => {
  it('start() resolves for an upstream that cannot start, records why, and schedules a retry', async () => {
    const { upstream, scheduler } = upstreamFor({ name: 'ghost', command: '/nonexistent/mcp-server' });
    await upstream.start();
    const health = upstream.health();
    assert.deepEqual(health, {
      name: 'ghost',
      state: 'backoff',
      failures: 0,
      restarts: 0,
      lastError: 'cannot start "/nonexistent/mcp-server": not found',
      nextAttemptAt: new Date(scheduler.now() + 1000).toISOString(),
      tools: 0,
    });
    await assert.rejects(upstream.listTools(), (error: unknown) => {
      assert.ok(error instanceof UpstreamUnavailable);
      assert.equal(error.upstream, 'ghost');
      assert.equal(error.retryAfterMs, 1000);
      assert.equal(
        error.message,
        'upstream "ghost" is unavailable: restarting after: cannot start "/nonexistent/mcp-server": not found (retry in 1 s)',
      );
      return true;
    });
    // The second failure waits twice as long: exponential backoff.
    const retry = await scheduler.nextTimer((timer) => timer.delayMs === 1000);
    scheduler.advance(retry.delayMs);
    const next = await within(
      scheduler.nextTimer((timer) => timer.delayMs === 2000),
      CHILD_LIMIT_MS,
      'the second backoff',
    );
    assert.equal(next.delayMs, 2000);
    assert.equal(upstream.health().state, 'backoff');
  });

  it('a handshake that never ends is cut off at connectTimeoutMs: the child is killed and a retry scheduled', async () => {
    const { upstream, scheduler, stderr } = upstreamFor(maliciousStdio('mute', ['hang-initialize']), {
      connectTimeoutMs: 5000,
    });
    const starting = upstream.start();
    await within(
      scheduler.nextTimer((timer) => timer.delayMs === 5000),
      CHILD_LIMIT_MS,
      'the handshake limit',
    );
    await stderr.waitFor((line) => line.startsWith('got initialize'), 'the initialize request');
    const pid = upstream.pid as number;
    scheduler.advance(5000);
    await within(starting, CHILD_LIMIT_MS, 'start to resolve');
    assert.equal(upstream.health().state, 'backoff');
    assert.equal(upstream.health().lastError, 'no answer to the handshake within 5000 ms');
    assert.equal(processExists(pid), false, 'the child is gone');
  });

  it('lists tools, prompts and resources of a live upstream, and reports it ready', async () => {
    const { upstream } = upstreamFor(maliciousStdio('evil'));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const tools = await upstream.listTools();
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['echo', 'slow'],
    );
    assert.deepEqual(
      (await upstream.listPrompts()).map((prompt) => prompt.name),
      ['greet'],
    );
    assert.deepEqual(
      (await upstream.listResources()).map((resource) => resource.uri),
      ['file:///notes/a b.txt'],
    );
    assert.deepEqual(
      (await upstream.listResourceTemplates()).map((template) => template.uriTemplate),
      ['file:///notes/{path}'],
    );
    const outcome = await upstream.call((client) => client.callTool('echo', { text: 'hi' }));
    assert.deepEqual(outcome.content, [{ type: 'text', text: 'hi' }]);
    assert.deepEqual(upstream.health(), {
      name: 'evil',
      state: 'ready',
      era: 'legacy',
      failures: 0,
      restarts: 0,
      tools: 2,
    });
    assert.ok(upstream.client !== undefined);
  });

  it('a stdio child that crashes mid-call is restarted after its backoff, and its lists are announced as changed', async () => {
    const { upstream, scheduler, stderr } = upstreamFor(maliciousStdio('crashy', ['crash-on-call']));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const firstPid = upstream.pid;
    assert.ok(firstPid !== undefined);
    const changes: ChangeKind[] = [];
    upstream.onChanged((kind) => changes.push(kind));
    await assert.rejects(
      upstream.call((client) => client.callTool('echo', { text: 'boom' })),
      ConnectionClosedError,
    );
    await stderr.waitFor((line) => line === 'malicious upstream: crashing mid-call', 'the crash');
    const retry = await within(
      scheduler.nextTimer((timer) => timer.delayMs === 1000),
      CHILD_LIMIT_MS,
      'the restart to be scheduled',
    );
    const health = upstream.health();
    assert.equal(health.state, 'backoff');
    assert.equal(health.lastError, 'the process exited with code 1');
    assert.equal(health.failures, 1, 'the failed call counts for the circuit');
    assert.equal(processExists(firstPid), false, 'the crashed child is reaped');
    scheduler.advance(retry.delayMs);
    // Ready again: the restart announces every list as changed, once the debounce window closes.
    const debounce = await within(
      scheduler.nextTimer((timer) => timer.delayMs === 250),
      CHILD_LIMIT_MS,
      'the reconnection',
    );
    assert.equal(upstream.health().state, 'ready');
    assert.equal(upstream.health().restarts, 1);
    assert.notEqual(upstream.pid, firstPid);
    assert.deepEqual(changes, []);
    scheduler.advance(debounce.delayMs);
    assert.deepEqual(changes.sort(), ['prompts', 'resources', 'tools']);
    assert.equal((await upstream.listTools()).length, 2);
  });

  it("an upstream's list_changed notifications are coalesced into one event, and the next list is fresh", async () => {
    const { upstream, scheduler } = upstreamFor(maliciousStdio('rug', ['rug-pull', 'notify-changes']));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const changes: ChangeKind[] = [];
    upstream.onChanged((kind) => changes.push(kind));
    const first = await upstream.listTools();
    assert.equal(first[0]?.description, 'Echoes its text back.');
    const window = await within(
      scheduler.nextTimer((timer) => timer.delayMs === 250),
      CHILD_LIMIT_MS,
      'the list_changed notification',
    );
    scheduler.advance(window.delayMs);
    assert.deepEqual(changes, ['tools']);
    const second = await upstream.listTools();
    assert.match(second[0]?.description ?? '', /aws\/credentials/);
  });

  it('restart() replaces the connection now: a new child, the old one gone, every list announced as changed', async () => {
    const { upstream, scheduler } = upstreamFor(maliciousStdio('evil'));
    await within(upstream.start(), CHILD_LIMIT_MS, 'start');
    const firstPid = upstream.pid as number;
    const changes: ChangeKind[] = [];
    upstream.onChanged((kind) => changes.push(kind));
    await within(upstream.restart(), CHILD_LIMIT_MS, 'restart');
    assert.equal(upstream.health().state, 'ready');
    assert.equal(upstream.health().restarts, 1);
    assert.notEqual(upstream.pid, firstPid);
    assert.equal(processExists(firstPid), false);
    scheduler.advance(250);
    assert.deepEqual(changes.sort(), ['prompts', 'resources', 'tools']);
  });

  it('close() during a retry wait stops restarting for good', async () => {
    const { upstream, scheduler } = upstreamFor({ name: 'ghost', command: '/nonexistent/mcp-server' });
    await upstream.start();
    await upstream.close();
    assert.deepEqual(scheduler.pending(), []);
    assert.equal(upstream.health().state, 'closed');
    await assert.rejects(
      upstream.call(async () => 1),
      { message: 'upstream "ghost" is unavailable: it is closed' },
    );
  });
});
