// An Upstream over Streamable HTTP against the malicious fixture's HTTP mode (a real loopback server in a child):
// a server that forgot the session is reconnected, and a caller's cancel reaches it.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { RequestAbortedError } from '../../client/index.js';
import { TransportError } from '../../protocol/index.js';
import { McpServer, silentLogger } from '../../server/index.js';
import { listenHttp } from '../../transports/http/index.js';
import {
  CHILD_LIMIT_MS,
  startMaliciousHttp,
  within,
  type MaliciousHttp,
} from '../../../test/fixtures/malicious-upstream/harness.js';
import type { ChangeKind } from './changes.js';
import { UpstreamUnavailable } from './errors.js';
import { ManualScheduler } from './manual-scheduler.js';
import { Upstream } from './upstream.js';

const CLIENT_INFO = { name: 'gateway-test', version: '0.0.0' };
const fixtures: MaliciousHttp[] = [];
const upstreams: Upstream[] = [];

after(async () => {
  await Promise.all(upstreams.map((upstream) => upstream.close()));
  await Promise.all(fixtures.map((fixture) => fixture.close()));
});

async function httpUpstream(behaviours: string[], scheduler = new ManualScheduler()) {
  const fixture = await within(startMaliciousHttp(behaviours), CHILD_LIMIT_MS, 'the HTTP fixture');
  fixtures.push(fixture);
  const upstream = new Upstream(
    { name: 'web', url: fixture.url },
    {
      clientInfo: CLIENT_INFO,
      logger: silentLogger,
      handlers: {},
      scheduler,
      random: () => 0,
      restart: { initialMs: 1000 },
      connectTimeoutMs: 10 * 60_000,
    },
  );
  upstreams.push(upstream);
  await within(upstream.start(), CHILD_LIMIT_MS, 'start');
  return { fixture, upstream, scheduler };
}

describe('HTTP upstreams', () => {
  it('an HTTP upstream that forgot our session (HTTP 404) gets a new handshake after its backoff', async () => {
    const { upstream, scheduler } = await httpUpstream(['expire-session']);
    assert.equal((await upstream.listTools()).length, 2);
    await assert.rejects(upstream.listTools(), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.status, 404);
      return true;
    });
    assert.equal(upstream.health().state, 'backoff');
    assert.equal(upstream.health().lastError, 'the upstream ended the session (HTTP 404)');
    await assert.rejects(upstream.listTools(), UpstreamUnavailable);
    const retry = await scheduler.nextTimer((timer) => timer.delayMs === 1000);
    scheduler.advance(retry.delayMs);
    await within(
      scheduler.nextTimer((timer) => timer.delayMs === 250),
      CHILD_LIMIT_MS,
      'the new handshake (and its change events)',
    );
    assert.equal(upstream.health().state, 'ready');
    assert.equal(upstream.health().restarts, 1);
    assert.equal((await upstream.listTools()).length, 2);
  });

  it("F6 over HTTP a caller's cancel reaches the upstream", async () => {
    const { fixture, upstream } = await httpUpstream(['slow-call']);
    await upstream.listTools();
    const controller = new AbortController();
    const call = upstream.call((client) => client.callTool('slow', {}, { signal: controller.signal }));
    const line = await fixture.stderr.waitFor((l) => /^got tools\/call \d+$/.test(l), 'the call upstream');
    const id = line.split(' ')[2];
    controller.abort();
    await assert.rejects(call, RequestAbortedError);
    await fixture.stderr.waitFor((l) => l === `cancelled ${id}`, 'the cancellation upstream');
    assert.equal(upstream.health().failures, 0);
  });

  it('a modern (2026-07-28) upstream: era modern, its tool list changes arrive through subscriptions/listen', async () => {
    const server = new McpServer({ name: 'modern', version: '1.0.0' }, { logger: silentLogger });
    server.tool({ name: 'one', description: 'One', inputSchema: { type: 'object' }, handler: () => '1' });
    const listening = await listenHttp(server, { port: 0, logger: silentLogger });
    const scheduler = new ManualScheduler();
    const upstream = new Upstream(
      { name: 'modern', url: listening.url },
      {
        clientInfo: CLIENT_INFO,
        logger: silentLogger,
        handlers: {},
        scheduler,
        connectTimeoutMs: 10 * 60_000,
      },
    );
    try {
      await within(upstream.start(), CHILD_LIMIT_MS, 'start');
      assert.equal(upstream.health().era, 'modern');
      assert.deepEqual(
        (await upstream.listTools()).map((tool) => tool.name),
        ['one'],
      );
      const changes: ChangeKind[] = [];
      upstream.onChanged((kind) => changes.push(kind));
      server.tool({ name: 'two', description: 'Two', inputSchema: { type: 'object' }, handler: () => '2' });
      const window = await within(
        scheduler.nextTimer((timer) => timer.delayMs === 250),
        CHILD_LIMIT_MS,
        'the list change',
      );
      scheduler.advance(window.delayMs);
      assert.deepEqual(changes, ['tools']);
      assert.deepEqual(
        (await upstream.listTools()).map((tool) => tool.name),
        ['one', 'two'],
      );
    } finally {
      await upstream.close();
      await listening.close();
    }
  });
});
