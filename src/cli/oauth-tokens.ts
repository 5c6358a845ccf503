// Where `toolwire login` keeps a server's tokens, and the fetch that `list` and `call` use them with:
// $XDG_CONFIG_HOME/toolwire/tokens/<sha256 of the canonical server URL>.json (else ~/.config/…), 0600 in a 0700 dir.

import { createHash } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { FileOAuthStore, OAuthClient, canonicalResource } from '../client/index.js';
import { NEEDS_LOGIN } from './errors.js';

export function tokenDirectory(env: NodeJS.ProcessEnv): string {
  const config =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : undefined;
  return join(config ?? join(env.HOME ?? homedir(), '.config'), 'toolwire', 'tokens');
}

/** The file name says nothing about the server (a hash), so a directory listing leaks no URLs. */
export function tokenFile(serverUrl: string, env: NodeJS.ProcessEnv): string {
  const hash = createHash('sha256').update(canonicalResource(serverUrl)).digest('hex');
  return join(tokenDirectory(env), `${hash}.json`);
}

export const tokenStore = (serverUrl: string, env: NodeJS.ProcessEnv): FileOAuthStore =>
  new FileOAuthStore(tokenFile(serverUrl, env));

const hasAuthorization = (headers: Readonly<Record<string, string>>): boolean =>
  Object.keys(headers).some((name) => name.toLowerCase() === 'authorization');

/**
 * The fetch for an HTTP target: stored tokens, refreshed silently, or nothing when --header (or the config entry)
 * gives an Authorization header, which always wins. It never opens a browser: that is `toolwire login`.
 */
export function storedAuthFetch(
  serverUrl: string,
  headers: Readonly<Record<string, string>>,
  env: NodeJS.ProcessEnv,
): typeof fetch | undefined {
  if (hasAuthorization(headers)) return undefined;
  return new OAuthClient({
    serverUrl,
    store: tokenStore(serverUrl, env),
    loginHint: `${NEEDS_LOGIN}${canonicalResource(serverUrl)}"`,
  }).fetch;
}
