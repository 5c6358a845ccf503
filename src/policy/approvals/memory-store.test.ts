// The memory store: bounded per caller and in total (finished approvals dropped first), expiry judged on the
// caller's clock and reported once, and single-use redemption that two racing retries cannot both win (G2).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryApprovalStore, type Approval } from './index.js';

let counter = 0;
const approval = (principal: string, created: number, ttl = 1000): Approval => ({
  id: `id${String(++counter).padStart(22, '0')}`,
  caller: { via: 'bearer', subject: principal },
  principal,
  tool: 'rm',
  argsDigest: 'digest',
  argumentsPreview: '{}',
  policyVersion: '1',
  rule: 'default',
  created,
  expiresAt: created + ttl,
  status: 'pending',
});
const LIMITS = { perCaller: 2, total: 3 };

describe('approvals: memory store', () => {
  it('refuses a third pending approval for one caller, and makes room by dropping finished ones only', async () => {
    const store = new MemoryApprovalStore();
    const [a, b, c, d] = [approval('ann', 0), approval('ann', 1), approval('bob', 2), approval('cy', 3)];
    assert.equal(await store.add(a, LIMITS, 10), undefined);
    assert.equal(await store.add(b, LIMITS, 10), undefined);
    assert.equal(await store.add(approval('ann', 4), LIMITS, 10), 'caller-limit');
    assert.equal(await store.add(c, LIMITS, 10), undefined);
    assert.equal(await store.add(d, LIMITS, 10), 'full', 'live approvals are never dropped');
    await store.decide(a.id, { status: 'denied', approver: 'zoe' }, 11);
    assert.equal(await store.add(d, LIMITS, 12), undefined, 'the denied one made room');
    assert.equal(await store.get(a.id, 12), undefined);
    assert.equal(store.size, 3);
  });

  it('G2 two racing redemptions of one approval: exactly one wins', async () => {
    const store = new MemoryApprovalStore();
    const a = approval('ann', 0);
    await store.add(a, LIMITS, 0);
    assert.equal(await store.redeem(a.id, 1), false, 'a pending approval cannot be redeemed');
    await store.decide(a.id, { status: 'approved', approver: 'zoe', reason: 'fine' }, 1);
    const wins = await Promise.all([store.redeem(a.id, 2), store.redeem(a.id, 2), store.redeem(a.id, 2)]);
    assert.deepEqual(wins.filter(Boolean).length, 1);
    assert.equal((await store.get(a.id, 3))?.status, 'redeemed');
    await store.release(a.id, 3);
    assert.equal((await store.get(a.id, 3))?.status, 'approved', 'released for the tool’s own retry');
  });

  it('G2 expiry follows the given clock: an expired approval cannot be decided or redeemed, and is reported once', async () => {
    const store = new MemoryApprovalStore();
    const a = approval('ann', 0, 100);
    const b = approval('bob', 0, 100);
    await store.add(a, LIMITS, 0);
    await store.add(b, LIMITS, 0);
    await store.decide(b.id, { status: 'approved', approver: 'zoe' }, 50);
    assert.equal((await store.get(a.id, 100))?.status, 'expired');
    assert.equal((await store.decide(a.id, { status: 'approved', approver: 'zoe' }, 101))?.status, 'expired');
    assert.equal(await store.redeem(b.id, 100), false, 'an approved one expires too');
    const reported = await store.sweep(200);
    assert.deepEqual(reported.map((held) => held.id).sort(), [a.id, b.id].sort());
    assert.deepEqual(await store.sweep(300), []);
    assert.equal(
      await store.find({ principal: 'ann', tool: 'rm', argsDigest: 'digest', policyVersion: '1' }, 300),
      undefined,
    );
  });
});

describe('approval ids', () => {
  it('never start with a dash or an underscore (a CLI argument would read as an option), and stay 24 characters', async () => {
    const { APPROVAL_ID, newApprovalId } = await import('./engine.js');
    for (let i = 0; i < 2_000; i++) {
      const id = newApprovalId();
      assert.match(id, APPROVAL_ID);
      assert.match(id, /^[A-Za-z0-9]/);
    }
  });
});
