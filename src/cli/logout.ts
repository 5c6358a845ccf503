// `toolwire logout TARGET`: revokes the stored tokens where the authorization server offers revocation (RFC 7009),
// then deletes the token file.

import { OAuthClient, canonicalResource } from '../client/index.js';
import { ExitCode, UsageError } from './errors.js';
import { targetUrl } from './login.js';
import { tokenStore } from './oauth-tokens.js';
import { say, type CliIo } from './session.js';

/** Revocation is a courtesy to the AS; logging out does not wait on a slow one for long. */
const REVOKE_TIMEOUT_MS = 15_000;

export async function logout(targetText: string, options: { config?: string }, io: CliIo): Promise<number> {
  try {
    const url = await targetUrl(targetText, options.config, io);
    const server = canonicalResource(url);
    const oauth = new OAuthClient({ serverUrl: url, store: tokenStore(url, io.env) });
    const { hadTokens, revoked } = await oauth.logout(AbortSignal.timeout(REVOKE_TIMEOUT_MS));
    if (!hadTokens) say(io, `no stored tokens for ${server}`);
    else if (revoked) say(io, `logged out of ${server} (tokens revoked and deleted)`);
    else say(io, `logged out of ${server} (tokens deleted; the authorization server did not revoke them)`);
    return ExitCode.Success;
  } catch (error) {
    say(io, error instanceof Error ? error.message : String(error));
    return error instanceof UsageError ? ExitCode.Usage : ExitCode.Connection;
  }
}
