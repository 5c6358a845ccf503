// What one upstream is configured with (an entry of the mcpServers map, named), and the checks that catch a
// configuration that cannot work before anything is started.

import { UpstreamConfigError } from './errors.js';

export interface UpstreamConfig {
  /** The mcpServers key: the server part of every exposed name. */
  name: string;
  /** stdio: the program (never run through a shell), its arguments, its own environment and working directory. */
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** HTTP (Streamable HTTP, either era; HTTP+SSE as the fallback the client transport knows). */
  url?: string;
  /** Sent on every request to this upstream, and only these; values may use ${ENV} (expanded at start). */
  headers?: Record<string, string>;
  /** Whether this upstream's annotations count for policy. Default false. */
  trusted?: boolean;
  /** Per-request time limit for calls, in ms. Default 60,000. */
  timeoutMs?: number;
  /** Time limit of one whole listing (every page), in ms. Default 10,000. */
  listTimeoutMs?: number;
  credentials?: UpstreamCredentials;
}

export type UpstreamCredentials =
  | { kind: 'header'; name: string; env: string }
  | {
      kind: 'client-credentials';
      clientId: string;
      clientSecretEnv: string;
      scope?: string;
      tokenEndpoint?: string;
    };

export const DEFAULT_CALL_TIMEOUT_MS = 60_000;
export const DEFAULT_LIST_TIMEOUT_MS = 10_000;

const positive = (value: number | undefined): boolean =>
  value === undefined || (Number.isSafeInteger(value) && value > 0);

/** Throws UpstreamConfigError('bad-config' | 'unsupported') for a configuration that cannot work. */
export function checkUpstreamConfig(config: UpstreamConfig): void {
  const bad = (message: string): never => {
    throw new UpstreamConfigError(config.name, 'bad-config', message);
  };
  const hasCommand = config.command !== undefined;
  const hasUrl = config.url !== undefined;
  if (hasCommand === hasUrl) bad('give either "command" (stdio) or "url" (HTTP), not both or neither');
  if (hasCommand && config.command === '') bad('"command" is empty');
  if (hasUrl) {
    const url = URL.canParse(config.url as string) ? new URL(config.url as string) : undefined;
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      bad(`"url" must be an http or https URL, got ${JSON.stringify(config.url)}`);
    if (url !== undefined && (url.username !== '' || url.password !== ''))
      bad('"url" must not carry credentials: use "headers" or "credentials"');
    for (const key of ['args', 'env', 'cwd'] as const)
      if (config[key] !== undefined) bad(`"${key}" applies to a stdio upstream ("command"), not to "url"`);
  }
  if (hasCommand) {
    if (config.headers !== undefined) bad('"headers" apply to an HTTP upstream ("url"), not to "command"');
    if (config.credentials !== undefined)
      bad('"credentials" apply to an HTTP upstream ("url"); give a stdio upstream its secrets in "env"');
  }
  if (!positive(config.timeoutMs)) bad(`"timeoutMs" must be a positive integer, got ${config.timeoutMs}`);
  if (!positive(config.listTimeoutMs))
    bad(`"listTimeoutMs" must be a positive integer, got ${config.listTimeoutMs}`);
  const credentials = config.credentials;
  if (credentials?.kind === 'client-credentials' && credentials.tokenEndpoint !== undefined) {
    // The client library finds the authorization server from the upstream's own 401 (RFC 9728), as the MCP
    // authorization spec wants; a hand-set token endpoint would bypass that discovery, so it is not offered.
    throw new UpstreamConfigError(
      config.name,
      'unsupported',
      '"credentials.tokenEndpoint" is not supported: the authorization server is discovered from the upstream\'s 401 challenge',
    );
  }
}
