// The JSON Schema of toolwire.json's "policy" section, for editors: the reader in policy-config.ts decides, and
// test/policy-config.test.ts holds this schema to the reader's answers (lists of objects are beyond what the
// recording readers describe, as mcpServers is).

import { AUDIT_CONFIG_SCHEMA } from '../policy/audit/config.js';
import type { JsonSchema } from './config-reader.js';
import { ANNOTATION_CLASSES, RATE_CLASSES } from './policy-config.js';

const strings = (description: string, minItems = 0): JsonSchema => ({
  type: 'array',
  items: { type: 'string', minLength: 1 },
  maxItems: 1_000,
  ...(minItems > 0 && { minItems }),
  description,
});
const text = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });
const closed = (
  properties: Record<string, JsonSchema>,
  description: string,
  required: string[] = [],
): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  properties,
  ...(required.length > 0 && { required }),
  description,
});

const LIMIT: JsonSchema = closed(
  {
    points: { type: 'integer', minimum: 1, maximum: 1_000_000_000, description: 'Calls allowed per window.' },
    durationSeconds: {
      type: 'integer',
      minimum: 1,
      maximum: 31 * 24 * 3600,
      description: 'The window, in seconds.',
    },
  },
  'A limit: `points` calls per `durationSeconds`.',
  ['points', 'durationSeconds'],
);

const RULE: JsonSchema = {
  ...closed(
    {
      tools: strings('Tool names or globs (`*`, `?`), matched on the exact registered name.'),
      annotations: {
        type: 'array',
        minItems: 1,
        items: { enum: [...ANNOTATION_CLASSES] },
        description: 'Annotation classes; a tool without annotations is destructive and open-world.',
      },
      prompts: strings('Prompt names or globs.'),
      resources: strings('Resource URIs, URI templates or globs.'),
      see: strings('Scopes that make what the rule names visible (all required; empty: every caller).'),
      call: strings('Scopes needed to call it (all required). Default: the same as `see`.'),
    },
    'What a rule names, and the scopes to see and to call it.',
  ),
  anyOf: ['tools', 'annotations', 'prompts', 'resources'].map((key) => ({ required: [key] })),
};

const KEY_RECORD: JsonSchema = closed(
  {
    id: text("The key's id (the part after twk_)."),
    subject: text('Who the key acts as.'),
    scopes: strings('What the key grants.'),
    hash: text('The hash `toolwire keys create` wrote ("sha256:…"); the key itself is never stored.'),
    created: text('When the key was made (ISO 8601).'),
    label: { type: 'string', description: 'A note for people.' },
    expires: text('When the key stops working (ISO 8601).'),
  },
  'One API key, as `toolwire keys create --config` writes it.',
  ['id', 'subject', 'hash'],
);

