// Who a rate limit counts against (threat F2): the verified principal, or the anonymous caller's address group.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ANONYMOUS_CALLER } from '../../protocol/index.js';
import { ALICE, callerOf } from '../../../test/support/rate-limit-fixtures.js';
import { callerKey } from './index.js';

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
});
