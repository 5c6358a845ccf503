// The circuit breaker and the restart backoff on their own, on a manual clock.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { backoffDelay, resolveRestart } from './backoff.js';
import { CircuitBreaker } from './circuit.js';
import { ManualScheduler } from './manual-scheduler.js';

describe('circuit breaker', () => {
  it('F5 opens after N consecutive failures, refuses with the time left, and closes after one successful probe', () => {
    const clock = new ManualScheduler();
    const breaker = new CircuitBreaker({ failures: 3, probeAfterMs: 10_000 }, () => clock.now());
    breaker.failure();
    breaker.failure();
    assert.deepEqual(breaker.admit(), { ok: true, probe: false });
    breaker.failure();
    assert.equal(breaker.state, 'open');
    clock.advance(4000);
    assert.deepEqual(breaker.admit(), { ok: false, retryAfterMs: 6000 });
    clock.advance(6000);
    assert.equal(breaker.state, 'half-open');
    assert.deepEqual(breaker.admit(), { ok: true, probe: true });
    assert.deepEqual(breaker.admit(), { ok: false, retryAfterMs: undefined }, 'one probe at a time');
    breaker.success();
    assert.equal(breaker.state, 'closed');
    assert.equal(breaker.failures, 0);
    assert.deepEqual(breaker.admit(), { ok: true, probe: false });
  });

  it('F5 a failed probe opens the circuit again for a full probeAfterMs', () => {
    const clock = new ManualScheduler();
    const breaker = new CircuitBreaker({ failures: 1, probeAfterMs: 1000 }, () => clock.now());
    breaker.failure();
    clock.advance(1000);
    assert.deepEqual(breaker.admit(), { ok: true, probe: true });
    breaker.failure();
    assert.deepEqual(breaker.admit(), { ok: false, retryAfterMs: 1000 });
  });

  it('a success in between resets the count: failures must be consecutive', () => {
    const breaker = new CircuitBreaker({ failures: 2, probeAfterMs: 1000 });
    breaker.failure();
    breaker.success();
    breaker.failure();
    assert.equal(breaker.state, 'closed');
  });

  it('a probe released without a verdict lets the next request probe', () => {
    const clock = new ManualScheduler();
    const breaker = new CircuitBreaker({ failures: 1, probeAfterMs: 0 }, () => clock.now());
    breaker.failure();
    assert.deepEqual(breaker.admit(), { ok: true, probe: true });
    breaker.release(true);
    assert.deepEqual(breaker.admit(), { ok: true, probe: true });
  });

  it('refuses settings that would never open or never probe', () => {
    assert.throws(() => new CircuitBreaker({ failures: 0 }), {
      message: 'circuit.failures must be a positive integer, got 0',
    });
    assert.throws(() => new CircuitBreaker({ probeAfterMs: -1 }), {
      message: 'circuit.probeAfterMs must be >= 0, got -1',
    });
  });
});

describe('restart backoff', () => {
  it('grows by the factor up to the cap, and jitter only ever shortens a wait', () => {
    const options = resolveRestart({ initialMs: 100, maxMs: 1000, factor: 2, jitter: 0 });
    assert.deepEqual(
      [0, 1, 2, 3, 4, 50].map((attempt) => backoffDelay(options, attempt, () => 0.99)),
      [100, 200, 400, 800, 1000, 1000],
    );
    const jittered = resolveRestart({ initialMs: 100, maxMs: 1000, factor: 2, jitter: 0.5 });
    assert.equal(
      backoffDelay(jittered, 3, () => 0),
      800,
    );
    assert.equal(
      backoffDelay(jittered, 3, () => 0.5),
      600,
    );
  });

  it('refuses settings that would make a busy loop', () => {
    assert.throws(() => resolveRestart({ initialMs: 0 }), {
      message: 'restart.initialMs must be > 0, got 0',
    });
    assert.throws(() => resolveRestart({ initialMs: 10, maxMs: 5 }), {
      message: 'restart.maxMs must be at least restart.initialMs, got 5',
    });
    assert.throws(() => resolveRestart({ factor: 0.5 }), { message: 'restart.factor must be >= 1, got 0.5' });
    assert.throws(() => resolveRestart({ jitter: 2 }), {
      message: 'restart.jitter must be between 0 and 1, got 2',
    });
  });
});
