// One AbortSignal serving many of a client's calls (an application's shutdown signal): each call listens to it only
// while it is in flight, and the signal still cancels whatever is in flight when it fires.

import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { afterEach, describe, it } from 'node:test';
import { deferred, memoryClient, within } from './fixtures/client/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

describe('client: a signal shared by many calls', () => {
  it('keeps no listener for a call once it has settled', async () => {
    const pair = await memoryClient({ approve: 'always' });
    closers.push(pair.close);
    const shutdown = new AbortController();
    for (let round = 0; round < 3; round++) {
      const sums = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          pair.client.callTool('add', { a: index, b: round }, { signal: shutdown.signal }),
        ),
      );
      assert.equal(sums.length, 20);
      assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0, `after round ${round + 1}`);
    }
    // A failed call lets go too.
    await assert.rejects(pair.client.callTool('no_such_tool', {}, { signal: shutdown.signal }));
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0, 'after a refused call');
  });

  it('still cancels the call in flight when it fires after many have settled', async () => {
    const started = deferred();
    const stopped = deferred();
    const pair = await memoryClient(
      { approve: 'always' },
      { onSlowStarted: () => started.resolve(), onSlowAborted: () => stopped.resolve() },
    );
    closers.push(pair.close);
    const shutdown = new AbortController();
    for (let index = 0; index < 10; index++) {
      await pair.client.callTool('add', { a: index, b: 1 }, { signal: shutdown.signal });
    }
    const slow = pair.client.callTool('slow', {}, { signal: shutdown.signal });
    await within(started.promise, 5_000, 'the slow call to start');
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 1, 'only the call in flight listens');
    shutdown.abort();
    await assert.rejects(slow, { name: 'RequestAbortedError' });
    await within(stopped.promise, 5_000, 'the handler to see the cancellation');
    assert.equal(getEventListeners(shutdown.signal, 'abort').length, 0);
  });
});
