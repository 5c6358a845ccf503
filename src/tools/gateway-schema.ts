// The JSON Schema of toolwire.json's "gateway" section and of the gateway keys of an "mcpServers" entry (read by
// `toolwire gateway`, in src/gateway/config.ts): kept beside the other config schemas so the whole file has one
// schema; test/gateway-config.test.ts holds the schema and the reader to the same answers.

import type { JsonSchema } from './config-reader.js';

/** Bounds the reader enforces too (src/gateway/config.ts imports them from here). */
export const GATEWAY_BOUNDS = {
  maxTimeoutMs: 2_147_483_647,
  maxTools: 100_000,
  maxPages: 10_000,
  maxDefinitionBytes: 16_777_216,
  maxDebounceMs: 60_000,
  maxOverrides: 10_000,
} as const;

const ms = (fallback: number, max: number, description: string): JsonSchema => ({
  type: 'integer',
  minimum: 1,
  maximum: max,
  default: fallback,
  description: `${description} A whole number of milliseconds from 1 to ${max}.`,
});

const text = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });

export const GATEWAY_SCHEMA: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  description: 'How `toolwire gateway` serves the servers of "mcpServers" behind one endpoint.',
  properties: {
    name: text('The name the gateway gives itself to its clients. Default "toolwire-gateway".'),
    pins: text(
      'The pin store (SQLite), relative to this file: each tool definition is pinned the first time it is seen. Default ".toolwire/pins.sqlite".',
    ),
    firstUse: {
      enum: ['trust', 'quarantine'],
      default: 'trust',
      description:
        'A tool seen for the first time: "trust" pins and serves it, "quarantine" holds it until `toolwire pins approve`.',
    },
    poisoning: {
      enum: ['report', 'strip', 'deny'],
      default: 'strip',
      description:
        'Tool definitions with poisoning (hidden instructions, HTML comments, invisible characters, parameters asking for secrets): "report" serves them with invisible characters removed, "strip" also cuts hidden instructions and comments from their prose and leaves out a tool whose denying finding survives that, "deny" leaves out every tool with a denying finding. Findings are always logged, and definitions refused outright (remote $ref, schema bombs, unsafe patterns, oversize) are never served.',
    },
    timeoutMs: ms(
      60_000,
      GATEWAY_BOUNDS.maxTimeoutMs,
      'Time limit of a call to an upstream, unless its entry sets one.',
    ),
    listTimeoutMs: ms(
      10_000,
      GATEWAY_BOUNDS.maxTimeoutMs,
      'Time limit of an upstream listing, unless its entry sets one: a slower upstream is left out (with a warning) until it answers.',
    ),
    debounceMs: {
      type: 'integer',
      minimum: 0,
      maximum: GATEWAY_BOUNDS.maxDebounceMs,
      default: 250,
      description: `How long list changes of upstreams are gathered before the gateway lists again. A whole number of milliseconds from 0 to ${GATEWAY_BOUNDS.maxDebounceMs}.`,
    },
    statusFile: text(
      'Where the gateway writes the health of each upstream for `toolwire gateway status`, relative to this file. Default ".toolwire/gateway-status.json".',
    ),
    limits: {
      type: 'object',
      additionalProperties: false,
      description: 'Bounds on what one upstream may list.',
      properties: {
        maxTools: { type: 'integer', minimum: 1, maximum: GATEWAY_BOUNDS.maxTools, default: 10_000 },
        maxPages: { type: 'integer', minimum: 1, maximum: GATEWAY_BOUNDS.maxPages, default: 100 },
        maxDefinitionBytes: {
          type: 'integer',
          minimum: 1024,
          maximum: GATEWAY_BOUNDS.maxDefinitionBytes,
          default: 131_072,
        },
      },
    },
  },
};

const override: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    rename: text('The name to expose instead of the upstream\'s (still prefixed "server___").'),
    description: { type: 'string', description: "A description to list instead of the upstream's." },
    hide: { type: 'boolean', description: 'Neither list nor serve this tool.' },
  },
};

/** The keys `toolwire gateway` reads in an "mcpServers" entry beyond those every client reads. */
export const GATEWAY_ENTRY_PROPERTIES: Record<string, JsonSchema> = {
  timeoutMs: ms(60_000, GATEWAY_BOUNDS.maxTimeoutMs, 'Gateway: time limit of a call to this server.'),
  listTimeoutMs: ms(10_000, GATEWAY_BOUNDS.maxTimeoutMs, 'Gateway: time limit of listing this server.'),
  credentials: {
    description:
      'Gateway: how the gateway authenticates to this server (the inbound token never travels upstream): a header whose value comes from an environment variable, or OAuth client credentials.',
    oneOf: [
      {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'name', 'env'],
        properties: {
          kind: { const: 'header' },
          name: text('The header, e.g. "Authorization".'),
          env: text('The environment variable that holds its value.'),
        },
      },
      {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'clientId', 'clientSecretEnv'],
        properties: {
          kind: { const: 'client-credentials' },
          clientId: text('The OAuth client id.'),
          clientSecretEnv: text('The environment variable that holds the client secret.'),
          scope: text('The scope to ask for.'),
          tokenEndpoint: text('The token endpoint (default: discovered from the server).'),
        },
      },
    ],
  },
  tools: {
    type: 'object',
    propertyNames: { minLength: 1 },
    maxProperties: GATEWAY_BOUNDS.maxOverrides,
    additionalProperties: override,
    description: 'Gateway: per-tool rename, description and hide, by the upstream tool name.',
  },
};
