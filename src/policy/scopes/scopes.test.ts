// Scope decisions without a server: globs, annotation classes (C4), the several-rules semantics, deny by default,
// exemption, the bounded memo, and what a decision costs with 1,000 tools.

import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Caller } from '../../protocol/index.js';
import type { Target, ToolTarget } from '../../server/index.js';
import { makeTarget } from '../../server/targets.js';
import { annotationClasses } from './annotation-classes.js';
import { RuleIndex } from './decide.js';
import { DecisionCache } from './decision-cache.js';
import { globMatches } from './glob.js';
import { compileRules } from './rules.js';
import { scopes, type ScopeRule } from './index.js';

const caller = (subject: string, ...held: string[]): Caller =>
  Object.freeze({ subject, via: 'bearer', scopes: Object.freeze(held) });
const tool = (name: string, annotations?: Record<string, unknown>): ToolTarget =>
  makeTarget<ToolTarget>(
    'tool',
    name,
    JSON.stringify({ name, inputSchema: { type: 'object' }, annotations }),
    undefined,
  );
const prompt = (name: string): Target => makeTarget('prompt', name, JSON.stringify({ name }), undefined);
const resource = (uri: string): Target =>
  makeTarget('resource', uri, JSON.stringify({ uri, name: uri }), undefined);

/** The decision in short: "call", "see" (step-up, with what is missing) or "hidden". */
function verdict(rules: readonly ScopeRule[], who: Caller, target: Target): string {
  const decision = scopes({ rules }).decide(who, target);
  if (decision.callable) return 'call';
  return decision.visible ? `see (missing ${decision.missingScopes.join(' ')})` : 'hidden';
}

