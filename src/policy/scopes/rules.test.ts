// Scope rules are checked when the policy is built: every bad rule or option is refused with a message naming the
// rule index and key, and the same shapes the README documents are accepted.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { scopes, ScopeRuleError, type ScopesOptions } from './index.js';

/** Builds a policy from untyped input (as a config reader would pass it) and returns the error message. */
function refusal(options: unknown): string {
  try {
    scopes(options as ScopesOptions);
  } catch (error) {
    assert.ok(error instanceof ScopeRuleError, String(error));
    return error.message;
  }
  assert.fail(`accepted ${JSON.stringify(options)}`);
}

const rules = (...list: unknown[]): unknown => ({ rules: list });

describe('policy scopes: rules are checked at construction', () => {
  it('accepts every documented shape', () => {
    scopes({
      rules: [
        { tools: ['files_read', 'files_*', 'calc_?'], see: [] },
        { annotations: ['read-only', 'idempotent'], see: ['tools:read'] },
        {
          annotations: ['destructive', 'open-world', 'non-destructive'],
          see: ['tools:read'],
          call: ['tools:write'],
        },
        { tools: ['files_*'], annotations: ['destructive'], call: ['files:write'] },
        { prompts: ['summarise', 'plan_*'], see: ['prompts'] },
        { resources: ['file:///docs/{name}', 'file:///public/*'], see: [] },
      ],
      trustAnnotations: false,
      exempt: (caller) => caller.via === 'local',
      implies: { 'files:admin': ['files:write'], 'files:write': ['files:read'] },
      stepUpHeaders: () => ({}),
      cache: { scopeSets: 10, decisionsPerSet: 10 },
    });
  });

  it('an unknown rule key names the rule and the key', () => {
    assert.equal(
      refusal(rules({ tools: ['a'], see: [] }, { tool: ['b'], see: [] })),
      'Invalid scopes policy: rules[1].tool is not a rule key (expected tools, annotations, prompts, resources, see, call)',
    );
  });

  it('a bad glob, a bad prompt name and a bad resource pattern name their index', () => {
    assert.equal(
      refusal(rules({ tools: ['files_read', 'files *'], see: [] })),
      'Invalid scopes policy: rules[0].tools[1] "files *" is not a tool name or glob: 1–128 characters from A–Z, a–z, 0–9, "_", "-", "." and the wildcards "*" and "?"',
    );
    assert.equal(
      refusal(rules({ tools: ['x'.repeat(129)], see: [] })).split(' is not')[0],
      `Invalid scopes policy: rules[0].tools[0] "${'x'.repeat(60)}…"`,
    );
    assert.equal(
      refusal(rules({ prompts: ['plan\n'], see: [] })),
      'Invalid scopes policy: rules[0].prompts[0] "plan\\n" is not a prompt name or glob: 1–128 characters, no control characters',
    );
    assert.equal(
      refusal(rules({ resources: [''], see: [] })),
      'Invalid scopes policy: rules[0].resources[0] "" is not a resource URI, URI template or glob: 1–2,048 characters, no control characters',
    );
  });

  it('a bad scope string is refused (RFC 6749 scope-token: no space, quote or backslash)', () => {
    for (const [scope, shown] of [
      ['files read', '"files read"'],
      ['a"b', '"a\\"b"'],
      ['a\\b', '"a\\\\b"'],
      ['', '""'],
      ['é', '"é"'],
    ] as const) {
      assert.equal(
        refusal(rules({ tools: ['a'], call: ['ok', scope] })),
        `Invalid scopes policy: rules[0].call[1] ${shown} is not a scope: 1–256 visible ASCII characters, no space, '"' or '\\'`,
      );
    }
    assert.equal(
      refusal(rules({ tools: ['a'], see: [7] })),
      'Invalid scopes policy: rules[0].see[0] must be a string',
    );
    assert.equal(
      refusal(rules({ tools: ['a'], see: 'files:read' })),
      'Invalid scopes policy: rules[0].see must be an array of strings',
    );
  });

  it('an unknown annotation class is refused, with the list of classes', () => {
    assert.equal(
      refusal(rules({ annotations: ['readonly'], see: [] })),
      'Invalid scopes policy: rules[0].annotations[0] "readonly" is not an annotation class (expected read-only, destructive, non-destructive, idempotent, open-world)',
    );
  });

  it('a rule that selects nothing, or says nothing about who, is refused rather than guessed', () => {
    assert.equal(
      refusal(rules({ see: ['a'] })),
      'Invalid scopes policy: rules[0] selects nothing: give at least one of tools, annotations, prompts, resources',
    );
    assert.equal(
      refusal(rules({ tools: ['a'] })),
      'Invalid scopes policy: rules[0] must say who may see or call what it selects: give "see", "call" or both ("see": [] for every caller)',
    );
    assert.equal(
      refusal(rules({ tools: [], see: [] })),
      'Invalid scopes policy: rules[0].tools is empty: name at least one, or leave the key out',
    );
    assert.equal(refusal(rules(null)), 'Invalid scopes policy: rules[0] must be an object');
    assert.equal(refusal(rules(['a'])), 'Invalid scopes policy: rules[0] must be an object');
  });

  it('lists are bounded', () => {
    assert.equal(
      refusal(rules({ tools: ['a'], see: Array.from({ length: 65 }, (_, i) => `s${i}`) })),
      'Invalid scopes policy: rules[0].see has 65 entries; at most 64',
    );
    assert.equal(
      refusal({ rules: Array.from({ length: 10_001 }, () => ({ tools: ['a'], see: [] })) }),
      'Invalid scopes policy: rules has 10001 rules; at most 10000',
    );
  });

  it('bad options are refused by name', () => {
    assert.equal(refusal({}), 'Invalid scopes policy: rules must be an array of rules');
    assert.equal(refusal(null), 'Invalid scopes policy: options must be an object with "rules"');
    assert.equal(
      refusal({ rules: [], trust: true }),
      'Invalid scopes policy: trust is not a scopes option (expected rules, implies, trustAnnotations, stepUpHeaders, exempt, cache)',
    );
    assert.equal(
      refusal({ rules: [], trustAnnotations: 'no' }),
      'Invalid scopes policy: trustAnnotations must be true, false or a function of the tool',
    );
    assert.equal(refusal({ rules: [], exempt: 'local' }), 'Invalid scopes policy: exempt must be a function');
    assert.equal(
      refusal({ rules: [], cache: { scopeSets: 0 } }),
      'Invalid scopes policy: cache.scopeSets must be a positive integer',
    );
  });

  it('a bad scope hierarchy is refused by key', () => {
    assert.equal(
      refusal({ rules: [], implies: ['files:admin'] }),
      'Invalid scopes policy: implies must be an object: broad scope → array of the scopes it grants too',
    );
    assert.equal(
      refusal({ rules: [], implies: { 'files:admin': 'files:write' } }),
      'Invalid scopes policy: implies["files:admin"] must be an array of scopes',
    );
    assert.equal(
      refusal({ rules: [], implies: { 'files:admin': ['files write'] } }),
      `Invalid scopes policy: implies["files:admin"][0] "files write" is not a scope: 1–256 visible ASCII characters, no space, '"' or '\\'`,
    );
    assert.equal(
      refusal({ rules: [], implies: { 'files admin': [] } }),
      `Invalid scopes policy: implies["files admin"] key "files admin" is not a scope: 1–256 visible ASCII characters, no space, '"' or '\\'`,
    );
  });

  it('the error carries the path, for a config reader to prefix with its own key', () => {
    try {
      scopes(rules({ tools: ['a'], see: [] }, { tools: ['ok'], call: [' '] }) as ScopesOptions);
      assert.fail('accepted');
    } catch (error) {
      assert.ok(error instanceof ScopeRuleError);
      assert.equal(error.path, 'rules[1].call[0]');
    }
  });
});
