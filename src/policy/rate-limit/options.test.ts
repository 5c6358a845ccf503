// Rate limits' options (issue 15): checked at construction and when read from a file, every error naming the key.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkRateLimitOptions, rateLimit, type RateLimitOptions } from './index.js';

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
      'rateLimit: options.classes has "readonly", which is no annotation class (read-only, destructive, non-destructive, idempotent, open-world)',
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
      'rateLimit: options.perTool is not an option (known: perCall, tools, classes, trustAnnotations, total, concurrency, countAllRequests, store, storeTimeoutMs, maxKeys, now, logger)',
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
        'policy.rateLimits.burst is not an option (known: perCall, tools, classes, trustAnnotations, total, concurrency, countAllRequests, store, storeTimeoutMs, maxKeys, now, logger)',
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
