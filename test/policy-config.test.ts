// toolwire.json's "policy" section: the reader (policy-config.ts) and the JSON Schema editors use (policy-schema.ts)
// give the same answer on good and bad sections, every object refuses an unknown key in both, and the reader's
// messages name the key that is wrong.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { readPolicyConfig } from '../src/tools/policy-config.js';
import { POLICY_SCHEMA } from '../src/tools/policy-schema.js';

const FILE = '/srv/toolwire/toolwire.json';
const validate = new Ajv({ strict: false, allErrors: true }).compile(POLICY_SCHEMA);

/** undefined when the reader accepts the section, else its message. */
function readerSays(policy: unknown): string | undefined {
  try {
    readPolicyConfig(policy, FILE);
    return undefined;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ConfigError') throw error;
    return error.message;
  }
}

const RULES = { rules: [{ tools: ['*'], see: [] }] };
const OAUTH = { resource: 'https://mcp.example.com/mcp', authorizationServers: ['https://auth.example.com'] };
const KEY = { id: 'abcdefghijkl', subject: 'ci', scopes: ['tools:read'], hash: 'sha256:AAAA' };

const GOOD: Record<string, unknown> = {
  'OAuth only': { oauth: OAUTH, scopes: RULES },
  'OAuth with everything': {
    oauth: {
      ...OAUTH,
      issuer: ['https://auth.example.com'],
      audience: ['https://mcp.example.com/mcp'],
      jwksUri: 'https://auth.example.com/jwks.json',
      algorithms: ['ES256'],
      clockToleranceSeconds: 30,
      scopesSupported: ['tools:read'],
      requiredScopes: ['tools:read'],
      resourceName: 'Tools',
      introspection: { endpoint: 'https://auth.example.com/introspect', clientId: 'mcp', clientSecret: 's' },
      allowInsecureUrls: false,
    },
    scopes: RULES,
  },
  'API keys inline': { apiKeys: { keys: [KEY], header: false }, scopes: RULES },
  'an audit trail in SQLite': {
    oauth: OAUTH,
    scopes: RULES,
    audit: { sqlite: './audit.db', requests: 'all', retention: { maxAgeDays: 90, maxRows: 1000 } },
  },
  'telemetry on': { oauth: OAUTH, scopes: RULES, telemetry: true },
  'clean outputs off': { oauth: OAUTH, scopes: RULES, sanitise: false },
  'approvals with everything': {
    apiKeys: { keys: [KEY] },
    scopes: RULES,
    approvals: {
      approvalUrl: 'https://mcp.example.com:8788/approvals',
      admin: { host: '0.0.0.0', port: 8788, basePath: '/approvals' },
      rules: [
        { tools: ['deploy_*'], require: true },
        { argument: 'path', prefix: '/etc/', require: true },
        { annotations: ['read-only'], require: false },
      ],
      trustAnnotations: false,
      ttlMs: 60000,
      policyVersion: '2026-11-27',
      allowSelfApproval: false,
      decideScope: 'approvals:decide',
      maxPendingPerCaller: 4,
      maxApprovals: 100,
      webhook: {
        url: 'https://chat.example.com/hook',
        secret: 'x'.repeat(32),
        timeoutMs: 1000,
        toleranceSeconds: 60,
      },
    },
  },
  'clean outputs with settings': {
    oauth: OAUTH,
    scopes: RULES,
    sanitise: {
      text: true,
      maxResultBytes: 65536,
      maxBinaryBytes: 1048576,
      maskErrors: false,
      redact: true,
      redactKeys: ['pin'],
    },
  },
  'telemetry with settings': {
    oauth: OAUTH,
    scopes: RULES,
    telemetry: {
      recordArguments: true,
      recordResults: false,
      maxAttributeBytes: 1024,
      clientTraceContext: 'link',
    },
  },
  'an audit trail in PostgreSQL': {
    oauth: OAUTH,
    scopes: RULES,
    audit: { postgres: 'postgres://audit@127.0.0.1:5432/toolwire', table: 'calls' },
  },
  'API keys in a file': { apiKeys: { file: 'keys.json' }, scopes: RULES },
  'anonymous callers with rate limits': {
    anonymous: true,
    localScopes: ['tools:read'],
    scopes: {
      trustAnnotations: false,
      implies: { 'files:admin': ['files:write'], 'files:write': ['files:read'] },
      rules: [
        { annotations: ['read-only'], see: [] },
        { tools: ['delete_*'], prompts: ['p'], resources: ['file:///x'], see: ['a'], call: ['a', 'b'] },
      ],
    },
    rateLimits: {
      perCall: { points: 10, durationSeconds: 60 },
      tools: { calculate: { points: 3, durationSeconds: 1 } },
      classes: { destructive: { points: 1, durationSeconds: 60 } },
      total: { points: 100, durationSeconds: 3600 },
      concurrency: 4,
      countAllRequests: true,
    },
  },
};

