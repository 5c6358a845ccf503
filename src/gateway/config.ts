// toolwire.json for `toolwire gateway`: the "gateway" section, the upstreams of "mcpServers" with their gateway keys,
// and the "policy" and "http" sections read as `toolwire serve` reads them. Every mistake is a ConfigError that names
// the key; the schema is src/tools/gateway-schema.ts, and test/gateway-config.test.ts holds the two together.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigReader } from '../tools/config-reader.js';
import { GATEWAY_BOUNDS } from '../tools/gateway-schema.js';
import { httpSectionReader, readHttpSection, type HttpValues } from '../tools/http-config.js';
import { ConfigError } from '../tools/pack.js';
import { TOP_KEYS } from '../tools/serve-config.js';
import { readPolicyConfig, type ServePolicy } from '../tools/policy-config.js';
import { checkOverrides, checkServerName, type ToolOverride } from './naming/index.js';
import type { ListingLimits, PoisoningMode } from './scan/index.js';
import type { UpstreamConfig, UpstreamCredentials } from './upstream/index.js';

export interface GatewayConfig {
  /** The config file (absolute); relative paths in it are resolved against its folder. */
  file: string;
  /** The parsed file as it was (the pins CLI reads its store path from it: pinStorePath). */
  raw: unknown;
  name: string;
  /** In the file's order. */
  upstreams: UpstreamConfig[];
  /** Per-tool rename, description, hide: by server, then upstream tool name. */
  overrides: Map<string, Map<string, ToolOverride>>;
  pins: string;
  firstUse: 'trust' | 'quarantine';
  poisoning: PoisoningMode;
  timeoutMs: number;
  listTimeoutMs: number;
  debounceMs: number;
  statusFile: string;
  limits: ListingLimits;
  /** The "policy" section; absent: no policy layer (like `toolwire serve`). */
  policy?: ServePolicy;
  /** The "http" section by dotted path (flags override it). */
  http: HttpValues;
}

const GATEWAY_KEYS = [
  'name',
  'pins',
  'firstUse',
  'poisoning',
  'timeoutMs',
  'listTimeoutMs',
  'debounceMs',
  'statusFile',
  'limits',
];
const LIMIT_KEYS = ['maxTools', 'maxPages', 'maxDefinitionBytes'];
const ENTRY_KEYS = [
  'command',
  'args',
  'env',
  'cwd',
  'url',
  'headers',
  'trusted',
  'type',
  'timeoutMs',
  'listTimeoutMs',
  'credentials',
  'tools',
];
const OVERRIDE_KEYS = ['rename', 'description', 'hide'];
const HEADER_CREDENTIAL_KEYS = ['kind', 'name', 'env'];
const CLIENT_CREDENTIAL_KEYS = ['kind', 'clientId', 'clientSecretEnv', 'scope', 'tokenEndpoint'];
/** More upstreams than this is a mistake, not a deployment. */
const MAX_UPSTREAMS = 256;

const nonEmpty = (value: string): boolean => value !== '';
const show = (value: unknown): string => (JSON.stringify(value) ?? String(value)).slice(0, 60);

