// Protocol core, long calls: progress notifications, cancellation by the client, and time limits.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DefinitionError } from '../src/index.js';
import {
  connect,
  deferred,
  firstText,
  initializeLegacy,
  isNotification,
  modern,
  testServer,
  type RawClient,
  type WireMessage,
} from './support/harness.js';

const progressOf = (client: RawClient, token: string | number): WireMessage[] =>
  client
    .notifications()
    .filter(isNotification('notifications/progress', (m) => m.params?.progressToken === token));

describe('core progress', () => {
  it('PR-03 no progress notification is sent without a progressToken', async () => {
    const server = testServer();
    server.tool({
      name: 'p',
      handler: (_args, ctx) => {
        ctx.progress(1, 2);
        ctx.progress(2, 2);
        return 'done';
      },
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'p' }));
    assert.deepEqual(client.notifications(), []);
  });

  it('PR-02 progress never decreases: 5 then 3 drops the 3; the pending 7 is sent before the response', async () => {
    const server = testServer();
    server.tool({
      name: 'p',
      handler: (_args, ctx) => {
        ctx.progress(5, 10);
        ctx.progress(3, 10);
        ctx.progress(5, 10, 'same value again');
        ctx.progress(7, 10, 'seven');
        return 'done';
      },
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'p' }, { progressToken: 'tok' }), { id: 'call' });
    assert.deepEqual(
      client.received().map((m) => (Array.isArray(m) ? m : m.method === undefined ? `response ${m.id}` : m)),
      [
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 5, total: 10 },
        },
        {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'tok', progress: 7, total: 10, message: 'seven' },
        },
        'response call',
      ],
    );
  });

  it('PR-01 an integer progressToken, 0 included, is echoed as that integer', async () => {
    const server = testServer();
    server.tool({ name: 'p', handler: (_args, ctx) => (ctx.progress(1), 'done') });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'p' }, { progressToken: 0 }));
    assert.deepEqual(progressOf(client, 0), [
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 0, progress: 1 } },
    ]);
  });

  it('PR-05 100,000 reports in a tight loop send fewer than 50 notifications, increasing, the last before the response', async () => {
    const server = testServer();
    server.tool({
      name: 'busy',
      handler: (_args, ctx) => {
        for (let i = 1; i <= 100_000; i++) ctx.progress(i, 100_000);
        return 'done';
      },
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'busy' }, { progressToken: 7 }), { id: 'busy' });
    const sent = progressOf(client, 7).map((m) => m.params?.progress as number);
    assert.ok(sent.length > 0 && sent.length < 50, `sent ${sent.length}`);
    assert.ok(
      sent.every((value, i) => i === 0 || value > (sent[i - 1] ?? Infinity)),
      'strictly increasing',
    );
    assert.equal(sent.at(-1), 100_000);
    const order = client
      .received()
      .map((m) => (Array.isArray(m) ? 'batch' : (m.method ?? `response ${m.id}`)));
    assert.equal(order.at(-1), 'response busy', 'nothing after the response');
    assert.equal(order.at(-2), 'notifications/progress', 'the last value comes right before the response');
  });

  it('PR-05 100,000 reports from a loop that yields are still bounded and end on the last value', async () => {
    const server = testServer();
    server.tool({
      name: 'yielding',
      handler: async (_args, ctx) => {
        for (let i = 1; i <= 100_000; i++) {
          ctx.progress(i);
          if (i % 10_000 === 0) await new Promise((resolve) => setImmediate(resolve));
        }
        return 'done';
      },
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'yielding' }, { progressToken: 'y' }));
    const sent = progressOf(client, 'y').map((m) => m.params?.progress);
    assert.ok(sent.length < 50, `sent ${sent.length}`);
    assert.equal(sent.at(-1), 100_000);
  });

  it('PR-03 no progress is sent after the response, even when the handler reports later', async () => {
    const later = deferred();
    const reported = deferred();
    const server = testServer();
    server.tool({
      name: 'late',
      handler: (_args, ctx) => {
        ctx.progress(1);
        void later.promise.then(() => {
          ctx.progress(2);
          ctx.progress(3);
          reported.resolve();
        });
        return 'done';
      },
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'late' }, { progressToken: 'late' }));
    later.resolve();
    await reported.promise;
    await client.flush();
    assert.deepEqual(
      progressOf(client, 'late').map((m) => m.params?.progress),
      [1],
    );
  });

  it('PR-01 a legacy session gets progress for the progressToken in its request _meta', async () => {
    const server = testServer();
    server.tool({ name: 'p', handler: (_args, ctx) => (ctx.progress(1, 2, 'half'), 'done') });
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    await client.request('tools/call', { name: 'p', _meta: { progressToken: 'legacy' } });
    assert.deepEqual(progressOf(client, 'legacy'), [
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'legacy', progress: 1, total: 2, message: 'half' },
      },
    ]);
  });
});

