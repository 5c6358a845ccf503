// A server pin's subject (threat C8, shadow servers): what the gateway would launch or reach for one upstream — the
// stdio command line, working directory and environment, or the HTTP URL, headers and credential settings — with
// every secret value replaced by its SHA-256, as RFC 8785 canonical JSON and its digest.

import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { canonicalJson } from '../../policy/audit/chain.js';
import type { UpstreamConfig, UpstreamCredentials } from '../upstream/index.js';
import { inertJson } from './visible.js';

/** A stdio upstream as launched: secrets (env values) only as `sha256:<hex>`. */
export interface StdioLaunch {
  kind: 'stdio';
  command: string;
  args?: string[];
  /** Absolute when the config's directory was given (relative cwds resolve against it, as the upstream does). */
  cwd?: string;
  /** Variable name → `sha256:<hex of the UTF-8 value>`. */
  env?: Record<string, string>;
  trusted?: true;
}

/** An HTTP upstream as reached: header values only as `sha256:<hex>`; credential settings name variables, hold no secret. */
export interface HttpLaunch {
  kind: 'http';
  url: string;
  headers?: Record<string, string>;
  credentials?: UpstreamCredentials;
  trusted?: true;
}

export type LaunchDefinition = StdioLaunch | HttpLaunch;

export interface LaunchOptions {
  /** The config file's directory: a stdio upstream's cwd (default '.') is pinned resolved against it. */
  baseDir?: string;
}

/** `sha256:` and the hex SHA-256 of a secret's UTF-8 bytes (`printf %s "$VALUE" | sha256sum` gives the same hex). */
export const secretHash = (value: string): string =>
  `sha256:${createHash('sha256').update(value, 'utf8').digest('hex')}`;

const hashed = (values: Record<string, string> | undefined): Record<string, string> | undefined => {
  if (values === undefined || Object.keys(values).length === 0) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) out[name] = secretHash(value);
  return out;
};

/**
 * The launch definition of `config`. Pinned beside what runs: `trusted` (only when true), since it decides whether
 * the upstream's annotations count for policy (C4). Left out: the name (the pin's key), time limits and tool
 * overrides, which change nothing that runs. Empty args/env/headers are left out, as absent ones are: they launch
 * the same thing. Header values are pinned as configured (with their ${ENV} references), so rotating a token held in
 * the environment holds nothing.
 */
export function launchDefinition(config: UpstreamConfig, options: LaunchOptions = {}): LaunchDefinition {
  const trusted = config.trusted === true ? { trusted: true as const } : {};
  if (config.url !== undefined) {
    const headers = hashed(config.headers);
    return {
      kind: 'http',
      url: config.url,
      ...(headers !== undefined && { headers }),
      ...(config.credentials !== undefined && { credentials: config.credentials }),
      ...trusted,
    };
  }
  const env = hashed(config.env);
  const cwd = options.baseDir !== undefined ? resolve(options.baseDir, config.cwd ?? '.') : config.cwd;
  return {
    kind: 'stdio',
    command: config.command ?? '',
    ...(config.args !== undefined && config.args.length > 0 && { args: [...config.args] }),
    ...(cwd !== undefined && { cwd }),
    ...(env !== undefined && { env }),
    ...trusted,
  };
}

/** SHA-256 (hex) of the canonical JSON of a launch definition. */
export function launchDigest(definition: LaunchDefinition): string {
  return createHash('sha256').update(canonicalJson(definition)).digest('hex');
}

/** Indented JSON in canonical key order with every invisible or control character \u-escaped: what diffs compare. */
export function prettyLaunch(definition: LaunchDefinition): string {
  return inertJson(JSON.parse(canonicalJson(definition)), 2);
}
