// Token revocation (RFC 7009) on logout: the refresh token first (it revokes the grant), then the access token.

import { authenticateClient, type PrivateKeyJwt } from './client-auth.js';
import type { FetchLike } from './http.js';
import type { StoredAuthorization } from './store.js';

/** True when the AS accepted at least one revocation; failures are not errors (the tokens are forgotten anyway). */
export async function revokeTokens(
  fetchFn: FetchLike,
  state: StoredAuthorization,
  jwt: PrivateKeyJwt | undefined,
  signal?: AbortSignal,
): Promise<boolean> {
  const endpoint = state.revocationEndpoint;
  const tokens = state.tokens;
  if (endpoint === undefined || tokens === undefined) return false;
  const pairs: [string, string][] = [];
  if (tokens.refreshToken !== undefined) pairs.push([tokens.refreshToken, 'refresh_token']);
  pairs.push([tokens.accessToken, 'access_token']);
  let revoked = false;
  for (const [token, hint] of pairs) {
    const params = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
    try {
      await authenticateClient(state.client, params, headers, state.issuer, jwt);
      const response = await fetchFn(endpoint, {
        method: 'POST',
        redirect: 'error',
        headers,
        body: params.toString(),
        ...(signal && { signal }),
      });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) revoked = true;
    } catch {
      // Unreachable or refusing: nothing more to do, the local copy goes regardless.
    }
  }
  return revoked;
}
