// Asking the MCP server, without credentials, what it wants: its 401 challenge names the PRM and the scope.

import { parseChallenge, type Challenge } from './challenge.js';
import { OAuthError } from './errors.js';
import type { FetchLike } from './http.js';

/** An unauthenticated request, to read the server's challenge (its resource_metadata and scope). */
export async function probeChallenge(
  fetchFn: FetchLike,
  serverUrl: URL,
  server: string,
  signal?: AbortSignal,
): Promise<Challenge | undefined> {
  let response: Response;
  try {
    response = await fetchFn(serverUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 'toolwire-authorize', method: 'ping' }),
      ...(signal && { signal }),
    });
  } catch (error) {
    throw new OAuthError(
      'unreachable',
      `${server} could not be reached (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  await response.body?.cancel().catch(() => undefined);
  return response.status === 401 ? parseChallenge(response.headers.get('www-authenticate')) : undefined;
}