/** Reads and checks a config file. */
export function loadGatewayConfig(path: string, cwd: string): GatewayConfig {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(
      `cannot read the config file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`config file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  return readGatewayConfig(raw, file);
}

/** Checks a parsed config object; `file` (absolute) anchors its relative paths. */
export function readGatewayConfig(raw: unknown, file: string): GatewayConfig {
  const top = new ConfigReader(raw, '', TOP_KEYS, { label: 'config' });
  const base = resolve(file, '..');
  const read = new ConfigReader(top.raw('gateway'), 'gateway', GATEWAY_KEYS);
  const limits = read.section('limits', LIMIT_KEYS);
  const config: GatewayConfig = {
    file,
    raw,
    name: read.string('name', 'toolwire-gateway', 'a non-empty string', nonEmpty),
    upstreams: [],
    overrides: new Map(),
    pins: resolve(base, read.string('pins', '.toolwire/pins.sqlite', 'a file path', nonEmpty)),
    firstUse: read.string(
      'firstUse',
      'trust',
      '"trust" or "quarantine"',
      (v) => v === 'trust' || v === 'quarantine',
    ) as GatewayConfig['firstUse'], // checked just now
    poisoning: read.string('poisoning', 'strip', '"report", "strip" or "deny"', (v) =>
      ['report', 'strip', 'deny'].includes(v),
    ) as PoisoningMode, // checked just now
    timeoutMs: read.integer('timeoutMs', 60_000, 1, GATEWAY_BOUNDS.maxTimeoutMs, 'milliseconds'),
    listTimeoutMs: read.integer('listTimeoutMs', 10_000, 1, GATEWAY_BOUNDS.maxTimeoutMs, 'milliseconds'),
    debounceMs: read.integer('debounceMs', 250, 0, GATEWAY_BOUNDS.maxDebounceMs, 'milliseconds'),
    statusFile: resolve(
      base,
      read.string('statusFile', '.toolwire/gateway-status.json', 'a file path', nonEmpty),
    ),
    limits: {
      maxTools: limits.integer('maxTools', 10_000, 1, GATEWAY_BOUNDS.maxTools, 'tools'),
      maxPages: limits.integer('maxPages', 100, 1, GATEWAY_BOUNDS.maxPages, 'pages'),
      maxDefinitionBytes: limits.integer(
        'maxDefinitionBytes',
        131_072,
        1024,
        GATEWAY_BOUNDS.maxDefinitionBytes,
        'bytes',
      ),
    },
    http: readHttpSection(httpSectionReader(top.raw('http'))),
  };
  const policy = readPolicyConfig(top.raw('policy'), file);
  if (policy !== undefined) config.policy = policy;
  readUpstreams(top.raw('mcpServers'), base, config);
  try {
    checkOverrides(config.overrides);
  } catch (error) {
    throw new ConfigError(`mcpServers: ${(error as Error).message}`);
  }
  return config;
}

function readUpstreams(raw: unknown, base: string, config: GatewayConfig): void {
  if (raw === undefined || typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      `mcpServers must be an object of named servers (the gateway serves them); got ${show(raw)}`,
    );
  }
  const entries = Object.entries(raw);
  if (entries.length === 0)
    throw new ConfigError('mcpServers is empty: the gateway needs at least one server to serve');
  if (entries.length > MAX_UPSTREAMS)
    throw new ConfigError(
      `mcpServers has ${entries.length} servers; the gateway serves at most ${MAX_UPSTREAMS}`,
    );
  for (const [name, value] of entries) {
    try {
      checkServerName(name);
    } catch (error) {
      throw new ConfigError(`mcpServers key ${JSON.stringify(name)}: ${(error as Error).message}`);
    }
    const path = `mcpServers.${name}`;
    const read = new ConfigReader(value, path, ENTRY_KEYS);
    const upstream: UpstreamConfig = { name };
    const url = read.given('url');
    if (url === read.given('command'))
      throw new ConfigError(`${path} needs exactly one of "command" (stdio) or "url" (HTTP)`);
    if (url) {
      upstream.url = read.string(
        'url',
        '',
        'an http:// or https:// URL',
        (v) => /^https?:\/\//i.test(v) && URL.canParse(v),
      );
      if (read.given('headers')) upstream.headers = stringMap(read, 'headers');
      for (const key of ['args', 'env', 'cwd'])
        if (read.given(key))
          throw new ConfigError(`${read.name(key)} is for stdio servers ("command"), not for "url"`);
    } else {
      upstream.command = read.string('command', '', 'a program to start', nonEmpty);
      if (read.given('args')) upstream.args = read.stringList('args', [], { maxItems: 1024 });
      if (read.given('env')) upstream.env = stringMap(read, 'env');
      if (read.given('cwd'))
        upstream.cwd = resolve(base, read.string('cwd', '', 'a directory path', nonEmpty));
      if (read.given('headers'))
        throw new ConfigError(`${read.name('headers')} is for HTTP servers ("url"), not for "command"`);
    }
    if (read.given('type')) read.string('type', '', 'a string', () => true);
    upstream.trusted = read.boolean('trusted', false);
    upstream.timeoutMs = read.integer(
      'timeoutMs',
      config.timeoutMs,
      1,
      GATEWAY_BOUNDS.maxTimeoutMs,
      'milliseconds',
    );
    upstream.listTimeoutMs = read.integer(
      'listTimeoutMs',
      config.listTimeoutMs,
      1,
      GATEWAY_BOUNDS.maxTimeoutMs,
      'milliseconds',
    );
    if (read.given('credentials'))
      upstream.credentials = readCredentials(read.raw('credentials'), `${path}.credentials`);
    if (read.given('tools')) config.overrides.set(name, readOverrides(read.raw('tools'), `${path}.tools`));
    config.upstreams.push(upstream);
  }
}

