// Cancellation: the request hot path's abort flag, with an AbortSignal made only on demand (spec-digest: cancellation
// aborts the handler's signal; a closed response or a timeout does too).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Cancellation, onTransportAbort } from '../src/protocol/index.js';

describe('Cancellation', () => {
  it('runs its listeners once, in order, with the reason; later aborts are ignored', () => {
    const cancellation = new Cancellation();
    const seen: unknown[] = [];
    cancellation.onAbort((reason) => seen.push(['first', reason]));
    cancellation.onAbort((reason) => seen.push(['second', reason]));
    assert.equal(cancellation.aborted, false);
    assert.equal(cancellation.reason, undefined);
    cancellation.abort('stop');
    cancellation.abort('again');
    assert.equal(cancellation.aborted, true);
    assert.equal(cancellation.reason, 'stop');
    assert.deepEqual(seen, [
      ['first', 'stop'],
      ['second', 'stop'],
    ]);
  });

  it('calls a listener added after the abort at once', () => {
    const cancellation = new Cancellation();
    cancellation.abort('late');
    let reason: unknown;
    cancellation.onAbort((r) => (reason = r));
    assert.equal(reason, 'late');
  });

  it('runs its listeners before the signal aborts (a timeout is settled before handler code reacts)', () => {
    const cancellation = new Cancellation();
    const order: string[] = [];
    cancellation.signal.addEventListener('abort', () => order.push('signal'));
    cancellation.onAbort(() => order.push('listener'));
    cancellation.abort();
    assert.deepEqual(order, ['listener', 'signal']);
  });

  it('makes one AbortSignal on demand that follows it, already aborted when made after the abort', () => {
    const before = new Cancellation();
    const signal = before.signal;
    assert.equal(before.signal, signal, 'the same signal every time');
    let fired: unknown;
    signal.addEventListener('abort', () => (fired = signal.reason));
    before.abort(new Error('timed out'));
    assert.equal(signal.aborted, true);
    assert.equal((fired as Error).message, 'timed out');

    const after = new Cancellation();
    after.abort('gone');
    assert.equal(after.signal.aborted, true);
    assert.equal(after.signal.reason, 'gone');
  });

  it('defaults the reason to an AbortError, as AbortController does', () => {
    const cancellation = new Cancellation();
    cancellation.abort();
    assert.equal((cancellation.reason as DOMException).name, 'AbortError');
  });
});

describe('onTransportAbort', () => {
  it('prefers the abort hook, and falls back to an AbortSignal (already aborted or later)', () => {
    const hook = new Cancellation();
    const controller = new AbortController();
    const seen: unknown[] = [];
    onTransportAbort({ abort: hook, signal: controller.signal }, (r) => seen.push(['hook', r]));
    controller.abort('signal');
    assert.equal(seen.length, 0, 'the signal is not read when a hook is given');
    hook.abort('hook');
    assert.deepEqual([...seen], [['hook', 'hook']]); // a copy: asserting on `seen` itself would narrow its type

    const live = new AbortController();
    onTransportAbort({ signal: live.signal }, (r) => seen.push(['signal', r]));
    live.abort('now');
    const done = new AbortController();
    done.abort('before');
    onTransportAbort({ signal: done.signal }, (r) => seen.push(['aborted', r]));
    onTransportAbort(undefined, () => seen.push('never'));
    assert.deepEqual(seen.slice(1), [
      ['signal', 'now'],
      ['aborted', 'before'],
    ]);
  });
});
