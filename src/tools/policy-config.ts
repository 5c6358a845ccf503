// toolwire.json's "policy" section: who may call (OAuth, API keys), what (scope rules) and how often (rate limits)
// here, the oversight parts in policy-config-oversight.ts;
// checked key by key with errors that name the key, and turned into the policy layer's options. Its JSON Schema is
// policy-schema.ts; test/policy-config.test.ts holds the two to the same answers.

import { isAbsolute, resolve } from 'node:path';
import { readAuditConfig } from '../policy/audit/config.js';
import type { Limit, PolicyOptions, RateLimitOptions, ScopeRule } from '../policy/index.js';
import { ConfigReader } from './config-reader.js';
import { ConfigError } from './pack.js';
import {
  readApprovals,
  readSanitise,
  readTelemetry,
  type ApprovalsAdminListen,
  type ServePolicy,
} from './policy-config-oversight.js';
import {
  ANNOTATION_CLASSES,
  MAX_KEYS,
  MAX_RULES,
  RATE_CLASSES,
  list,
  objects,
  required,
  show,
} from './policy-config-read.js';

export { ANNOTATION_CLASSES, RATE_CLASSES };
export type { ApprovalsAdminListen, ServePolicy };

export const POLICY_KEYS = [
  'oauth',
  'apiKeys',
  'anonymous',
  'localScopes',
  'scopes',
  'rateLimits',
  'audit',
  'telemetry',
  'sanitise',
  'approvals',
] as const;
const OAUTH_KEYS = [
  'resource',
  'authorizationServers',
  'issuer',
  'audience',
  'jwksUri',
  'algorithms',
  'clockToleranceSeconds',
  'scopesSupported',
  'requiredScopes',
  'resourceName',
  'introspection',
  'allowInsecureUrls',
];
const INTROSPECTION_KEYS = ['endpoint', 'clientId', 'clientSecret', 'clientSecretEnv'];
const API_KEYS_KEYS = ['file', 'keys', 'header'];
const KEY_RECORD_KEYS = ['id', 'subject', 'scopes', 'hash', 'created', 'label', 'expires'];
const SCOPES_KEYS = ['trustAnnotations', 'implies', 'rules'];
const RULE_KEYS = ['tools', 'annotations', 'prompts', 'resources', 'see', 'call'];
const RATE_KEYS = ['perCall', 'tools', 'classes', 'total', 'concurrency', 'countAllRequests'];
const LIMIT_KEYS = ['points', 'durationSeconds'];
function readLimit(raw: unknown, path: string): Limit {
  const read = new ConfigReader(raw, path, LIMIT_KEYS);
  if (!read.given('points') || !read.given('durationSeconds')) {
    throw new ConfigError(`${path} needs both points (calls) and durationSeconds (the window)`);
  }
  return {
    points: read.integer('points', 1, 1, 1_000_000_000, 'calls'),
    durationSeconds: read.integer('durationSeconds', 1, 1, 31 * 24 * 3600, 'seconds'),
  };
}

function readOauth(read: ConfigReader): NonNullable<PolicyOptions['oauth']> {
  const url = 'an http(s) URL';
  const isUrl = (value: string): boolean => URL.canParse(value);
  const oauth: NonNullable<PolicyOptions['oauth']> = {
    resource: required(
      read,
      'resource',
      'the canonical URL clients use for the MCP endpoint, e.g. "https://mcp.example.com/mcp"',
    ),
    authorizationServers: list(read, 'authorizationServers'),
  };
  if (oauth.authorizationServers.length === 0) {
    throw new ConfigError(
      `${read.name('authorizationServers')} is required: the issuer URLs of your authorization servers`,
    );
  }
  if (read.given('issuer')) oauth.issuer = list(read, 'issuer');
  if (read.given('audience')) oauth.audience = list(read, 'audience');
  if (read.given('jwksUri')) oauth.jwks = { uri: read.string('jwksUri', '', url, isUrl) };
  if (read.given('algorithms')) oauth.algorithms = list(read, 'algorithms');
  if (read.given('clockToleranceSeconds')) {
    oauth.clockToleranceSeconds = read.integer('clockToleranceSeconds', 60, 0, 600, 'seconds');
  }
  if (read.given('scopesSupported')) oauth.scopesSupported = list(read, 'scopesSupported');
  if (read.given('requiredScopes')) oauth.requiredScopes = list(read, 'requiredScopes');
  if (read.given('resourceName')) {
    oauth.resourceName = read.string('resourceName', '', 'a name people read', (value) => value !== '');
  }
  if (read.given('allowInsecureUrls')) oauth.allowInsecureUrls = read.boolean('allowInsecureUrls', false);
  if (read.given('introspection')) {
    const inner = read.section('introspection', INTROSPECTION_KEYS);
    const secretKey = inner.given('clientSecret') ? 'clientSecret' : 'clientSecretEnv';
    if (inner.given('clientSecret') === inner.given('clientSecretEnv')) {
      throw new ConfigError(
        `${read.name('introspection')} needs exactly one of clientSecret and clientSecretEnv (the name of an environment variable that holds it)`,
      );
    }
    let clientSecret = inner.string(secretKey, '', 'a non-empty string', (value) => value !== '');
    if (secretKey === 'clientSecretEnv') {
      const value = process.env[clientSecret];
      if (value === undefined || value === '') {
        throw new ConfigError(
          `${inner.name('clientSecretEnv')} names the environment variable ${clientSecret}, which is not set`,
        );
      }
      clientSecret = value;
    }
    oauth.introspection = {
      endpoint: required(inner, 'endpoint', `${url} of the RFC 7662 introspection endpoint`),
      clientId: required(inner, 'clientId', 'the client id this server introspects with'),
      clientSecret,
    };
  }
  return oauth;
}