export const POLICY_SCHEMA: JsonSchema = {
  // Approvers are identified by a credential of their own.
  dependencies: { approvals: { anyOf: [{ required: ['oauth'] }, { required: ['apiKeys'] }] } },
  ...closed(
    {
      oauth: closed(
        {
          resource: text('The canonical URL clients use for the MCP endpoint (the RFC 8707 audience).'),
          authorizationServers: strings('Issuer URLs of the authorization servers (RFC 9728 metadata).', 1),
          issuer: strings('Accepted `iss` values. Default: authorizationServers.'),
          audience: strings('Accepted `aud` values. Default: resource.'),
          jwksUri: text("The key set's URL. Default: discovered from the issuer's metadata."),
          algorithms: strings(
            'Accepted JWT algorithms (asymmetric only). Default: RS256, PS256, ES256, EdDSA and kin.',
          ),
          clockToleranceSeconds: {
            type: 'integer',
            minimum: 0,
            maximum: 600,
            description: 'Skew allowed on exp and nbf. Default 60.',
          },
          scopesSupported: strings('Scopes listed in the metadata (keep it minimal).'),
          requiredScopes: strings('The scope hint of a plain 401 challenge.'),
          resourceName: text('A name for people, in the metadata.'),
          introspection: {
            ...closed(
              {
                endpoint: text('The RFC 7662 introspection endpoint, for opaque tokens.'),
                clientId: text('The client id this server introspects with.'),
                clientSecret: text('Its secret (prefer clientSecretEnv).'),
                clientSecretEnv: text('The environment variable that holds its secret.'),
              },
              'Introspection of opaque tokens.',
              ['endpoint', 'clientId'],
            ),
            oneOf: [{ required: ['clientSecret'] }, { required: ['clientSecretEnv'] }],
          },
          allowInsecureUrls: {
            type: 'boolean',
            description: 'Allow http:// issuer, key set and introspection URLs.',
          },
        },
        'OAuth 2.1 resource server: JWT access tokens checked against the key set, opaque ones introspected.',
        ['resource', 'authorizationServers'],
      ),
      apiKeys: {
        ...closed(
          {
            file: text('A keys file (`toolwire keys create --file`), relative to this file.'),
            keys: { type: 'array', maxItems: 100_000, items: KEY_RECORD, description: 'Keys, by hash.' },
            header: {
              type: 'boolean',
              description: 'Accept X-API-Key besides Authorization: Bearer. Default true.',
            },
          },
          'API keys, for deployments without an authorization server.',
        ),
        anyOf: [{ required: ['file'] }, { required: ['keys'] }],
      },
      anonymous: {
        type: 'boolean',
        description:
          'Requests without credentials go on as the anonymous caller instead of getting 401. Default false.',
      },
      localScopes: strings('The scopes of the process that starts a stdio server. Default none.'),
      scopes: closed(
        {
          trustAnnotations: {
            type: 'boolean',
            description: "Take tools' own annotations for their class. Default true.",
          },
          implies: {
            type: 'object',
            propertyNames: { minLength: 1 },
            additionalProperties: strings('The narrower scopes it grants.'),
            description: 'A broad scope → the narrower scopes it grants (transitively).',
          },
          rules: {
            type: 'array',
            minItems: 1,
            maxItems: 1_000,
            items: RULE,
            description: 'Deny by default: what no rule names is hidden.',
          },
        },
        'Per-tool scopes.',
        ['rules'],
      ),
      rateLimits: closed(
        {
          perCall: { ...LIMIT, description: 'Per caller and tool, for every tool.' },
          tools: {
            type: 'object',
            additionalProperties: LIMIT,
            description: 'Per caller, for the named tools.',
          },
          classes: closed(
            Object.fromEntries(RATE_CLASSES.map((name) => [name, LIMIT])),
            'Per caller, for tools of an annotation class.',
          ),
          total: { ...LIMIT, description: 'Per caller, over all calls.' },
          concurrency: {
            type: 'integer',
            minimum: 1,
            maximum: 100_000,
            description: 'Calls in flight per caller.',
          },
          countAllRequests: {
            type: 'boolean',
            description: 'Count every request toward total, not only calls.',
          },
        },
        'Rate limits, checked after scopes.',
      ),
      audit: AUDIT_CONFIG_SCHEMA as JsonSchema,
      sanitise: {
        description:
          'Clean outputs, on by default with a policy: escapes and invisible characters removed, sizes bounded, internals masked in errors. false turns it off (logged).',
        oneOf: [
          { const: false },
          closed(
            {
              text: {
                type: 'boolean',
                description: 'Remove escape sequences and invisible characters. Default true.',
              },
              maxResultBytes: {
                type: 'integer',
                minimum: 1024,
                maximum: 1024 * 1024 * 1024,
                description: 'Text bytes one result may carry; past it, cut with a note. Default 1 MiB.',
              },
              maxBinaryBytes: {
                type: 'integer',
                minimum: 1024,
                maximum: 1024 * 1024 * 1024,
                description:
                  'Image, audio and blob bytes one result may carry; past it, a note. Default 10 MiB.',
              },
              redact: { type: 'boolean', description: 'Replace secrets in results. Default false.' },
              maskErrors: {
                type: 'boolean',
                description: 'Mask stack traces, paths and internal hosts in errors. Default true.',
              },
              redactKeys: strings('More JSON keys whose values are secrets (with redact).'),
            },
            'How results are cleaned.',
          ),
        ],
      },
      approvals: {
        ...closed(
          {
            approvalUrl: text("The URL approvers open: the admin listener's origin plus its basePath."),
            admin: closed(
              {
                host: text("The approval page's address. Default 127.0.0.1."),
                port: { type: 'integer', minimum: 0, maximum: 65535, description: 'Its port.' },
                basePath: {
                  type: 'string',
                  pattern: '^/[A-Za-z0-9._~\\-/]*$',
                  description: 'Its path. Default /approvals.',
                },
              },
              'Where `toolwire serve` serves the approval page and API (a listener of its own).',
              ['port'],
            ),
            rules: {
              type: 'array',
              maxItems: 1_000,
              items: closed(
                {
                  tools: strings('Tool names or globs.'),
                  annotations: {
                    type: 'array',
                    minItems: 1,
                    items: { enum: [...ANNOTATION_CLASSES] },
                    description: 'Annotation classes.',
                  },
                  argument: text('An argument: a top-level name or a JSON pointer.'),
                  equals: {
                    anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }, { type: 'null' }],
                    description: 'The argument equals this.',
                  },
                  matches: text('The argument matches this regular expression (a safe subset).'),
                  prefix: { type: 'string', description: 'The argument starts with this.' },
                  require: { type: 'boolean', description: 'Whether the calls it selects need a human.' },
                },
                'The first rule that selects a call decides; with none, destructive and unannotated tools need a human.',
                ['require'],
              ),
              description: 'Which calls need approval.',
            },
            trustAnnotations: { type: 'boolean', description: "Believe tools' annotations. Default true." },
            ttlMs: {
              type: 'integer',
              minimum: 1_000,
              maximum: 7 * 24 * 3600 * 1000,
              description: 'How long an approval waits for a decision and its retry. Default 10 minutes.',
            },
            policyVersion: text(
              'Bound into every approval: changing it voids approvals given under old rules.',
            ),
            allowSelfApproval: {
              type: 'boolean',
              description: "Let the caller's own accept, or the caller as approver, count. Default false.",
            },
            decideScope: text('The scope an approver must hold. Default approvals:decide.'),
            maxPendingPerCaller: { type: 'integer', minimum: 1, maximum: 10_000, description: 'Default 16.' },
            maxApprovals: { type: 'integer', minimum: 1, maximum: 1_000_000, description: 'Default 10 000.' },
            webhook: {
              ...closed(
                {
                  url: text('Where new pending approvals are POSTed, signed.'),
                  secret: text('The shared HMAC key (prefer secretEnv).'),
                  secretEnv: text('The environment variable that holds it.'),
                  timeoutMs: { type: 'integer', minimum: 100, maximum: 60_000, description: 'Default 5000.' },
                  toleranceSeconds: {
                    type: 'integer',
                    minimum: 1,
                    maximum: 3600,
                    description: 'Default 300.',
                  },
                },
                'Chat-ops: signed announcements out, signed decisions in.',
                ['url'],
              ),
              oneOf: [{ required: ['secret'] }, { required: ['secretEnv'] }],
            },
          },
          'A human in the loop for destructive calls.',
          ['approvalUrl', 'admin'],
        ),
      },
      telemetry: {
        description:
          'OpenTelemetry spans and durations per request (needs @opentelemetry/api; the global providers): true, or what to record.',
        oneOf: [
          { const: true },
          closed(
            {
              recordArguments: {
                type: 'boolean',
                description: 'Record tool arguments on spans. Default false.',
              },
              recordResults: { type: 'boolean', description: 'Record tool results on spans. Default false.' },
              maxAttributeBytes: {
                type: 'integer',
                minimum: 64,
                maximum: 1024 * 1024,
                description: 'The largest recorded argument or result. Default 4096.',
              },
              clientTraceContext: {
                enum: ['parent', 'link', 'ignore'],
                description:
                  "What a client's traceparent in _meta becomes: the parent (default), a link, or nothing.",
              },
            },
            'What to record.',
          ),
        ],
      },
    },
    'Who may call what, and how often. With a policy, every tool is hidden unless a scope rule grants it.',
    ['scopes'],
  ),
  anyOf: [
    { required: ['oauth'] },
    { required: ['apiKeys'] },
    { required: ['anonymous'], properties: { anonymous: { const: true } } },
  ],
};
