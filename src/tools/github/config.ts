// The github pack's configuration: where the API is, which environment variable holds the token, how long to wait.

import { ConfigReader } from '../config-reader.js';

export interface GithubConfig {
  /** Name of the environment variable read (at call time) for the token. Default GITHUB_TOKEN. */
  tokenEnv: string;
  /** API root without a trailing slash: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server. */
  baseUrl: string;
  /** Time limit per API request. Default 15,000 ms. */
  timeoutMs: number;
  /** Sent as User-Agent, which GitHub requires. */
  userAgent: string;
}

const KEYS = ['tokenEnv', 'baseUrl', 'timeoutMs', 'userAgent'] as const;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);
const USER_AGENT = /^[\x21-\x7e][\x20-\x7e]{0,199}$/;

/** https: anywhere; http: only on loopback (a token must not cross a network in clear text). No query or fragment. */
function isApiRoot(value: string): boolean {
  if (!URL.canParse(value)) return false;
  const url = new URL(value);
  const schemeOk =
    url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  return schemeOk && url.username === '' && url.password === '' && url.search === '' && url.hash === '';
}

export function parseGithubConfig(raw: unknown, key: string): GithubConfig {
  const read = new ConfigReader(raw, key, KEYS);
  return {
    tokenEnv: read.string(
      'tokenEnv',
      'GITHUB_TOKEN',
      'an environment variable name like "GITHUB_TOKEN"',
      (name) => ENV_NAME.test(name),
    ),
    baseUrl: read
      .string(
        'baseUrl',
        'https://api.github.com',
        'an https: URL like "https://api.github.com" or "https://github.example.com/api/v3" (http: only on loopback)',
        isApiRoot,
      )
      .replace(/\/+$/, ''),
    timeoutMs: read.integer('timeoutMs', 15_000, 100, 120_000, 'ms'),
    userAgent: read.string(
      'userAgent',
      'toolwire-github',
      'printable ASCII text of at most 200 characters',
      (ua) => USER_AGENT.test(ua),
    ),
  };
}
