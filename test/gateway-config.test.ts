// toolwire.json for `toolwire gateway`: the reader's exact errors (each names the bad key), its defaults and resolved
// paths, and the committed schema (schema/toolwire.schema.json) giving the same verdict as the reader on each case.

import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { readGatewayConfig } from '../src/gateway/config.js';

const FILE = '/srv/gw/toolwire.json';
const schema = JSON.parse(
  readFileSync(new URL('../schema/toolwire.schema.json', import.meta.url), 'utf8'),
) as object;
const validate = new Ajv({ strict: true, strictRequired: false, allErrors: true }).compile(schema);

const ONE = { mcpServers: { fs: { command: 'node', args: ['fs.js'] } } };

/** The reader's verdict: undefined when it accepts, else its message. */
function readerSays(config: unknown): string | undefined {
  try {
    readGatewayConfig(config, FILE);
    return undefined;
  } catch (error) {
    if (!(error instanceof Error) || error.name !== 'ConfigError') throw error;
    return error.message;
  }
}

describe('gateway config: the reader', () => {
  it('defaults, resolved paths and the upstreams in file order', () => {
    const config = readGatewayConfig(
      {
        mcpServers: {
          web: {
            url: 'https://example.com/mcp',
            headers: { 'X-Key': '${KEY}' },
            trusted: true,
            timeoutMs: 5000,
          },
          fs: {
            command: 'node',
            args: ['fs.js'],
            cwd: 'servers',
            tools: { read: { rename: 'cat', hide: false } },
          },
        },
      },
      FILE,
    );
    assert.equal(config.name, 'toolwire-gateway');
    assert.equal(config.pins, '/srv/gw/.toolwire/pins.sqlite');
    assert.equal(config.statusFile, '/srv/gw/.toolwire/gateway-status.json');
    assert.equal(config.poisoning, 'strip');
    assert.equal(config.firstUse, 'trust');
    assert.deepEqual(config.limits, { maxTools: 10_000, maxPages: 100, maxDefinitionBytes: 131_072 });
    assert.deepEqual(config.upstreams, [
      {
        name: 'web',
        url: 'https://example.com/mcp',
        headers: { 'X-Key': '${KEY}' },
        trusted: true,
        timeoutMs: 5000,
        listTimeoutMs: 10_000,
      },
      {
        name: 'fs',
        command: 'node',
        args: ['fs.js'],
        cwd: '/srv/gw/servers',
        trusted: false,
        timeoutMs: 60_000,
        listTimeoutMs: 10_000,
      },
    ]);
    assert.deepEqual([...(config.overrides.get('fs') ?? [])], [['read', { rename: 'cat', hide: false }]]);
    assert.equal(config.policy, undefined);
  });

  const refusals: Array<[string, unknown, string]> = [
    [
      'no mcpServers',
      {},
      'mcpServers must be an object of named servers (the gateway serves them); got undefined',
    ],
    [
      'an empty mcpServers',
      { mcpServers: {} },
      'mcpServers is empty: the gateway needs at least one server to serve',
    ],
    [
      'a typo in an entry',
      { mcpServers: { fs: { comand: 'x' } } },
      'mcpServers.fs has an unknown key "comand"; allowed keys: command, args, env, cwd, url, headers, trusted, type, timeoutMs, listTimeoutMs, credentials, tools',
    ],
    [
      'both command and url',
      { mcpServers: { fs: { command: 'x', url: 'http://a/mcp' } } },
      'mcpServers.fs needs exactly one of "command" (stdio) or "url" (HTTP)',
    ],
    [
      'a url that is not http',
      { mcpServers: { fs: { url: 'ftp://a' } } },
      'mcpServers.fs.url must be an http:// or https:// URL; got "ftp://a"',
    ],
    [
      'headers on a stdio server',
      { mcpServers: { fs: { command: 'x', headers: {} } } },
      'mcpServers.fs.headers is for HTTP servers ("url"), not for "command"',
    ],
    [
      'a bad timeout',
      { mcpServers: { fs: { command: 'x', timeoutMs: 0 } } },
      'mcpServers.fs.timeoutMs must be a whole number of milliseconds from 1 to 2147483647; got 0',
    ],
    [
      'a credential of an unknown kind',
      { mcpServers: { fs: { url: 'http://a/mcp', credentials: { kind: 'basic' } } } },
      'mcpServers.fs.credentials.kind must be "header" or "client-credentials"; got "basic"',
    ],
    [
      'a header credential without env',
      { mcpServers: { fs: { url: 'http://a/mcp', credentials: { kind: 'header', name: 'Authorization' } } } },
      'mcpServers.fs.credentials.env is required: the name of an environment variable',
    ],
    [
      'an override with a typo',
      { mcpServers: { fs: { command: 'x', tools: { read: { hidden: true } } } } },
      'mcpServers.fs.tools.read has an unknown key "hidden"; allowed keys: rename, description, hide',
    ],
    [
      'a gateway key with a typo',
      { ...ONE, gateway: { poisonning: 'deny' } },
      'gateway has an unknown key "poisonning"; allowed keys: name, pins, firstUse, poisoning, timeoutMs, listTimeoutMs, debounceMs, statusFile, limits',
    ],
    [
      'an unknown poisoning mode',
      { ...ONE, gateway: { poisoning: 'ignore' } },
      'gateway.poisoning must be "report", "strip" or "deny"; got "ignore"',
    ],
    [
      'a limit out of bounds',
      { ...ONE, gateway: { limits: { maxTools: 0 } } },
      'gateway.limits.maxTools must be a whole number of tools from 1 to 100000; got 0',
    ],
    [
      'an unknown top-level key',
      { ...ONE, gateways: {} },
      'config has an unknown key "gateways"; allowed keys: tools, roots, refuseHardLinks, timeouts, packs, http, policy, mcpServers, gateway, $schema',
    ],
  ];
  for (const [what, config, message] of refusals) {
    it(`refuses ${what}, naming the key`, () => assert.equal(readerSays(config), message));
  }

  it('a server name that cannot be prefixed is refused with the naming rule', () => {
    const message = readerSays({ mcpServers: { a___b: { command: 'x' } } }) ?? '';
    assert.match(message, /^mcpServers key "a___b": /);
  });
});

