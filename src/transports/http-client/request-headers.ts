// The headers the HTTP client transports send, and the end of a Streamable HTTP session (DELETE).

import { TransportError } from '../../protocol/index.js';
import { discardBody } from './body.js';
import { DELETE_TIMEOUT_MS } from './options.js';

export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

export const POST_HEADERS: HeaderPairs = [
  ['content-type', 'application/json'],
  ['accept', 'application/json, text/event-stream'],
];
export const GET_HEADERS: HeaderPairs = [['accept', 'text/event-stream']];

/**
 * The configured headers (`base`, lower case: options.ts), then the request's own, then the fixed ones of its kind,
 * which win. A plain record with lower-case names, not a Headers object per request (which cost more than the rest
 * of the headers' work); whoever sends it (fetch, node:http) still refuses a name or value that is not allowed.
 */
export function requestHeaders(
  base: HeaderPairs,
  fixed: HeaderPairs,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of base) headers[name] = value;
  if (extra !== undefined)
    for (const name of Object.keys(extra)) headers[name.toLowerCase()] = extra[name] as string;
  for (const [name, value] of fixed) headers[name] = value;
  return headers;
}

/**
 * Ends a session on the server (spec: clients SHOULD DELETE). Returns the failure worth reporting: none when the
 * server is gone or slow (its session ends with it, or expires), or answers 404 (already gone) or 405 (not allowed).
 */
export async function deleteSession(
  fetch: typeof globalThis.fetch,
  url: URL,
  headers: Record<string, string>,
): Promise<TransportError | undefined> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'DELETE',
      headers,
      signal: AbortSignal.timeout(DELETE_TIMEOUT_MS),
    });
  } catch {
    return undefined;
  }
  await discardBody(response);
  if (response.ok || response.status === 404 || response.status === 405) return undefined;
  return new TransportError(`DELETE of the session answered HTTP ${response.status}`, response.status);
}