const BAD: Record<string, [unknown, string]> = {
  'not an object': [
    'x',
    'policy must be an object with the optional keys oauth, apiKeys, anonymous, localScopes, scopes, rateLimits, audit, telemetry, sanitise, approvals; got "x"',
  ],
  'no way to know callers': [
    { scopes: RULES },
    'policy needs a way to know callers: oauth, apiKeys, or both (or "anonymous": true to apply scopes and rate limits to unauthenticated callers)',
  ],
  'no scopes': [
    { oauth: OAUTH },
    'policy.scopes is required: with a policy every tool is hidden unless a rule grants it, e.g. "scopes": { "rules": [{ "tools": ["*"], "see": [] }] }',
  ],
  'no rules': [
    { oauth: OAUTH, scopes: { rules: [] } },
    'policy.scopes.rules must have at least one rule: with none, every tool is hidden',
  ],
  'a rule naming nothing': [
    { oauth: OAUTH, scopes: { rules: [{ see: ['a'] }] } },
    'policy.scopes.rules[0] names nothing: give tools, annotations, prompts or resources',
  ],
  'an unknown annotation class': [
    { oauth: OAUTH, scopes: { rules: [{ annotations: ['dangerous'] }] } },
    'policy.scopes.rules[0].annotations must be a non-empty list of: read-only, destructive, open-world, idempotent, non-destructive; got "dangerous"',
  ],
  'a scope that is not a string': [
    { oauth: OAUTH, scopes: { rules: [{ tools: ['*'], see: [5] }] } },
    'policy.scopes.rules[0].see must be a list of at most 1000 strings; item 0 is 5',
  ],
  'implies with a scope that is not a list': [
    { oauth: OAUTH, scopes: { ...RULES, implies: { admin: 'write' } } },
    'policy.scopes.implies.admin must be a list of scopes; got "write"',
  ],
  'an audit with two stores': [
    { oauth: OAUTH, scopes: RULES, audit: { sqlite: 'a.db', postgres: 'postgres://x/y' } },
    'policy.audit needs exactly one of "sqlite" (a file path) or "postgres" (a postgres:// URL)',
  ],
  'approvals without admin': [
    { apiKeys: { keys: [KEY] }, scopes: RULES, approvals: { approvalUrl: 'https://a/approvals' } },
    'policy.approvals.admin is required: where toolwire serves the approval page and API, e.g. { "port": 8788 }',
  ],
  'an approval rule without require': [
    {
      apiKeys: { keys: [KEY] },
      scopes: RULES,
      approvals: { approvalUrl: 'https://a/approvals', admin: { port: 1 }, rules: [{ tools: ['x'] }] },
    },
    'policy.approvals.rules[0].require is required: true or false',
  ],
  'approvals with anonymous callers only': [
    { anonymous: true, scopes: RULES, approvals: { approvalUrl: 'https://a/approvals', admin: { port: 1 } } },
    'policy.approvals needs oauth or apiKeys: approvers are identified by their own credential (with the approvals:decide scope)',
  ],
  'sanitise true': [
    { oauth: OAUTH, scopes: RULES, sanitise: true },
    'policy.sanitise must be false or an object with the optional keys text, maxResultBytes, maxBinaryBytes, redact, maskErrors, redactKeys; got true',
  ],
  'a result bound below 1 KiB': [
    { oauth: OAUTH, scopes: RULES, sanitise: { maxResultBytes: 10 } },
    'policy.sanitise.maxResultBytes must be a whole number of bytes from 1024 to 1073741824; got 10',
  ],
  'telemetry false': [
    { oauth: OAUTH, scopes: RULES, telemetry: false },
    'policy.telemetry must be true or an object with the optional keys recordArguments, recordResults, maxAttributeBytes, clientTraceContext; got false',
  ],
  'an unknown trace-context mode': [
    { oauth: OAUTH, scopes: RULES, telemetry: { clientTraceContext: 'follow' } },
    'policy.telemetry.clientTraceContext must be one of parent, link, ignore; got "follow"',
  ],
  'oauth without resource': [
    { oauth: { authorizationServers: ['https://a'] }, scopes: RULES },
    'policy.oauth.resource is required: the canonical URL clients use for the MCP endpoint, e.g. "https://mcp.example.com/mcp"',
  ],
  'oauth without authorization servers': [
    { oauth: { resource: 'https://m/mcp' }, scopes: RULES },
    'policy.oauth.authorizationServers is required: the issuer URLs of your authorization servers',
  ],
  'introspection with two secrets': [
    {
      oauth: {
        ...OAUTH,
        introspection: { endpoint: 'https://a/i', clientId: 'c', clientSecret: 's', clientSecretEnv: 'E' },
      },
      scopes: RULES,
    },
    'policy.oauth.introspection needs exactly one of clientSecret and clientSecretEnv (the name of an environment variable that holds it)',
  ],
  'API keys with neither file nor keys': [
    { apiKeys: {}, scopes: RULES },
    "policy.apiKeys.file or policy.apiKeys.keys is required: where the API keys' hashes are",
  ],
  'a key record without hash': [
    { apiKeys: { keys: [{ id: 'abcdefghijkl', subject: 's' }] }, scopes: RULES },
    'policy.apiKeys.keys[0].hash is required: the hash `toolwire keys create` wrote ("sha256:…")',
  ],
  'a limit without its window': [
    { anonymous: true, scopes: RULES, rateLimits: { perCall: { points: 3 } } },
    'policy.rateLimits.perCall needs both points (calls) and durationSeconds (the window)',
  ],
  'a limit of zero points': [
    { anonymous: true, scopes: RULES, rateLimits: { tools: { calc: { points: 0, durationSeconds: 1 } } } },
    'policy.rateLimits.tools.calc.points must be a whole number of calls from 1 to 1000000000; got 0',
  ],
  'an unknown rate class': [
    {
      anonymous: true,
      scopes: RULES,
      rateLimits: { classes: { everything: { points: 1, durationSeconds: 1 } } },
    },
    'policy.rateLimits.classes has an unknown key "everything"; allowed keys: read-only, destructive, open-world, idempotent, non-destructive',
  ],
};

