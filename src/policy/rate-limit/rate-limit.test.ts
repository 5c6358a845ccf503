// Rate limits in process (issue 15, threats F2, F3, F6): buckets per caller key and tool, classes, totals, the
// concurrency cap and its release on cancel and timeout, refunds of refused calls, a failing store, the key bound.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RateLimiterMemory, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { JsonObject } from '../../jsonrpc/index.js';
import { ANONYMOUS_CALLER, type Caller, type SendOptions } from '../../protocol/index.js';
import { McpServer, silentLogger, type Middleware, type ServerOptions } from '../../server/index.js';
import {
  capturingLogger,
  connect,
  deferred,
  modern,
  type WireMessage,
} from '../../../test/support/harness.js';
import { KeyBound } from './key-bound.js';
import { callerKey, checkRateLimitOptions, classesOf, rateLimit, type RateLimitOptions } from './index.js';

const callerOf = (subject: string, via = 'bearer', scopes: string[] = []): Caller =>
  Object.freeze({ subject, via, scopes: Object.freeze(scopes) });
const ALICE = callerOf('alice');
const BOB = callerOf('bob');

/** A server with a few tools of each annotation class; every handler answers "ok". */
function toolServer(options: ServerOptions = {}): McpServer {
  const server = new McpServer(
    { name: 'rate-limit-test', version: '1.0.0' },
    { logger: silentLogger, ...options },
  );
  server.tool({
    name: 'search',
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({
    name: 'lookup',
    annotations: { readOnlyHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({
    name: 'delete_file',
    annotations: { destructiveHint: true, openWorldHint: false },
    handler: () => 'ok',
  });
  server.tool({ name: 'wipe', handler: () => 'ok' }); // no annotations: destructive and open-world
  return server;
}

interface Answer {
  body: WireMessage;
  options: SendOptions;
}

/**
 * The stateless HTTP path's shared connection, driven in process: each call says who calls and from which address,
 * and resolves with its final message and the send options (the HTTP status and headers a denial asks for).
 */
function sharedConnection(
  server: McpServer,
): (name: string, caller: Caller, address?: string, signal?: AbortSignal) => Promise<Answer> {
  const connection = server.createConnection(undefined, { legacy: false, shared: true });
  let id = 0;
  return (name, caller, address = '203.0.113.7', signal) =>
    new Promise((resolve) => {
      connection.receive(
        { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: modern({ name, arguments: {} }) },
        {
          auth: caller,
          transport: { kind: 'http', remoteAddress: address },
          ...(signal !== undefined && { signal }),
          reply: (text, options) => {
            if (options.final === true) resolve({ body: JSON.parse(text) as WireMessage, options });
          },
        },
      );
    });
}

const passed = (answer: Answer): boolean => answer.body.result !== undefined;
const limitOf = (answer: Answer): unknown => (answer.body.error?.data as JsonObject | undefined)?.limit;

/** Calls `name` n times one after another; how many passed. */
async function passes(
  call: ReturnType<typeof sharedConnection>,
  name: string,
  caller: Caller,
  n: number,
): Promise<number> {
  let count = 0;
  for (let i = 0; i < n; i++) if (passed(await call(name, caller))) count++;
  return count;
}

function limited(options: RateLimitOptions, server = toolServer()): ReturnType<typeof sharedConnection> {
  server.use(rateLimit({ logger: silentLogger, ...options }).middleware);
  return sharedConnection(server);
}

describe('rate limits: options are checked at construction, each error names the option', () => {
  const cases: Array<[unknown, string]> = [
    [
      {},
      'rateLimit: options sets no limit: give at least one of perCall, tools, classes, total or concurrency',
    ],
    [
      { perCall: { points: 0, durationSeconds: 1 } },
      'rateLimit: options.perCall.points must be a whole number of calls from 1 to 1,000,000,000, got 0',
    ],
    [
      { total: { points: 5, durationSeconds: 1.5 } },
      'rateLimit: options.total.durationSeconds must be a whole number of seconds from 1 to 31,622,400, got 1.5',
    ],
    [
      { perCall: { points: 5, duration: 60 } },
      'rateLimit: options.perCall has an unknown member "duration" (a limit has points and durationSeconds)',
    ],
    [
      { tools: { 'bad name': { points: 1, durationSeconds: 1 } } },
      'rateLimit: options.tools has "bad name", which is no tool name (1-128 of A-Z a-z 0-9 _ . -)',
    ],
    [
      { tools: { search: 5 } },
      'rateLimit: options.tools["search"] must be { points, durationSeconds }, got 5',
    ],
    [
      { classes: { readonly: { points: 1, durationSeconds: 1 } } },
      'rateLimit: options.classes has "readonly", which is no annotation class (read-only, destructive, open-world)',
    ],
    [
      { concurrency: -1 },
      'rateLimit: options.concurrency must be a whole number of calls from 1 to 1,000,000, got -1',
    ],
    [
      { perCall: { points: 1, durationSeconds: 1 }, countAllRequests: true },
      'rateLimit: options.countAllRequests counts requests toward options.total, which is not set',
    ],
    [
      { concurrency: 1, countAllRequests: 'yes' },
      'rateLimit: options.countAllRequests must be true or false, got "yes"',
    ],
    [
      { concurrency: 1, maxKeys: 0 },
      'rateLimit: options.maxKeys must be a whole number of keys from 1 to 100,000,000, got 0',
    ],
    [{ concurrency: 1, store: 'redis' }, 'rateLimit: options.store must be a function, got "redis"'],
    [
      { concurrency: 1, logger: () => undefined },
      'rateLimit: options.logger must be a Logger (debug, info, warn, error), got a function',
    ],
    [
      { concurrency: 1, perTool: {} },
      'rateLimit: options.perTool is not an option (known: perCall, tools, classes, total, concurrency, countAllRequests, store, maxKeys, now, logger)',
    ],
    [null, 'rateLimit: options must be an object, got null'],
    [
      { total: { points: 1, durationSeconds: 1 }, store: () => ({}) },
      'rateLimit: options.store("total") must return a rate limiter (consume, reward), got object',
    ],
  ];
  for (const [options, message] of cases) {
    it(message, () => {
      assert.throws(() => rateLimit(options as RateLimitOptions), { name: 'TypeError', message });
    });
  }
});

describe('rate limits: options read from a file', () => {
  it('checkRateLimitOptions names the key as a path from the root the reader gives', () => {
    assert.throws(
      () =>
        checkRateLimitOptions({ tools: { exec: { points: 5, durationSeconds: 0 } } }, 'policy.rateLimits'),
      {
        name: 'TypeError',
        message:
          'policy.rateLimits.tools["exec"].durationSeconds must be a whole number of seconds from 1 to 31,622,400, got 0',
      },
    );
    assert.throws(() => checkRateLimitOptions({ perCall: {}, burst: 3 }, 'policy.rateLimits'), {
      message:
        'policy.rateLimits.burst is not an option (known: perCall, tools, classes, total, concurrency, countAllRequests, store, maxKeys, now, logger)',
    });
    checkRateLimitOptions(
      {
        perCall: { points: 60, durationSeconds: 60 },
        tools: { exec: { points: 5, durationSeconds: 60 } },
        classes: { destructive: { points: 10, durationSeconds: 60 } },
        total: { points: 1000, durationSeconds: 3600 },
        concurrency: 4,
        countAllRequests: false,
        maxKeys: 50_000,
      },
      'policy.rateLimits',
    );
  });
});

describe('rate limits: callerKey', () => {
  it('F2 an authenticated caller is via:subject, whatever the address or client id', () => {
    assert.equal(callerKey(ALICE, '198.51.100.1'), 'bearer:alice');
    assert.equal(callerKey({ ...ALICE, clientId: 'rotated' }, '198.51.100.2'), 'bearer:alice');
    assert.equal(callerKey(callerOf('alice', 'api-key')), 'api-key:alice');
  });

  it('F2 an anonymous caller is its address group: IPv4 whole, IPv6 per /64, all of loopback one', () => {
    assert.equal(callerKey(ANONYMOUS_CALLER, '198.51.100.1'), 'anonymous:198.51.100.1');
    assert.equal(callerKey(ANONYMOUS_CALLER, '::ffff:198.51.100.1'), 'anonymous:198.51.100.1');
    assert.equal(callerKey(ANONYMOUS_CALLER, '2001:db8:1:2::1'), 'anonymous:2001:db8:1:2::/64');
    assert.equal(
      callerKey(ANONYMOUS_CALLER, '2001:db8:1:2:ffff:eeee:dddd:cccc'),
      'anonymous:2001:db8:1:2::/64',
    );
    for (const loopback of ['127.0.0.1', '127.9.9.9', '::1', '::ffff:127.0.0.1']) {
      assert.equal(callerKey(ANONYMOUS_CALLER, loopback), 'anonymous:loopback', loopback);
    }
    assert.equal(callerKey(ANONYMOUS_CALLER), 'anonymous:unknown');
  });

  it('a very long subject is kept as a bounded digest', () => {
    const key = callerKey(callerOf('s'.repeat(10_000)));
    assert.match(key, /^bearer:#[A-Za-z0-9_-]{43}$/);
    assert.equal(callerKey(callerOf('s'.repeat(10_000))), key);
    assert.notEqual(callerKey(callerOf('s'.repeat(10_001))), key);
  });

  it('classes follow the annotations and the spec defaults (no annotations: destructive and open-world)', () => {
    const server = toolServer();
    const seen = new Map<string, string[]>();
    server.use((request, next) => {
      if (request.target?.kind === 'tool') seen.set(request.target.name, classesOf(request.target));
      return next();
    });
    const call = sharedConnection(server);
    return Promise.all(['search', 'delete_file', 'wipe'].map((name) => call(name, ALICE))).then(() => {
      assert.deepEqual(seen.get('search'), ['read-only']);
      assert.deepEqual(seen.get('delete_file'), ['destructive']);
      assert.deepEqual(seen.get('wipe'), ['destructive', 'open-world']);
    });
  });
});

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

describe('rate limits: memory stays bounded', () => {
  it('F2 100,000 distinct anonymous addresses: the memory store never holds more than maxKeys', async () => {
    const server = toolServer();
    const limiter = rateLimit({
      perCall: { points: 5, durationSeconds: 60 },
      total: { points: 50, durationSeconds: 600 },
      maxKeys: 1000,
      logger: silentLogger,
    });
    server.use(limiter.middleware);
    const call = sharedConnection(server);
    let most = 0;
    for (let batch = 0; batch < 100; batch++) {
      await Promise.all(
        Array.from({ length: 1000 }, (_, i) => {
          const n = batch * 1000 + i;
          return call('search', ANONYMOUS_CALLER, `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`);
        }),
      );
      most = Math.max(most, limiter.stats().keys);
    }
    assert.equal(most, 1000);
    // The newest callers are still counted: one of the last addresses has used one of its five.
    const last = '10.1.134.159'; // n = 99,999
    let allowed = 0;
    for (let i = 0; i < 6; i++) if (passed(await call('search', ANONYMOUS_CALLER, last))) allowed++;
    assert.equal(allowed, 4);
  });

  it('the bound deletes from the store itself: RateLimiterMemory holds no more than maxKeys records', async () => {
    const memory = new RateLimiterMemory({ points: 3, duration: 60 });
    const bound = new KeyBound(500, Date.now);
    for (let n = 0; n < 20_000; n++) {
      const key = `k${n}`;
      bound.seen(0, memory, key, await memory.consume(key));
    }
    assert.equal(memory.dump().storage.length, 500);
    assert.equal(bound.size, 500);
    assert.deepEqual(
      memory
        .dump()
        .storage.map((record) => record.key)
        .slice(0, 2),
      ['k19500', 'k19501'],
    );
  });

  it('windows that ended leave the bound as new ones open', async (t) => {
    t.mock.timers.enable({ apis: ['Date', 'setTimeout'], now: 5_000_000 });
    const memory = new RateLimiterMemory({ points: 3, duration: 10 });
    const bound = new KeyBound(1000, Date.now);
    for (let n = 0; n < 100; n++) bound.seen(0, memory, `a${n}`, await memory.consume(`a${n}`));
    t.mock.timers.tick(10_000);
    bound.seen(0, memory, 'b', await memory.consume('b'));
    assert.equal(bound.size, 1);
    assert.equal(memory.dump().storage.length, 1);
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