function readApiKeys(read: ConfigReader, base: string): NonNullable<PolicyOptions['apiKeys']> {
  const options: NonNullable<PolicyOptions['apiKeys']> = {};
  if (read.given('file')) {
    const file = read.string(
      'file',
      '',
      'the path of a keys file (from `toolwire keys create --file`)',
      (v) => v !== '',
    );
    options.file = isAbsolute(file) ? file : resolve(base, file);
  }
  const keys = objects(read.raw('keys'), read.name('keys'), KEY_RECORD_KEYS, MAX_KEYS, (item) => ({
    id: required(item, 'id', "the key's id (the part after twk_)"),
    subject: required(item, 'subject', 'who the key acts as'),
    scopes: list(item, 'scopes'),
    hash: required(item, 'hash', 'the hash `toolwire keys create` wrote ("sha256:…")'),
    ...(item.given('created') && {
      created: item.string('created', '', 'an ISO 8601 time', (v) => v !== ''),
    }),
    ...(item.given('label') && { label: item.string('label', '', 'a label', () => true) }),
    ...(item.given('expires') && {
      expires: item.string('expires', '', 'an ISO 8601 time', (v) => v !== ''),
    }),
  }));
  if (read.given('keys')) options.keys = keys;
  if (options.file === undefined && options.keys === undefined) {
    throw new ConfigError(
      `${read.name('file')} or ${read.name('keys')} is required: where the API keys' hashes are`,
    );
  }
  if (read.given('header') && !read.boolean('header', true)) options.headerName = false;
  return options;
}

function readRule(item: ConfigReader, path: string): ScopeRule {
  const rule: { -readonly [K in keyof ScopeRule]: ScopeRule[K] } = {};
  if (item.given('tools')) rule.tools = list(item, 'tools');
  if (item.given('annotations')) rule.annotations = item.choiceList('annotations', [], ANNOTATION_CLASSES);
  if (item.given('prompts')) rule.prompts = list(item, 'prompts');
  if (item.given('resources')) rule.resources = list(item, 'resources');
  if (item.given('see')) rule.see = list(item, 'see');
  if (item.given('call')) rule.call = list(item, 'call');
  if (
    rule.tools === undefined &&
    rule.annotations === undefined &&
    rule.prompts === undefined &&
    rule.resources === undefined
  ) {
    throw new ConfigError(`${path} names nothing: give tools, annotations, prompts or resources`);
  }
  return rule;
}

/** `implies`: a broad scope → the narrower scopes it grants (the MCP authorization spec: broad satisfies narrow). */
function readImplies(read: ConfigReader): Record<string, string[]> {
  const raw = read.raw('implies');
  const what = `${read.name('implies')} must map each scope to the list of narrower scopes it grants`;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(`${what}; got ${show(raw)}`);
  const out: Record<string, string[]> = {};
  for (const [scope, granted] of Object.entries(raw)) {
    if (scope === '') throw new ConfigError(`${read.name('implies')} has an empty scope`);
    if (!Array.isArray(granted) || !granted.every((item) => typeof item === 'string' && item !== '')) {
      throw new ConfigError(
        `${read.name('implies')}.${scope} must be a list of scopes; got ${show(granted)}`,
      );
    }
    out[scope] = granted as string[]; // every item checked to be a non-empty string above
  }
  return out;
}