describe('toolwire.json "policy": the reader and the schema agree', () => {
  for (const [name, policy] of Object.entries(GOOD)) {
    it(`accepts: ${name}`, () => {
      assert.equal(readerSays(policy), undefined);
      assert.equal(validate(policy), true, JSON.stringify(validate.errors));
    });
  }

  for (const [name, [policy, message]] of Object.entries(BAD)) {
    it(`refuses, naming the key: ${name}`, () => {
      assert.equal(readerSays(policy), message);
      assert.equal(validate(policy), false, `the schema accepts ${JSON.stringify(policy)}`);
    });
  }

  it('every object of the section refuses an unknown key, in the reader and in the schema', () => {
    const full = GOOD['anonymous callers with rate limits'] as Record<string, unknown>;
    const withOauth = {
      ...full,
      oauth: (GOOD['OAuth with everything'] as { oauth: object }).oauth,
      apiKeys: { keys: [KEY] },
      audit: { sqlite: './audit.db', retention: { maxAgeDays: 1 } },
      telemetry: { recordArguments: true },
      sanitise: { text: true },
      approvals: {
        approvalUrl: 'https://a/approvals',
        admin: { port: 1 },
        rules: [{ tools: ['x'], require: true }],
        webhook: { url: 'https://b/hook', secret: 'x'.repeat(32) },
      },
    };
    // Paths to every object in a full section; the reader must name each path when it meets "zzz" there.
    const paths: string[][] = [
      [],
      ['oauth'],
      ['oauth', 'introspection'],
      ['apiKeys'],
      ['apiKeys', 'keys', '0'],
      ['scopes'],
      ['scopes', 'rules', '0'],
      ['rateLimits'],
      ['rateLimits', 'perCall'],
      ['rateLimits', 'tools', 'calculate'],
      ['rateLimits', 'classes'],
      ['audit'],
      ['audit', 'retention'],
      ['telemetry'],
      ['sanitise'],
      ['approvals'],
      ['approvals', 'admin'],
      ['approvals', 'rules', '0'],
      ['approvals', 'webhook'],
    ];
    for (const path of paths) {
      const policy = structuredClone(withOauth) as Record<string, unknown>;
      let target: Record<string, unknown> = policy;
      for (const key of path) target = target[key] as Record<string, unknown>;
      target.zzz = 1;
      const said = readerSays(policy);
      assert.ok(said?.includes('unknown key "zzz"'), `${path.join('.')}: ${said}`);
      assert.equal(validate(policy), false, `${path.join('.')}: the schema accepts an unknown key`);
    }
  });

  it('resolves a keys file against the config file’s folder', () => {
    const options = readPolicyConfig({ apiKeys: { file: 'keys.json' }, scopes: RULES }, FILE);
    assert.equal(options?.apiKeys?.file, '/srv/toolwire/keys.json');
  });

  it('reads an introspection secret from the environment variable it names, and says when it is unset', () => {
    process.env.TOOLWIRE_TEST_SECRET = 'from-env';
    const options = readPolicyConfig(
      {
        oauth: {
          ...OAUTH,
          introspection: { endpoint: 'https://a/i', clientId: 'c', clientSecretEnv: 'TOOLWIRE_TEST_SECRET' },
        },
        scopes: RULES,
      },
      FILE,
    );
    assert.equal(options?.oauth?.introspection?.clientSecret, 'from-env');
    delete process.env.TOOLWIRE_TEST_SECRET;
    assert.equal(
      readerSays({
        oauth: {
          ...OAUTH,
          introspection: { endpoint: 'https://a/i', clientId: 'c', clientSecretEnv: 'TOOLWIRE_TEST_SECRET' },
        },
        scopes: RULES,
      }),
      'policy.oauth.introspection.clientSecretEnv names the environment variable TOOLWIRE_TEST_SECRET, which is not set',
    );
  });
});
