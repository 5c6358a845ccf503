// toolwire.json's "policy" section, its oversight parts: approvals (and where `toolwire serve` serves their page),
// clean outputs and traces, checked key by key with errors that name the key.

import { createRedactor } from '../policy/redact/index.js';
import type { ApprovalRule, PolicyOptions, SanitiseOptions, TelemetryOptions } from '../policy/index.js';
import type { ConfigReader } from './config-reader.js';
import { ConfigError } from './pack.js';
import { MAX_RULES, list, objects, required, show } from './policy-config-read.js';

const APPROVALS_KEYS = [
  'approvalUrl',
  'admin',
  'rules',
  'trustAnnotations',
  'ttlMs',
  'policyVersion',
  'allowSelfApproval',
  'decideScope',
  'maxPendingPerCaller',
  'maxApprovals',
  'webhook',
];
const ADMIN_KEYS = ['host', 'port', 'basePath'];
const WEBHOOK_KEYS = ['url', 'secret', 'secretEnv', 'timeoutMs', 'toleranceSeconds'];
const APPROVAL_RULE_KEYS = ['tools', 'annotations', 'argument', 'equals', 'matches', 'prefix', 'require'];
const SANITISE_KEYS = ['text', 'maxResultBytes', 'maxBinaryBytes', 'redact', 'maskErrors', 'redactKeys'];
const TELEMETRY_KEYS = ['recordArguments', 'recordResults', 'maxAttributeBytes', 'clientTraceContext'];
const TRACE_CONTEXTS = ['parent', 'link', 'ignore'] as const;

/** Where `toolwire serve` serves the approval page and API (policy.approvals.admin): a listener of its own. */
export interface ApprovalsAdminListen {
  host: string;
  port: number;
  basePath: string;
}

/** What `toolwire serve` needs of the policy section: the library's options, and the approvals' own listener. */
export interface ServePolicy extends PolicyOptions {
  approvalsAdmin?: ApprovalsAdminListen;
}

/** A secret given inline or, better, by the name of an environment variable that holds it. */
function secretOf(read: ConfigReader, inline: string, env: string, what: string): string {
  if (read.given(inline) === read.given(env)) {
    throw new ConfigError(
      `${read.name(inline)} or ${read.name(env)} (the name of an environment variable) is required, not both: ${what}`,
    );
  }
  if (read.given(inline)) return read.string(inline, '', 'a non-empty string', (value) => value !== '');
  const name = read.string(env, '', 'the name of an environment variable', (value) => value !== '');
  const value = process.env[name];
  if (value === undefined || value === '') {
    throw new ConfigError(`${read.name(env)} names the environment variable ${name}, which is not set`);
  }
  return value;
}

/** `approvals`: a human in the loop; the rules' own checks run when the policy is built and name the rule. */
export function readApprovals(read: ConfigReader, policy: ServePolicy): void {
  const inner = read.section('approvals', APPROVALS_KEYS);
  const approvalUrl = required(
    inner,
    'approvalUrl',
    'the URL approvers open, the admin listener\'s origin plus its basePath, e.g. "https://mcp.example.com:8788/approvals"',
  );
  if (!inner.given('admin')) {
    throw new ConfigError(
      `${inner.name('admin')} is required: where toolwire serves the approval page and API, e.g. { "port": 8788 }`,
    );
  }
  const admin = inner.section('admin', ADMIN_KEYS);
  if (!admin.given('port'))
    throw new ConfigError(`${admin.name('port')} is required: the approval page's port`);
  policy.approvalsAdmin = {
    host: admin.string('host', '127.0.0.1', 'a host name or IP address', (value) => value !== ''),
    port: admin.integer('port', 8788, 0, 65535, 'port'),
    basePath: admin.string('basePath', '/approvals', 'a path like "/approvals"', (value) =>
      /^\/[A-Za-z0-9._~\-/]*$/.test(value),
    ),
  };
  const options: NonNullable<PolicyOptions['approvals']> = { approvalUrl };
  if (inner.given('rules')) {
    options.rules = objects(
      inner.raw('rules'),
      inner.name('rules'),
      APPROVAL_RULE_KEYS,
      MAX_RULES,
      (item, at, entry) => {
        if (!item.given('require')) throw new ConfigError(`${at}.require is required: true or false`);
        item.boolean('require', true);
        // The piece checks the rest (names, classes, the condition) and names the rule when it refuses one.
        return entry as ApprovalRule; // an object with only rule keys, checked by ConfigReader above
      },
    );
  }
  if (inner.given('trustAnnotations')) options.trustAnnotations = inner.boolean('trustAnnotations', true);
  if (inner.given('ttlMs'))
    options.ttlMs = inner.integer('ttlMs', 600_000, 1_000, 7 * 24 * 3600 * 1000, 'milliseconds');
  if (inner.given('policyVersion')) {
    options.policyVersion = inner.string('policyVersion', '1', 'a non-empty string', (value) => value !== '');
  }
  if (inner.given('allowSelfApproval')) options.allowSelfApproval = inner.boolean('allowSelfApproval', false);
  if (inner.given('decideScope')) {
    options.decideScope = inner.string('decideScope', 'approvals:decide', 'a scope', (value) => value !== '');
  }
  if (inner.given('maxPendingPerCaller')) {
    options.maxPendingPerCaller = inner.integer('maxPendingPerCaller', 16, 1, 10_000, 'approvals');
  }
  if (inner.given('maxApprovals'))
    options.maxApprovals = inner.integer('maxApprovals', 10_000, 1, 1_000_000, 'approvals');
  if (inner.given('webhook')) {
    const hook = inner.section('webhook', WEBHOOK_KEYS);
    options.webhook = {
      url: required(hook, 'url', 'where new pending approvals are POSTed'),
      secret: secretOf(hook, 'secret', 'secretEnv', 'the shared HMAC key (at least 32 bytes)'),
      ...(hook.given('timeoutMs') && {
        timeoutMs: hook.integer('timeoutMs', 5_000, 100, 60_000, 'milliseconds'),
      }),
      ...(hook.given('toleranceSeconds') && {
        toleranceSeconds: hook.integer('toleranceSeconds', 300, 1, 3600, 'seconds'),
      }),
    };
  }
  policy.approvals = options;
}

