// Rate limits in process (issue 15, threats F2 and F3): buckets per caller key and tool, per class and in total, the
// refusal's shape, refunds of refused calls, authorization first, the window's end.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { connect, modern } from '../../../test/support/harness.js';
import {
  ALICE,
  BOB,
  callerOf,
  limited,
  limitOf,
  passed,
  passes,
  sharedConnection,
  toolServer,
} from '../../../test/support/rate-limit-fixtures.js';
import { silentLogger, type Middleware } from '../../server/index.js';
import { scopes } from '../scopes/index.js';
import { rateLimit } from './index.js';

describe('rate limits: buckets', () => {
  it('F2 tool A exhausted does not block tool B, nor another caller', async () => {
    const call = limited({ perCall: { points: 3, durationSeconds: 60 } });
    assert.equal(await passes(call, 'search', ALICE, 5), 3);
    assert.equal(await passes(call, 'lookup', ALICE, 5), 3);
    assert.equal(await passes(call, 'search', BOB, 5), 3);
  });

  it('F2 a shared class limit does block the other tools of the class, and only those', async () => {
    const call = limited({
      perCall: { points: 10, durationSeconds: 60 },
      classes: { 'read-only': { points: 4, durationSeconds: 60 } },
    });
    assert.equal(await passes(call, 'search', ALICE, 3), 3);
    assert.equal(await passes(call, 'lookup', ALICE, 3), 1);
    assert.equal(await passes(call, 'delete_file', ALICE, 3), 3);
  });

  it('class buckets follow the annotations and the spec defaults: no annotations is destructive and open-world', async () => {
    const call = limited({
      classes: {
        destructive: { points: 2, durationSeconds: 60 },
        'open-world': { points: 3, durationSeconds: 60 },
        'non-destructive': { points: 1, durationSeconds: 60 },
      },
    });
    assert.equal(await passes(call, 'delete_file', ALICE, 3), 2); // destructive, closed world
    assert.equal(await passes(call, 'wipe', ALICE, 3), 0); // unannotated: destructive (spent) and open-world
    assert.equal(await passes(call, 'search', ALICE, 3), 1); // read-only: non-destructive
  });

  it('C4 untrusted annotations (trustAnnotations false): a tool claiming read-only counts as destructive', async () => {
    const call = limited({
      trustAnnotations: (tool) => tool.name !== 'search',
      classes: {
        destructive: { points: 2, durationSeconds: 60 },
        'read-only': { points: 9, durationSeconds: 60 },
      },
    });
    assert.equal(await passes(call, 'search', ALICE, 2), 2);
    assert.equal(limitOf(await call('lookup', ALICE)), undefined, 'lookup is trusted: read-only');
    assert.equal(limitOf(await call('delete_file', ALICE)), 'class:destructive');
  });

  it('a per-tool override replaces perCall for that tool', async () => {
    const call = limited({
      perCall: { points: 2, durationSeconds: 60 },
      tools: { search: { points: 5, durationSeconds: 60 } },
    });
    assert.equal(await passes(call, 'search', ALICE, 8), 5);
    assert.equal(await passes(call, 'lookup', ALICE, 8), 2);
  });

  it('the refusal: -31429 with the limit in words, data.retryAfterMs and data.limit, HTTP 429 and Retry-After', async (t) => {
    t.mock.timers.enable({ apis: ['Date'] }); // the clock stands still: the retry seconds are exact
    const call = limited({ tools: { search: { points: 1, durationSeconds: 60 } } });
    assert.ok(passed(await call('search', ALICE)));
    const refused = await call('search', ALICE);
    assert.deepEqual(refused.body.error, {
      code: -31429,
      message: 'Rate limited: tool "search" allows 1 call per 60 s; retry in 60 s',
      data: { retryAfterMs: 60_000, limit: 'tool' },
    });
    assert.equal(refused.options.httpStatus, 429);
    assert.deepEqual(refused.options.httpHeaders, { 'retry-after': '60' });
  });

  it('class and total refusals say which limit refused', async (t) => {
    t.mock.timers.enable({ apis: ['Date'] }); // the clock stands still: the retry seconds are exact
    const call = limited({
      classes: { destructive: { points: 1, durationSeconds: 30 } },
      total: { points: 2, durationSeconds: 90 },
    });
    assert.ok(passed(await call('wipe', ALICE)));
    const byClass = await call('delete_file', ALICE);
    assert.equal(
      byClass.body.error?.message,
      'Rate limited: destructive tools together allow 1 call per 30 s; retry in 30 s',
    );
    assert.equal(limitOf(byClass), 'class:destructive');
    assert.ok(passed(await call('search', ALICE)));
    const byTotal = await call('search', ALICE);
    assert.equal(
      byTotal.body.error?.message,
      'Rate limited: the total limit allows 2 calls per 90 s; retry in 90 s',
    );
    assert.equal(limitOf(byTotal), 'total');
  });

  it('a refused call costs nothing: the buckets that had admitted it get their point back', async () => {
    const call = limited({
      perCall: { points: 100, durationSeconds: 60 },
      classes: { destructive: { points: 2, durationSeconds: 60 } },
      total: { points: 10, durationSeconds: 60 },
    });
    // Two destructive calls pass, eight more are refused by the class: the total and perCall must not count them.
    assert.equal(await passes(call, 'delete_file', ALICE, 10), 2);
    // So the total still has 8 of its 10 for read-only calls (without refunds it would be exhausted already).
    assert.equal(await passes(call, 'search', ALICE, 10), 8);
    // And the total refusing a read-only call gave back that call's perCall point too: lookup's bucket is intact.
    const lookup = await call('lookup', ALICE);
    assert.equal(limitOf(lookup), 'total');
  });

  it('F3 200 parallel calls against a limit of 100 admit exactly 100 (in process)', async () => {
    const call = limited({
      perCall: { points: 100, durationSeconds: 60 },
      total: { points: 150, durationSeconds: 60 },
    });
    const answers = await Promise.all(Array.from({ length: 200 }, () => call('search', ALICE)));
    assert.equal(answers.filter(passed).length, 100);
    assert.ok(
      answers.filter((a) => !passed(a)).every((a) => a.body.error?.code === -31429 && limitOf(a) === 'tool'),
    );
    // The 100 refused calls gave their point back to the total: 50 of its 150 remain, to the exact call.
    const other = await Promise.all(Array.from({ length: 100 }, () => call('lookup', ALICE)));
    assert.equal(other.filter(passed).length, 50);
  });

  it('a tools/call naming no tool the caller may see counts only toward the total; other requests do not count', async () => {
    const server = toolServer();
    const limiter = rateLimit({ total: { points: 2, durationSeconds: 60 }, logger: silentLogger });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    assert.equal((await call('no_such_tool', ALICE)).body.error?.code, -32602);
    const client = await connect(server);
    for (let i = 0; i < 5; i++) assert.ok((await client.request('tools/list', modern())).result);
    assert.ok(passed(await call('search', ALICE)));
    assert.equal(limitOf(await call('search', ALICE)), 'total');
  });

  it('countAllRequests: every request counts toward the total, lists and pings included', async (t) => {
    t.mock.timers.enable({ apis: ['Date'] }); // the clock stands still: the retry seconds are exact
    const server = toolServer();
    server.use(
      rateLimit({ total: { points: 3, durationSeconds: 60 }, countAllRequests: true, logger: silentLogger })
        .middleware,
    );
    const client = await connect(server);
    for (let i = 0; i < 3; i++) assert.ok((await client.request('tools/list', modern())).result);
    const refused = await client.request('tools/list', modern());
    assert.equal(
      refused.error?.message,
      'Rate limited: the total limit allows 3 requests per 60 s; retry in 60 s',
    );
  });

  it('F2 a caller refused by the scopes middleware first never burns its budget', async () => {
    const server = toolServer();
    let granted = false;
    // A stand-in for the scopes middleware, installed before the rate limit as the lead's composition does.
    const scopes: Middleware = (request, next) => {
      if (!granted)
        request.deny(-31003, 'Insufficient scope: this call needs tools:write', { httpStatus: 403 });
      return next();
    };
    server.use(scopes);
    server.use(rateLimit({ perCall: { points: 3, durationSeconds: 60 }, logger: silentLogger }).middleware);
    const call = sharedConnection(server);
    for (let i = 0; i < 10; i++) assert.equal((await call('search', ALICE)).body.error?.code, -31003);
    granted = true;
    assert.equal(await passes(call, 'search', ALICE, 5), 3, 'the bucket did not move while scopes refused');
  });

  it('F2 with the real scopes middleware first: a caller lacking the scope gets 403 and never burns the budget', async () => {
    const server = toolServer();
    const access = scopes({ rules: [{ tools: ['*'], see: [], call: ['tools:call'] }] });
    server.addVisibility(access.visibility);
    server.use(access.middleware);
    server.use(rateLimit({ perCall: { points: 3, durationSeconds: 60 }, logger: silentLogger }).middleware);
    const call = sharedConnection(server);
    const without = callerOf('carol');
    for (let i = 0; i < 10; i++) {
      const refused = await call('search', without);
      assert.equal(refused.body.error?.code, -31003);
      assert.equal(refused.options.httpStatus, 403);
    }
    // The same principal, now holding the scope (a new token: same via and subject, so the same bucket).
    assert.equal(await passes(call, 'search', callerOf('carol', 'bearer', ['tools:call']), 5), 3);
  });

  it('F2 the window ends: the budget comes back once durationSeconds have passed', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 1_000_000 });
    const call = limited({ perCall: { points: 2, durationSeconds: 10 } });
    assert.equal(await passes(call, 'search', ALICE, 3), 2);
    t.mock.timers.tick(9_000);
    const refused = await call('search', ALICE);
    assert.equal(refused.options.httpHeaders?.['retry-after'], '1');
    t.mock.timers.tick(1_000);
    assert.equal(await passes(call, 'search', ALICE, 3), 2);
  });
});
