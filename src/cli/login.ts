// `toolwire login TARGET`: OAuth authorization code with PKCE through the user's browser and a loopback redirect
// on 127.0.0.1; the tokens go to the user's config directory (0600) for `list` and `call`. Tokens are never printed.

import { OAuthError, OAuthClient, canonicalResource, startLoopbackRedirect } from '../client/index.js';
import { browserOpener, openBrowser } from './browser.js';
import { ExitCode, UsageError } from './errors.js';
import { tokenFile, tokenStore } from './oauth-tokens.js';
import { say, type CliIo } from './session.js';
import { resolveTarget } from './target.js';

export interface LoginOptions {
  scope?: string;
  clientId?: string;
  clientMetadataUrl?: string;
  /** commander's --no-browser */
  browser?: boolean;
  timeout?: string;
  config?: string;
}

/** Long enough to sign in at an identity provider; then the loopback listener goes away. */
const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000;

/** The http(s) URL of a TARGET (a URL, or a config entry with "url"); anything else cannot log in. */
export async function targetUrl(targetText: string, config: string | undefined, io: CliIo): Promise<string> {
  const target = await resolveTarget(targetText, {
    headers: [],
    ...(config !== undefined && { config }),
    cwd: io.cwd,
    env: io.env,
  });
  if (target.url === undefined) {
    throw new UsageError(
      `${JSON.stringify(targetText)} is not an HTTP server: only http(s) servers use OAuth login`,
    );
  }
  return target.url;
}

function loginTimeout(value: string | undefined): number {
  if (value === undefined) return DEFAULT_LOGIN_TIMEOUT_MS;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms <= 0)
    throw new UsageError(`--timeout expects milliseconds (a positive integer), got ${JSON.stringify(value)}`);
  return ms;
}

function clientMetadataUrl(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ok = URL.canParse(value) && new URL(value).protocol === 'https:' && new URL(value).pathname !== '/';
  if (!ok)
    throw new UsageError(
      `--client-metadata-url must be an https URL with a path, got ${JSON.stringify(value)}`,
    );
  return value;
}

export async function login(
  targetText: string,
  options: LoginOptions,
  io: CliIo,
  interrupt?: AbortSignal,
): Promise<number> {
  let receiver: Awaited<ReturnType<typeof startLoopbackRedirect>> | undefined;
  try {
    const url = await targetUrl(targetText, options.config, io);
    const server = canonicalResource(url);
    const timeout = loginTimeout(options.timeout);
    const metadataUrl = clientMetadataUrl(options.clientMetadataUrl);
    const scopes = (options.scope ?? '').split(/[\s,]+/).filter((s) => s !== '');
    const secret = io.env.TOOLWIRE_OAUTH_CLIENT_SECRET;
    const signal = AbortSignal.any([AbortSignal.timeout(timeout), ...(interrupt ? [interrupt] : [])]);
    receiver = await startLoopbackRedirect();
    const loopback = receiver;
    const opener = options.browser === false ? undefined : browserOpener(io.env);
    const oauth = new OAuthClient({
      serverUrl: url,
      redirectUri: loopback.redirectUri,
      store: tokenStore(url, io.env),
      clientName: 'toolwire',
      scopes,
      ...(metadataUrl !== undefined && { clientMetadataUrl: metadataUrl }),
      ...(options.clientId !== undefined && {
        client: {
          clientId: options.clientId,
          ...(secret !== undefined && secret !== '' && { clientSecret: secret }),
        },
      }),
      authorize: async (request) => {
        say(io, `open this URL in a browser to authorize toolwire for ${server}:`);
        io.stderr.write(`  ${request.url.href}\n`);
        if (opener !== undefined) openBrowser(request.url.href, opener);
        say(io, `waiting for the browser to come back to ${loopback.redirectUri} (Ctrl-C to give up)`);
        return loopback.waitFor(request.state, request.signal);
      },
    });
    const summary = await oauth.authorize({ signal });
    const details = [
      `authorization server ${summary.issuer}`,
      summary.scope !== undefined ? `scopes: ${summary.scope}` : 'no scopes named',
      summary.refreshable ? 'refreshed automatically' : 'no refresh token: log in again when it expires',
    ];
    say(io, `logged in to ${server} (${details.join('; ')})`);
    say(io, `tokens saved in ${tokenFile(url, io.env)}`);
    return ExitCode.Success;
  } catch (error) {
    if (error instanceof UsageError) {
      say(io, error.message);
      return ExitCode.Usage;
    }
    if (interrupt?.aborted) {
      say(io, 'login cancelled');
      return ExitCode.Interrupted;
    }
    if (error instanceof DOMException && error.name === 'TimeoutError') {
      say(io, 'login timed out waiting for the browser (--timeout to wait longer)');
      return ExitCode.Connection;
    }
    say(
      io,
      `login failed: ${error instanceof OAuthError || error instanceof Error ? error.message : String(error)}`,
    );
    return ExitCode.Connection;
  } finally {
    await receiver?.close();
  }
}