/** `sanitise`: false (off, which the policy logs), or how results are cleaned. */
export function readSanitise(read: ConfigReader): false | SanitiseOptions {
  const raw = read.raw('sanitise');
  if (raw === false) return false;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      `${read.name('sanitise')} must be false or an object with the optional keys ${SANITISE_KEYS.join(', ')}; got ${show(raw)}`,
    );
  }
  const inner = read.section('sanitise', SANITISE_KEYS);
  const redactKeys = inner.given('redactKeys') ? list(inner, 'redactKeys') : undefined;
  const redact = inner.given('redact') ? inner.boolean('redact', false) : redactKeys !== undefined;
  if (redactKeys !== undefined && !redact) {
    throw new ConfigError(`${inner.name('redactKeys')} needs ${inner.name('redact')}: true`);
  }
  return {
    ...(inner.given('text') && { text: inner.boolean('text', true) }),
    ...(inner.given('maxResultBytes') && {
      maxResultBytes: inner.integer('maxResultBytes', 1024 * 1024, 1024, 1024 * 1024 * 1024, 'bytes'),
    }),
    ...(inner.given('maxBinaryBytes') && {
      maxBinaryBytes: inner.integer('maxBinaryBytes', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024, 'bytes'),
    }),
    ...(inner.given('maskErrors') && { maskErrors: inner.boolean('maskErrors', true) }),
    ...(redact && { redact: redactKeys === undefined ? true : createRedactor({ secretKeys: redactKeys }) }),
  };
}

/** `telemetry`: true (the defaults), or what to record and whose trace context to follow. */
export function readTelemetry(read: ConfigReader): true | TelemetryOptions {
  const raw = read.raw('telemetry');
  if (raw === true) return true;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      `${read.name('telemetry')} must be true or an object with the optional keys ${TELEMETRY_KEYS.join(', ')}; got ${show(raw)}`,
    );
  }
  const inner = read.section('telemetry', TELEMETRY_KEYS);
  const options: TelemetryOptions = {};
  if (inner.given('recordArguments')) options.recordArguments = inner.boolean('recordArguments', false);
  if (inner.given('recordResults')) options.recordResults = inner.boolean('recordResults', false);
  if (inner.given('maxAttributeBytes')) {
    options.maxAttributeBytes = inner.integer('maxAttributeBytes', 4096, 64, 1024 * 1024, 'bytes');
  }
  if (inner.given('clientTraceContext')) {
    options.clientTraceContext = inner.string(
      'clientTraceContext',
      'parent',
      'one of parent, link, ignore',
      (value) => (TRACE_CONTEXTS as readonly string[]).includes(value),
    ) as (typeof TRACE_CONTEXTS)[number]; // checked to be one of them just above
  }
  return options;
}
