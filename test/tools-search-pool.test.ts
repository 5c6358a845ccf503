// The matching pool of the search pack on its own: cutting a batch for a search that has used less, resuming it at
// the file it was on, ending it at its matching budget, and sharing the threads between callers before searches.
// Every order asserted here follows from the scheduling rules, whatever the machine's speed.

import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { after, describe, it } from 'node:test';
import { BudgetExhausted, type BatchResult } from '../src/tools/search/match-errors.js';
import { MATCH_EVENTS_CHANNEL, type MatchEvent } from '../src/tools/search/match-events.js';
import { MatchPool } from '../src/tools/search/match-pool.js';
import { buildQuery } from '../src/tools/search/query.js';

const HOSTILE = `${'a'.repeat(64)}!\n`;
/** Catastrophic on HOSTILE (the first branch), immediate on a line with "needle". */
const query = buildQuery('(a+)+$|needle', true, true);
const never = new AbortController().signal;

const events: MatchEvent[] = [];
const record = (message: unknown): void => {
  events.push(message as MatchEvent); // the channel only carries MatchEvents
};
subscribe(MATCH_EVENTS_CHANNEL, record);
after(() => unsubscribe(MATCH_EVENTS_CHANNEL, record));

/** Resolves once an event matching `check` has been published (from now on, or already). */
function eventWhere(check: (event: MatchEvent) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const look = (message: unknown): void => {
      if (!check(message as MatchEvent)) return;
      unsubscribe(MATCH_EVENTS_CHANNEL, look);
      resolve();
    };
    subscribe(MATCH_EVENTS_CHANNEL, look);
    if (events.some(check)) look(events.find(check));
  });
}

const session = (pool: MatchPool, owner: string, budgetMs: number) =>
  pool.open({ query, owner, budgetMs, deadline: Date.now() + 120_000, signal: never });

describe('search matching pool', () => {
  it('cuts a batch for a search that has used less, resumes it at the file it was on, and ends it at its budget', async () => {
    const pool = new MatchPool(1, 200);
    const hostile = session(pool, '', 600);
    const normal = session(pool, '', 600);
    const order: string[] = [];
    const cut = hostile.run(['one needle\n', HOSTILE, 'needle three\n'], 10, 0).then(
      () => assert.fail('the hostile batch finished'),
      (error: unknown) => {
        order.push('hostile');
        return error;
      },
    );
    await eventWhere((event) => event.event === 'started' && event.search === hostile.id);
    const answered: BatchResult = await normal.run(['a needle here\n'], 10, 0);
    order.push('normal');
    assert.deepEqual(answered, {
      matches: [{ file: 0, line: 1, column: 3, preview: 'a needle here', before: [], after: [] }],
      filesDone: 1,
    });
    const error = await cut;
    assert.deepEqual(order, ['normal', 'hostile']);
    assert.ok(error instanceof BudgetExhausted, String(error));
    // The first file's match came once (the batch resumed at file 1, never at 0), the third file was never reached.
    assert.deepEqual(error.detail.partial, {
      matches: [{ file: 0, line: 1, column: 5, preview: 'one needle', before: [], after: [] }],
      filesDone: 1,
    });
    assert.deepEqual(
      { file: error.detail.stuck?.file, line: error.detail.stuck?.line },
      { file: 1, line: 1 },
    );
    assert.ok((error.detail.stuck?.ms ?? 0) >= 300, JSON.stringify(error.detail));
    const mine = events
      .filter((event) => 'search' in event && event.search === hostile.id)
      .map((e) => e.event);
    assert.deepEqual(mine.slice(0, 3), ['queued', 'started', 'preempted']);
    assert.equal(mine.at(-1), 'stopped');
    hostile.close();
    normal.close();
  });

  it('shares the threads between callers first: one caller with three hostile searches does not crowd out another', async () => {
    const pool = new MatchPool(2, 200);
    const order: string[] = [];
    const run = (owner: string, name: string) => {
      const account = session(pool, owner, 1000);
      return account.run([HOSTILE], 1, 0).then(
        () => assert.fail(`${name} finished`),
        (error: unknown) => {
          assert.ok(error instanceof BudgetExhausted, String(error));
          order.push(name);
          account.close();
        },
      );
    };
    const crowd = [run('x', 'x1'), run('x', 'x2'), run('x', 'x3')];
    await eventWhere((event) => event.event === 'started');
    const other = run('y', 'y');
    await Promise.all([...crowd, other]);
    // y had a thread to itself half of the time; x's three searches shared the other half.
    assert.equal(order[0], 'y', order.join(', '));
  });

  it('drops the batches of a closed session, waiting or running', async () => {
    const pool = new MatchPool(1, 200);
    const first = session(pool, '', 60_000);
    const second = session(pool, '', 60_000);
    const running = first.run([HOSTILE], 1, 0).catch((error: unknown) => error);
    await eventWhere((event) => event.event === 'started' && event.search === first.id);
    const waiting = second.run([HOSTILE], 1, 0).catch((error: unknown) => error);
    second.close();
    first.close();
    assert.equal(String(await waiting), 'MatchAborted: matching was cancelled');
    assert.equal(String(await running), 'MatchAborted: matching was cancelled');
  });
});