function stringMap(read: ConfigReader, key: string): Record<string, string> {
  const value = read.raw(key);
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new ConfigError(`${read.name(key)} must map names to strings; got ${show(value)}`);
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== 'string')
      throw new ConfigError(`${read.name(key)}.${name} must be a string; got ${show(item)}`);
    out[name] = item;
  }
  return out;
}

/** A string the entry must have: absent is an error that says what it is for (the reader's fallback is no value). */
function required(
  read: ConfigReader,
  key: string,
  expected: string,
  check: (value: string) => boolean,
): string {
  if (!read.given(key)) throw new ConfigError(`${read.name(key)} is required: ${expected}`);
  return read.string(key, '', expected, check);
}

function readCredentials(raw: unknown, path: string): UpstreamCredentials {
  const kind = typeof raw === 'object' && raw !== null ? (raw as { kind?: unknown }).kind : undefined;
  if (kind === 'header') {
    const read = new ConfigReader(raw, path, HEADER_CREDENTIAL_KEYS);
    const name = required(read, 'name', 'an HTTP header name', (v) =>
      /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(v),
    );
    return { kind, name, env: required(read, 'env', 'the name of an environment variable', nonEmpty) };
  }
  if (kind === 'client-credentials') {
    const read = new ConfigReader(raw, path, CLIENT_CREDENTIAL_KEYS);
    const credentials: UpstreamCredentials = {
      kind,
      clientId: required(read, 'clientId', 'the OAuth client id', nonEmpty),
      clientSecretEnv: required(read, 'clientSecretEnv', 'the name of an environment variable', nonEmpty),
    };
    if (read.given('scope')) credentials.scope = read.string('scope', '', 'a non-empty string', nonEmpty);
    if (read.given('tokenEndpoint'))
      credentials.tokenEndpoint = read.string('tokenEndpoint', '', 'an https:// URL', (v) => URL.canParse(v));
    return credentials;
  }
  throw new ConfigError(`${path}.kind must be "header" or "client-credentials"; got ${show(kind)}`);
}

function readOverrides(raw: unknown, path: string): Map<string, ToolOverride> {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(
      `${path} must map upstream tool names to { rename, description, hide }; got ${show(raw)}`,
    );
  const entries = Object.entries(raw);
  if (entries.length > GATEWAY_BOUNDS.maxOverrides)
    throw new ConfigError(`${path} has more than ${GATEWAY_BOUNDS.maxOverrides} tools`);
  const overrides = new Map<string, ToolOverride>();
  for (const [tool, value] of entries) {
    if (tool === '') throw new ConfigError(`${path} has an empty tool name`);
    const read = new ConfigReader(value, `${path}.${tool}`, OVERRIDE_KEYS);
    const override: ToolOverride = {};
    if (read.given('rename')) override.rename = read.string('rename', '', 'a non-empty tool name', nonEmpty);
    if (read.given('description'))
      override.description = read.string('description', '', 'a string', () => true);
    if (read.given('hide')) override.hide = read.boolean('hide', false);
    overrides.set(tool, override);
  }
  return overrides;
}