describe('gateway config: the schema agrees with the reader', () => {
  const cases: unknown[] = [
    ONE,
    {
      mcpServers: {
        web: {
          url: 'https://example.com/mcp',
          credentials: { kind: 'header', name: 'Authorization', env: 'TOKEN' },
        },
      },
    },
    {
      mcpServers: {
        web: {
          url: 'https://example.com/mcp',
          credentials: {
            kind: 'client-credentials',
            clientId: 'gw',
            clientSecretEnv: 'SECRET',
            scope: 'mcp',
          },
        },
      },
    },
    {
      mcpServers: {
        fs: { command: 'x', tools: { read: { rename: 'cat', description: 'Reads.', hide: true } } },
      },
    },
    {
      ...ONE,
      gateway: {
        name: 'edge',
        pins: 'p.sqlite',
        firstUse: 'quarantine',
        poisoning: 'deny',
        timeoutMs: 1,
        listTimeoutMs: 2,
        debounceMs: 0,
        statusFile: 's.json',
        limits: { maxTools: 1, maxPages: 1, maxDefinitionBytes: 1024 },
      },
    },
    { ...ONE, gateway: { poisoning: 'ignore' } },
    { ...ONE, gateway: { firstUse: 'never' } },
    { ...ONE, gateway: { debounceMs: -1 } },
    { ...ONE, gateway: { limits: { maxDefinitionBytes: 1023 } } },
    { ...ONE, gateway: { limits: { maxPages: 10_001 } } },
    { ...ONE, gateway: { name: '' } },
    { ...ONE, gateway: { extra: 1 } },
    { mcpServers: { fs: { command: 'x', timeoutMs: 1.5 } } },
    { mcpServers: { fs: { command: 'x', listTimeoutMs: 'soon' } } },
    { mcpServers: { fs: { command: 'x', tools: { read: { hide: 'yes' } } } } },
    { mcpServers: { fs: { command: 'x', tools: { read: { rename: '' } } } } },
    {
      mcpServers: {
        web: { url: 'https://e.com/mcp', credentials: { kind: 'header', name: 'A', env: 'B', extra: 1 } },
      },
    },
    {
      mcpServers: {
        web: { url: 'https://e.com/mcp', credentials: { kind: 'client-credentials', clientId: 'gw' } },
      },
    },
  ];
  cases.forEach((config, index) => {
    it(`case ${index}: ${JSON.stringify(config).slice(0, 100)}`, () => {
      const reader = readerSays(config);
      assert.equal(
        validate(config),
        reader === undefined,
        `reader: ${reader ?? 'accepts'}; schema: ${JSON.stringify(validate.errors)}`,
      );
    });
  });
});