describe('core cancellation', () => {
  /** A tool that says when it starts and when its signal aborts, and otherwise waits for `release`. */
  function waitingServer() {
    const started = deferred();
    const aborted = deferred<unknown>();
    const release = deferred();
    const server = testServer();
    server.tool({
      name: 'wait',
      handler: async (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => aborted.resolve(ctx.signal.reason), { once: true });
        started.resolve();
        await release.promise;
        ctx.progress(99);
        return 'finished anyway';
      },
    });
    server.tool({ name: 'quick', handler: () => 'quick' });
    return { server, started, aborted, release };
  }

  it('CA-03 notifications/cancelled aborts ctx.signal with the reason, and no response is ever sent', async () => {
    const { server, started, aborted, release } = waitingServer();
    const client = await connect(server);
    client.send({
      jsonrpc: '2.0',
      id: 'w',
      method: 'tools/call',
      params: modern({ name: 'wait' }, { progressToken: 'w' }),
    });
    await started.promise;
    client.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w', reason: 'user pressed stop' },
    });
    assert.equal(await aborted.promise, 'user pressed stop');
    release.resolve();
    const other = await client.request('tools/call', modern({ name: 'quick' }), { id: 'q' });
    await client.flush();
    assert.equal(firstText(other), 'quick');
    assert.deepEqual(
      client.received().map((m) => (Array.isArray(m) ? 'batch' : m.id)),
      ['q', 'flush-1'],
      'only the other request was answered; no progress after cancellation either',
    );
  });

  it('CA-03 the id of a cancelled request can be used again once the call has ended', async () => {
    const { server, started, aborted } = waitingServer();
    const client = await connect(server);
    client.send({ jsonrpc: '2.0', id: 5, method: 'tools/call', params: modern({ name: 'wait' }) });
    await started.promise;
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 5 } });
    await aborted.promise;
    assert.equal(
      firstText(await client.request('tools/call', modern({ name: 'quick' }), { id: 5 })),
      'quick',
    );
  });

  it('CA-03 ctx.onAbort runs once with the reason ctx.signal carries, and at once when added after the abort', async () => {
    const started = deferred();
    const seen = deferred<unknown[]>();
    const server = testServer();
    server.tool({
      name: 'wait',
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          const reasons: unknown[] = [];
          ctx.onAbort((reason) => {
            reasons.push(reason);
            // Added while aborting: runs at once, with the same reason.
            ctx.onAbort((late) => {
              reasons.push(late, ctx.signal.reason);
              seen.resolve(reasons);
              resolve('finished anyway');
            });
          });
          started.resolve();
        }),
    });
    const client = await connect(server);
    client.send({ jsonrpc: '2.0', id: 'w', method: 'tools/call', params: modern({ name: 'wait' }) });
    await started.promise;
    client.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w', reason: 'stop now' },
    });
    assert.deepEqual(await seen.promise, ['stop now', 'stop now', 'stop now']);
    await client.flush();
    assert.deepEqual(
      client.received().filter((m) => !Array.isArray(m) && m.id === 'w'),
      [],
      'a cancelled request gets no response',
    );
  });

  it('CA-03 a cancel sent right behind its request still aborts the call (regression: it was ignored before validation ended)', async () => {
    let started = false;
    let abortedWhileRunning = false;
    const release = deferred();
    const server = testServer();
    server.tool({
      name: 'wait',
      handler: async (_args, ctx) => {
        started = true;
        ctx.signal.addEventListener('abort', () => (abortedWhileRunning = true), { once: true });
        await release.promise;
        return 'finished anyway';
      },
    });
    const client = await connect(server);
    client.send({ jsonrpc: '2.0', id: 'w', method: 'tools/call', params: modern({ name: 'wait' }) });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'w' } });
    try {
      await client.flush(); // the cancel has been handled by now
      assert.ok(!started || abortedWhileRunning, 'the handler never ran, or its signal was aborted');
    } finally {
      release.resolve(); // never leave the handler (and its 60 s time limit) pending
    }
    await client.flush();
    assert.deepEqual(
      client.received().filter((m) => !Array.isArray(m) && m.id === 'w'),
      [],
      'a cancelled request gets no response',
    );
  });

  it('CA-05 a cancel for an unknown id, or a malformed one, is ignored and answers nothing', async () => {
    const { server, started, release } = waitingServer();
    const client = await connect(server);
    const pending = client.request('tools/call', modern({ name: 'wait' }), { id: 'keep' });
    await started.promise;
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'unknown' } });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: { id: 'keep' } } });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled' });
    await client.flush();
    release.resolve();
    assert.equal(firstText(await pending), 'finished anyway', 'the call in flight was not touched');
    assert.deepEqual(
      client.received().map((m) => (Array.isArray(m) ? 'batch' : m.id)),
      ['flush-1', 'keep'],
    );
  });

  it('CA-04 a cancel that arrives after the response is ignored', async () => {
    const { server } = waitingServer();
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'quick' }), { id: 'done' });
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'done' } });
    await client.flush();
    assert.equal(client.received().length, 2);
  });

  it('CA-03 closing the connection aborts the calls in flight', async () => {
    const { server, started, aborted } = waitingServer();
    const client = await connect(server);
    client.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: modern({ name: 'wait' }) });
    await started.promise;
    await client.transport.close();
    const reason = await aborted.promise;
    assert.ok(reason instanceof Error && reason.message === 'connection closed', String(reason));
  });

  it('CA-03 cancelling a legacy call aborts it the same way', async () => {
    const { server, started, aborted } = waitingServer();
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    client.send({ jsonrpc: '2.0', id: 'l', method: 'tools/call', params: { name: 'wait' } });
    await started.promise;
    client.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'l', reason: 'r' },
    });
    assert.equal(await aborted.promise, 'r');
  });
});