describe('policy scopes: globs', () => {
  it('"*" is any run, "?" exactly one character, and the rest is exact (case, spaces, look-alikes)', () => {
    const cases: [string, string, boolean][] = [
      ['files_*', 'files_read', true],
      ['files_*', 'files_', true],
      ['files_*', 'Files_read', false],
      ['files_?', 'files_a', true],
      ['files_?', 'files_ab', false],
      ['*_admin', 'db_admin', true],
      ['a*b*c', 'aXXbYYc', true],
      ['a*b*c', 'aXXbYY', false],
      ['files_read', 'files_read ', false],
      ['files_read', 'files\u200d_read', false],
      ['files_read', 'fil\u0435s_read', false], // Cyrillic е
      ['*', '', true],
      ['?', '', false],
      ['file:///docs/*', 'file:///docs/a/b', true],
    ];
    for (const [pattern, name, expected] of cases) {
      assert.equal(globMatches(Array.from(pattern), Array.from(name)), expected, `${pattern} ~ ${name}`);
    }
  });

  it('agrees with a regular-expression reading of the same glob (property)', () => {
    const alphabet = fc.constantFrom('a', 'b', '_', '*', '?');
    fc.assert(
      fc.property(
        fc.array(alphabet, { maxLength: 8 }),
        fc.array(fc.constantFrom('a', 'b', '_'), { maxLength: 10 }),
        (p, n) => {
          const reference = new RegExp(
            `^${p.map((c) => (c === '*' ? '.*' : c === '?' ? '.' : c)).join('')}$`,
            's',
          );
          return globMatches(p, n) === reference.test(n.join(''));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('a hostile pattern cannot make matching explode (bounded by pattern × name steps)', () => {
    const pattern = Array.from('*a*a*a*a*a*a*a*a*a*a*a*a*b');
    assert.equal(globMatches(pattern, Array.from('a'.repeat(128))), false);
  });
});

describe('policy scopes: annotation classes (C4)', () => {
  const classes = (annotations: Record<string, unknown> | undefined, trusted = true): string[] =>
    [...annotationClasses(tool('t', annotations), trusted)].sort();

  it('C4 a tool without annotations counts as destructive and open-world (the spec defaults)', () => {
    assert.deepEqual(classes(undefined), ['destructive', 'open-world']);
    assert.deepEqual(classes({}), ['destructive', 'open-world']);
  });

  it('C4 hints are read as the spec defines them; only booleans count', () => {
    assert.deepEqual(classes({ readOnlyHint: true }), [
      'idempotent',
      'non-destructive',
      'open-world',
      'read-only',
    ]);
    // destructiveHint means nothing on a read-only tool.
    assert.deepEqual(classes({ readOnlyHint: true, destructiveHint: true, openWorldHint: false }), [
      'idempotent',
      'non-destructive',
      'read-only',
    ]);
    assert.deepEqual(classes({ destructiveHint: false, idempotentHint: true }), [
      'idempotent',
      'non-destructive',
      'open-world',
    ]);
    assert.deepEqual(classes({ readOnlyHint: 'true', destructiveHint: 0 }), ['destructive', 'open-world']);
  });

  it("C4 trust decided per tool: a function trusts the server's own tools, not an upstream's", () => {
    const rules: ScopeRule[] = [{ annotations: ['read-only'], see: [] }];
    const asked: string[] = [];
    const policy = scopes({
      rules,
      trustAnnotations: (target) => (asked.push(target.name), !target.name.startsWith('upstream__')),
    });
    const own = tool('lookup', { readOnlyHint: true });
    const upstream = tool('upstream__rm_all', { readOnlyHint: true });
    assert.equal(policy.decide(caller('a'), own).callable, true);
    assert.equal(policy.decide(caller('b'), upstream).visible, false);
    policy.decide(caller('c'), upstream);
    assert.deepEqual(asked, ['lookup', 'upstream__rm_all'], 'asked once per tool');
  });

  it('C4 untrusted annotations: a readOnlyHint tool still counts as destructive and open-world', () => {
    assert.deepEqual(classes({ readOnlyHint: true, openWorldHint: false }, false), [
      'destructive',
      'open-world',
    ]);
    const rules: ScopeRule[] = [
      { annotations: ['read-only'], see: ['read'] },
      { annotations: ['destructive'], see: ['read'], call: ['write'] },
    ];
    const rmAll = tool('rm_all', { readOnlyHint: true });
    const reader = caller('r', 'read');
    assert.equal(scopes({ rules }).decide(reader, rmAll).callable, true);
    const untrusted = scopes({ rules, trustAnnotations: false }).decide(reader, rmAll);
    assert.deepEqual(
      { callable: untrusted.callable, visible: untrusted.visible, missing: untrusted.missingScopes },
      { callable: false, visible: true, missing: ['write'] },
    );
  });
});

describe('policy scopes: decisions', () => {
  const readFile = tool('files_read', { readOnlyHint: true });
  const deleteFile = tool('files_delete', { destructiveHint: true });
  const calc = tool('calc_add', { readOnlyHint: true, openWorldHint: false });

  it('deny by default: no rule, or a rule for another kind, hides the target', () => {
    const rules: ScopeRule[] = [{ tools: ['files_*'], see: [] }];
    assert.equal(verdict(rules, caller('a', 'admin'), calc), 'hidden');
    assert.equal(verdict(rules, caller('a'), prompt('files_read')), 'hidden');
    assert.equal(verdict(rules, caller('a'), resource('file:///files_read')), 'hidden');
    assert.equal(verdict([], caller('a', 'admin'), readFile), 'hidden');
  });

  it('B9 every scope of a rule is required, never any one of them', () => {
    const rules: ScopeRule[] = [{ tools: ['files_delete'], call: ['files:write', 'files:admin'] }];
    assert.equal(verdict(rules, caller('a', 'files:write'), deleteFile), 'hidden');
    assert.equal(verdict(rules, caller('a', 'files:write', 'files:admin'), deleteFile), 'call');
  });

  it('see defaults to call and call to see; see: [] is every caller; call adds to see', () => {
    assert.equal(verdict([{ tools: ['calc_*'], see: [] }], caller('a'), calc), 'call');
    assert.equal(verdict([{ tools: ['calc_*'], call: ['x'] }], caller('a'), calc), 'hidden');
    assert.equal(verdict([{ tools: ['calc_*'], see: ['x'] }], caller('a', 'x'), calc), 'call');
    const stepUp: ScopeRule[] = [{ tools: ['calc_*'], see: ['x'], call: ['y'] }];
    assert.equal(verdict(stepUp, caller('a', 'x'), calc), 'see (missing y)');
    assert.equal(verdict(stepUp, caller('a', 'y'), calc), 'hidden', 'call alone does not make it visible');
    assert.equal(verdict(stepUp, caller('a', 'x', 'y'), calc), 'call');
    assert.deepEqual(scopes({ rules: stepUp }).decide(caller('a', 'x'), calc).requiredScopes, ['x', 'y']);
  });

  it('several rules: visible if ANY see is held, callable if ANY visible rule has its call held', () => {
    const rules: ScopeRule[] = [
      { tools: ['files_*'], see: ['files:read'], call: ['files:write', 'files:admin'] },
      { annotations: ['destructive'], see: ['ops'], call: ['ops:write'] },
      { tools: ['files_delete'], see: ['files:read'], call: ['files:delete'] },
    ];
    assert.equal(verdict(rules, caller('a'), deleteFile), 'hidden');
    // Two visible rules: the step-up names the one missing fewest scopes.
    assert.equal(verdict(rules, caller('a', 'files:read'), deleteFile), 'see (missing files:delete)');
    assert.equal(scopes({ rules }).decide(caller('a', 'files:read'), deleteFile).rule, 2);
    assert.equal(verdict(rules, caller('a', 'files:read', 'files:delete'), deleteFile), 'call');
    // ops:write without ops does not count: a rule's call applies only where its see is held.
    assert.equal(
      verdict(rules, caller('a', 'files:read', 'ops:write'), deleteFile),
      'see (missing files:delete)',
    );
    assert.equal(verdict(rules, caller('a', 'ops', 'ops:write'), deleteFile), 'call');
  });

  it('scope hierarchies: a broad scope satisfies the narrower ones it implies, transitively; the challenge names the narrow one', () => {
    const policy = scopes({
      rules: [{ tools: ['files_delete'], see: ['files:read'], call: ['files:write'] }],
      implies: {
        'files:admin': ['files:write'],
        'files:write': ['files:read'],
        'files:read': ['files:admin'],
      },
    });
    assert.equal(policy.decide(caller('a', 'files:admin'), deleteFile).callable, true);
    assert.equal(policy.decide(caller('w', 'files:write'), deleteFile).callable, true);
    // The cycle back to files:admin is the operator's statement, and is honoured without looping.
    assert.equal(policy.decide(caller('r', 'files:read'), deleteFile).callable, true);
    const narrow = scopes({
      rules: [{ tools: ['files_delete'], see: ['files:read'], call: ['files:write'] }],
      implies: { 'files:admin': ['files:write', 'files:read'] },
    });
    assert.deepEqual(narrow.decide(caller('r', 'files:read'), deleteFile).missingScopes, ['files:write']);
    assert.equal(
      narrow.decide(caller('w', 'files:write'), deleteFile).visible,
      false,
      'narrow never implies broad',
    );
  });

  it('tools and annotations in one rule: named AND in a class', () => {
    const rules: ScopeRule[] = [{ tools: ['files_*'], annotations: ['read-only'], see: [] }];
    assert.equal(verdict(rules, caller('a'), readFile), 'call');
    assert.equal(verdict(rules, caller('a'), deleteFile), 'hidden');
    assert.equal(verdict(rules, caller('a'), calc), 'hidden');
  });

  it('B9 down-scoping: fewer scopes still get what those grant', () => {
    const rules: ScopeRule[] = [
      { annotations: ['read-only'], see: ['tools:read'] },
      { annotations: ['destructive'], see: ['tools:read'], call: ['tools:write'] },
    ];
    assert.equal(verdict(rules, caller('a', 'tools:read', 'tools:write'), deleteFile), 'call');
    assert.equal(verdict(rules, caller('a', 'tools:read'), readFile), 'call');
    assert.equal(verdict(rules, caller('a', 'tools:read'), deleteFile), 'see (missing tools:write)');
  });

  it('prompts and resources (registered URIs and templates) by name or glob', () => {
    const rules: ScopeRule[] = [
      { prompts: ['plan_*'], see: ['p'] },
      { resources: ['file:///docs/*'], see: [] },
    ];
    assert.equal(verdict(rules, caller('a', 'p'), prompt('plan_day')), 'call');
    assert.equal(verdict(rules, caller('a'), prompt('plan_day')), 'hidden');
    assert.equal(verdict(rules, caller('a'), resource('file:///docs/a.txt')), 'call');
    assert.equal(verdict(rules, caller('a'), resource('file:///secret')), 'hidden');
    const template = makeTarget(
      'resourceTemplate',
      'file:///docs/{name}',
      '{"uriTemplate":"file:///docs/{name}"}',
      undefined,
    );
    assert.equal(verdict(rules, caller('a'), template), 'call');
  });

  it('an exempt caller sees and calls everything, a rule or not; non-string scopes are never held', () => {
    const policy = scopes({
      rules: [{ tools: ['files_*'], see: ['x'] }],
      exempt: (who) => who.via === 'local',
    });
    const local: Caller = Object.freeze({ subject: 'local', via: 'local', scopes: Object.freeze([]) });
    assert.equal(policy.decide(local, calc).reason, 'exempt');
    const odd = { subject: 'o', via: 'bearer', scopes: [7, null, 'y'] } as unknown as Caller;
    assert.equal(policy.decide(odd, readFile).visible, false);
  });
});

describe('policy scopes: the memo', () => {
  it('the same caller and target give the same decision object; callers with the same scopes share', () => {
    const policy = scopes({ rules: [{ tools: ['files_*'], see: ['a'], call: ['b'] }] });
    const target = tool('files_x');
    const first = policy.decide(caller('one', 'a'), target);
    assert.equal(policy.decide(caller('two', 'a'), target), first);
  });

  it('is bounded: scope sets and decisions per set', () => {
    const index = new RuleIndex(compileRules([{ tools: ['*'], see: [] }]), true);
    const cache = new DecisionCache(index, undefined, { scopeSets: 3, decisionsPerSet: 5 });
    const targets = Array.from({ length: 20 }, (_, i) => tool(`t${i}`));
    for (let i = 0; i < 10; i++) {
      const who = caller(`c${i}`, `s${i}`);
      for (const target of targets) assert.equal(cache.decide(who, target).callable, true);
    }
    assert.deepEqual(cache.stats(), { scopeSets: 3, decisions: 15 });
  });

  it('an evicted scope set drops its decisions; its callers still get right answers, and the total stays bounded', () => {
    const index = new RuleIndex(compileRules([{ tools: ['t1'], see: ['s0'] }]), true);
    const cache = new DecisionCache(index, undefined, { scopeSets: 2, decisionsPerSet: 4 });
    const first = caller('first', 's0');
    const target = tool('t1');
    assert.equal(cache.decide(first, target).callable, true);
    for (let i = 1; i <= 5; i++) cache.decide(caller(`c${i}`, `s${i}`), target);
    assert.deepEqual(cache.stats(), { scopeSets: 2, decisions: 2 });
    // `first` still holds its evicted profile: it is looked up again, not used stale or kept growing.
    assert.equal(cache.decide(first, target).callable, true);
    assert.deepEqual(cache.stats(), { scopeSets: 2, decisions: 2 });
    assert.equal(cache.decide(caller('c9', 's9'), target).visible, false);
  });

  it('measures µs per decision with 1,000 tools (reported, never asserted: the machine is shared)', (t) => {
    const rules: ScopeRule[] = [
      { tools: ['files_*', 'calc_?', 'search_*_v2'], see: ['tools:read'] },
      { annotations: ['read-only'], see: ['tools:read'] },
      { annotations: ['destructive'], see: ['tools:read'], call: ['tools:write'] },
      ...Array.from({ length: 20 }, (_, i): ScopeRule => ({ tools: [`team${i}_*`], see: [`team:${i}`] })),
    ];
    const targets = Array.from({ length: 1000 }, (_, i) =>
      tool(`team${i % 25}_tool_${i}`, i % 3 === 0 ? { readOnlyHint: true } : undefined),
    );
    /** µs per decision over all targets: the best of `runs` passes (the least disturbed by other processes). */
    const best = (runs: number, pass: (run: number) => void): number => {
      let fastest = Infinity;
      for (let run = 0; run < runs; run++) {
        const start = performance.now();
        pass(run);
        fastest = Math.min(fastest, performance.now() - start);
      }
      return (fastest * 1000) / targets.length;
    };
    // Cold: a fresh policy each pass (rule matching, classes and scopes for every target).
    const cold = best(5, () => {
      const policy = scopes({ rules });
      const who = caller('alice', 'tools:read', 'team:3');
      for (const target of targets) policy.decide(who, target);
    });
    const policy = scopes({ rules });
    const alice = caller('alice', 'tools:read', 'team:3');
    for (const target of targets) policy.decide(alice, target);
    const memoised = best(20, () => {
      for (const target of targets) policy.decide(alice, target);
    });
    // A new caller object (a new token) whose scope set another caller already has.
    const known = best(5, (run) => {
      const who = caller(`bob${run}`, 'team:3', 'tools:read');
      for (const target of targets) policy.decide(who, target);
    });
    // A new scope set: rule matching is already cached per target, only the scopes are evaluated.
    const newSet = best(5, (run) => {
      const who = caller(`carol${run}`, 'tools:read', `team:${run + 4}`);
      for (const target of targets) policy.decide(who, target);
    });
    t.diagnostic(
      `1,000 tools, 23 rules, µs per decision: cold ${cold.toFixed(2)}, new scope set ${newSet.toFixed(2)}, ` +
        `new caller with a known scope set ${known.toFixed(3)}, memoised ${memoised.toFixed(3)}`,
    );
  });
});
