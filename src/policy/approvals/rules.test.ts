// Approval rules and options are checked when approvals are built (every problem names the rule and key), and the
// decision follows the first matching rule, else the default: destructive or untrusted tools need a human (G3).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ToolTarget } from '../../server/index.js';
import { approvals, ApprovalRuleError, type ApprovalsOptions } from './index.js';

const URL_BASE = 'https://approve.example/approvals';

function refusal(options: unknown): string {
  try {
    approvals(options as ApprovalsOptions);
  } catch (error) {
    assert.ok(error instanceof ApprovalRuleError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(options)}`);
}

const tool = (name: string, annotations?: ToolTarget['annotations']): ToolTarget =>
  Object.freeze({
    kind: 'tool',
    name,
    annotations,
    definition: { name, inputSchema: { type: 'object' } },
    timeoutMs: undefined,
  }) as ToolTarget;

describe('approvals: rules and options are checked at construction', () => {
  it('names the bad key, rule and value', () => {
    const cases: [unknown, string][] = [
      [
        {},
        'Invalid approvals policy: approvalUrl is required: the absolute http(s) URL of the approval page',
      ],
      [{ approvalUrl: 'approve' }, 'Invalid approvals policy: approvalUrl is not an absolute URL'],
      [{ approvalUrl: 'ftp://x/a' }, 'Invalid approvals policy: approvalUrl must be an http or https URL'],
      [
        { approvalUrl: 'https://x/a?token=1' },
        'Invalid approvals policy: approvalUrl may not carry credentials, a query or a fragment',
      ],
      [
        { approvalUrl: URL_BASE, ttl: 5 },
        'Invalid approvals policy: ttl is not an approvals option (expected rules, trustAnnotations, ttlMs, store, approvalUrl, allowSelfApproval, policyVersion, decideScope, maxPendingPerCaller, maxApprovals, onEvent, logger, webhook, now)',
      ],
      [
        { approvalUrl: URL_BASE, ttlMs: 0 },
        'Invalid approvals policy: ttlMs must be an integer from 1 to 604800000',
      ],
      [{ approvalUrl: URL_BASE, rules: {} }, 'Invalid approvals policy: rules must be an array'],
      [
        { approvalUrl: URL_BASE, rules: [{ tools: ['x'] }] },
        'Invalid approvals policy: rules[0].require must be true or false',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ require: true }] },
        'Invalid approvals policy: rules[0] selects nothing: give tools, annotations or argument',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ tools: ['a b'], require: true }] },
        'Invalid approvals policy: rules[0].tools[0] is not a tool name or glob (1-128 of A-Z a-z 0-9 _ - . * ?)',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ annotations: ['scary'], require: true }] },
        'Invalid approvals policy: rules[0].annotations[0] is not an annotation class (read-only, destructive, non-destructive, idempotent, open-world)',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ tools: ['x'], matches: '^a', require: true }] },
        'Invalid approvals policy: rules[0].matches needs argument',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: 'path', require: true }] },
        'Invalid approvals policy: rules[0].argument needs exactly one of equals, matches or prefix',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: 'path', matches: '^(a+)+$', require: true }] },
        'Invalid approvals policy: rules[0].matches may not quantify a group (write the alternatives out instead)',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: 'path', matches: '(a)\\1', require: true }] },
        'Invalid approvals policy: rules[0].matches may not use backreferences or lookbehind',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: 'path', matches: '[', require: true }] },
        'Invalid approvals policy: rules[0].matches is not a valid regular expression',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: 'path', equals: {}, require: true }] },
        'Invalid approvals policy: rules[0].equals must be a string, number, boolean or null',
      ],
      [
        { approvalUrl: URL_BASE, rules: [{ argument: '/a/b/c/d/e/f/g/h/i', prefix: 'x', require: true }] },
        'Invalid approvals policy: rules[0].argument has more than 8 segments',
      ],
      [
        { approvalUrl: URL_BASE, trustAnnotations: 'yes' },
        'Invalid approvals policy: trustAnnotations must be true, false or a function of the tool',
      ],
    ];
    for (const [options, message] of cases) assert.equal(refusal(options), message);
  });
});

describe('approvals: which calls need a human', () => {
  it('G3 an unannotated tool needs approval by default; a read-only tool of a trusted server skips it', () => {
    const policy = approvals({ approvalUrl: URL_BASE });
    assert.deepEqual(policy.decide(tool('mystery'), {}), { require: true, rule: 'default' });
    assert.deepEqual(policy.decide(tool('look', { readOnlyHint: true }), {}), {
      require: false,
      rule: 'default',
    });
    assert.deepEqual(policy.decide(tool('rm', { destructiveHint: true }), {}), {
      require: true,
      rule: 'default',
    });
    assert.deepEqual(policy.decide(tool('add', { destructiveHint: false }), {}), {
      require: false,
      rule: 'default',
    });
  });

  it('G3 untrusted annotations count as destructive, read-only or not', () => {
    const none = approvals({ approvalUrl: URL_BASE, trustAnnotations: false });
    assert.equal(none.decide(tool('look', { readOnlyHint: true }), {}).require, true);
    const some = approvals({
      approvalUrl: URL_BASE,
      trustAnnotations: (target) => target.name.startsWith('own_'),
    });
    assert.equal(some.decide(tool('own_look', { readOnlyHint: true }), {}).require, false);
    assert.equal(some.decide(tool('up_look', { readOnlyHint: true }), {}).require, true);
  });

  it('the first matching rule decides: names, globs, classes and argument conditions', () => {
    const policy = approvals({
      approvalUrl: URL_BASE,
      rules: [
        { argument: 'path', matches: '^/etc/', require: true },
        { argument: '/options/mode', equals: 'force', require: true },
        { tools: ['files_*'], argument: 'path', prefix: '/tmp/', require: false },
        { tools: ['deploy'], require: true },
        { annotations: ['destructive'], tools: ['safe_*'], require: false },
      ],
    });
    const read = tool('files_read', { readOnlyHint: true });
    assert.deepEqual(policy.decide(read, { path: '/etc/passwd' }), { require: true, rule: 0 });
    assert.deepEqual(policy.decide(read, { path: ['/etc/x'] }), { require: false, rule: 'default' });
    assert.deepEqual(policy.decide(tool('x', { readOnlyHint: true }), { options: { mode: 'force' } }), {
      require: true,
      rule: 1,
    });
    assert.deepEqual(policy.decide(tool('files_rm'), { path: '/tmp/a' }), { require: false, rule: 2 });
    assert.deepEqual(policy.decide(tool('deploy', { readOnlyHint: true }), {}), { require: true, rule: 3 });
    assert.deepEqual(policy.decide(tool('safe_rm'), {}), { require: false, rule: 4 });
  });

  it('a regular expression only sees the first 1024 characters of a long argument', () => {
    const policy = approvals({
      approvalUrl: URL_BASE,
      rules: [{ argument: 'text', matches: 'secret$', require: true }],
    });
    const look = tool('look', { readOnlyHint: true });
    assert.equal(policy.decide(look, { text: 'a'.repeat(1018) + 'secret' }).require, true);
    assert.equal(policy.decide(look, { text: 'a'.repeat(5000) + 'secret' }).require, false);
  });
});