describe('core timeouts', () => {
  it('TO-01 a per-tool timeoutMs ends the call with an isError result, and the late reply is dropped', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const started = deferred();
    const aborted = deferred();
    const release = deferred();
    const server = testServer();
    server.tool({
      name: 'x',
      timeoutMs: 20,
      handler: async (_args, ctx) => {
        ctx.signal.addEventListener('abort', () => aborted.resolve(), { once: true });
        started.resolve();
        await release.promise; // ignores its signal on purpose
        return 'late reply';
      },
    });
    const client = await connect(server);
    const pending = client.request('tools/call', modern({ name: 'x' }), { id: 'slow' });
    await started.promise;
    t.mock.timers.tick(19);
    await client.flush();
    assert.equal(
      client.received().filter((m) => !Array.isArray(m) && m.id === 'slow').length,
      0,
      'not yet at 19 ms',
    );
    t.mock.timers.tick(1);
    const response = await pending;
    await aborted.promise;
    assert.deepEqual(response.result?.content, [{ type: 'text', text: 'Tool "x" timed out after 20 ms' }]);
    assert.equal(response.result?.isError, true);
    release.resolve();
    await client.flush();
    assert.equal(
      client.received().filter((m) => !Array.isArray(m) && m.id === 'slow').length,
      1,
      'no second reply',
    );
  });

  it('TO-01 the server defaultTimeoutMs applies to tools without their own', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const started = deferred();
    const server = testServer({ defaultTimeoutMs: 50 });
    server.tool({
      name: 'forever',
      handler: () => {
        started.resolve();
        return new Promise<string>(() => {});
      },
    });
    const client = await connect(server);
    const pending = client.request('tools/call', modern({ name: 'forever' }));
    await started.promise;
    t.mock.timers.tick(50);
    assert.equal(firstText(await pending), 'Tool "forever" timed out after 50 ms');
  });

  it('TO-01 a legacy session gets the same timeout result', async (t) => {
    t.mock.timers.enable({ apis: ['setTimeout'] });
    const started = deferred();
    const server = testServer();
    server.tool({
      name: 'forever',
      timeoutMs: 5,
      handler: () => {
        started.resolve();
        return new Promise<string>(() => {});
      },
    });
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25');
    const pending = client.request('tools/call', { name: 'forever' });
    await started.promise;
    t.mock.timers.tick(5);
    assert.deepEqual((await pending).result, {
      content: [{ type: 'text', text: 'Tool "forever" timed out after 5 ms' }],
      isError: true,
    });
  });

  for (const timeoutMs of [0, -1, 1.5, 2 ** 31]) {
    it(`TO-02 timeoutMs ${timeoutMs} is a DefinitionError at registration`, () => {
      assert.throws(() => testServer().tool({ name: 't', timeoutMs, handler: () => 'x' }), {
        name: 'DefinitionError',
        message: 'tool "t": timeoutMs must be a positive integer number of milliseconds (≤ 2147483647)',
      });
    });
  }

  it('TO-02 a bad server defaultTimeoutMs is a DefinitionError', () => {
    assert.throws(() => testServer({ defaultTimeoutMs: 0 }), DefinitionError);
  });
});