function readRateLimits(read: ConfigReader): RateLimitOptions {
  const options: { -readonly [K in keyof RateLimitOptions]: RateLimitOptions[K] } = {};
  if (read.given('perCall')) options.perCall = readLimit(read.raw('perCall'), read.name('perCall'));
  if (read.given('total')) options.total = readLimit(read.raw('total'), read.name('total'));
  if (read.given('tools')) {
    const raw = read.raw('tools');
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      throw new ConfigError(
        `${read.name('tools')} must map tool names to { points, durationSeconds }; got ${show(raw)}`,
      );
    }
    options.tools = Object.fromEntries(
      Object.entries(raw).map(([name, limit]) => [name, readLimit(limit, `${read.name('tools')}.${name}`)]),
    );
  }
  if (read.given('classes')) {
    const classes = read.section('classes', RATE_CLASSES);
    const out: Partial<Record<(typeof RATE_CLASSES)[number], Limit>> = {};
    for (const name of RATE_CLASSES) {
      if (classes.given(name)) out[name] = readLimit(classes.raw(name), classes.name(name));
    }
    options.classes = out;
  }
  if (read.given('concurrency'))
    options.concurrency = read.integer('concurrency', 1, 1, 100_000, 'calls in flight');
  if (read.given('countAllRequests')) options.countAllRequests = read.boolean('countAllRequests', false);
  return options;
}

/**
 * The "policy" section (undefined when the file has none), with paths resolved against the config file's folder.
 * What a piece checks beyond shape (URLs, scope strings, globs) it checks when the policy is built.
 */
export function readPolicyConfig(raw: unknown, file: string): ServePolicy | undefined {
  if (raw === undefined) return undefined;
  const read = new ConfigReader(raw, 'policy', POLICY_KEYS);
  const base = resolve(file, '..');
  if (!read.given('oauth') && !read.given('apiKeys') && !read.boolean('anonymous', false)) {
    throw new ConfigError(
      'policy needs a way to know callers: oauth, apiKeys, or both (or "anonymous": true to apply scopes and rate limits to unauthenticated callers)',
    );
  }
  if (!read.given('scopes')) {
    throw new ConfigError(
      'policy.scopes is required: with a policy every tool is hidden unless a rule grants it, e.g. "scopes": { "rules": [{ "tools": ["*"], "see": [] }] }',
    );
  }
  const scopesReader = read.section('scopes', SCOPES_KEYS);
  const rules = objects(
    scopesReader.raw('rules'),
    scopesReader.name('rules'),
    RULE_KEYS,
    MAX_RULES,
    readRule,
  );
  if (rules.length === 0) {
    throw new ConfigError(
      `${scopesReader.name('rules')} must have at least one rule: with none, every tool is hidden`,
    );
  }
  const options: ServePolicy = {
    scopes: {
      rules,
      ...(scopesReader.given('trustAnnotations') && {
        trustAnnotations: scopesReader.boolean('trustAnnotations', true),
      }),
      ...(scopesReader.given('implies') && { implies: readImplies(scopesReader) }),
    },
  };
  if (read.given('oauth')) options.oauth = readOauth(read.section('oauth', OAUTH_KEYS));
  if (read.given('apiKeys')) options.apiKeys = readApiKeys(read.section('apiKeys', API_KEYS_KEYS), base);
  if (read.given('anonymous')) options.anonymous = read.boolean('anonymous', false);
  if (read.given('localScopes')) options.localScopes = list(read, 'localScopes');
  if (read.given('rateLimits')) options.rateLimits = readRateLimits(read.section('rateLimits', RATE_KEYS));
  if (read.given('telemetry')) options.telemetry = readTelemetry(read);
  if (read.given('sanitise')) options.sanitise = readSanitise(read);
  if (read.given('approvals')) {
    if (!read.given('oauth') && !read.given('apiKeys')) {
      throw new ConfigError(
        'policy.approvals needs oauth or apiKeys: approvers are identified by their own credential (with the approvals:decide scope)',
      );
    }
    readApprovals(read, options);
  }
  if (read.given('audit')) {
    try {
      options.audit = readAuditConfig(read.raw('audit'), base, 'policy.audit');
    } catch (error) {
      // The audit's reader names the key; as a config mistake it stops `serve` like any other.
      throw new ConfigError(error instanceof Error ? error.message : String(error));
    }
  }
  return options;
}
