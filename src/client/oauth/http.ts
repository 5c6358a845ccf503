// The few HTTP exchanges OAuth needs (metadata GETs, form POSTs), with bounded bodies and errors that say where.

import { OAuthError, quoteForeign } from './errors.js';

/** Metadata documents and token responses are small; anything past this is refused unread. */
export const MAX_OAUTH_BODY_BYTES = 256 * 1024;

export type FetchLike = typeof fetch;

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The body as text, at most MAX_OAUTH_BODY_BYTES; a longer one is an error (its stream is cancelled). */
export async function readLimited(response: Response, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > MAX_OAUTH_BODY_BYTES || response.body === null) {
    await response.body?.cancel().catch(() => undefined);
    if (response.body === null) return '';
    throw new OAuthError('invalid_metadata', `${what} is larger than ${MAX_OAUTH_BODY_BYTES} bytes`);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > MAX_OAUTH_BODY_BYTES) {
      await reader.cancel().catch(() => undefined);
      throw new OAuthError('invalid_metadata', `${what} is larger than ${MAX_OAUTH_BODY_BYTES} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON object body; anything else is an error naming the document. */
export async function readJsonObject(response: Response, what: string): Promise<JsonObject> {
  const text = await readLimited(response, what);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OAuthError('invalid_metadata', `${what} is not JSON`);
  }
  if (!isObject(value)) throw new OAuthError('invalid_metadata', `${what} is not a JSON object`);
  return value;
}

/** Sends a request; a network failure becomes an `unreachable` error naming what was being fetched. */
export async function send(
  fetchFn: FetchLike,
  url: URL | string,
  init: RequestInit,
  what: string,
): Promise<Response> {
  try {
    return await fetchFn(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new OAuthError(
      'unreachable',
      `${what} at ${String(url)} could not be fetched (${error instanceof Error ? error.message : String(error)}${cause})`,
    );
  }
}

/**
 * GETs a metadata document: the object, or undefined when the server says there is none there (4xx), so the
 * caller may try the next well-known location. 5xx and network failures are errors.
 */
export async function getMetadata(
  fetchFn: FetchLike,
  url: URL,
  what: string,
  signal?: AbortSignal,
): Promise<JsonObject | undefined> {
  const response = await send(
    fetchFn,
    url,
    { method: 'GET', headers: { accept: 'application/json' }, ...(signal && { signal }) },
    what,
  );
  if (response.status >= 400 && response.status < 500) {
    await response.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw new OAuthError('unreachable', `${what} at ${url.href} answered HTTP ${response.status}`);
  }
  return readJsonObject(response, `${what} at ${url.href}`);
}

/** The standard OAuth error fields of an error body, quoted for a message (RFC 6749 §5.2). */
export function describeOAuthError(body: JsonObject | undefined, status: number): string {
  const error = typeof body?.error === 'string' ? body.error : undefined;
  const description = typeof body?.error_description === 'string' ? body.error_description : undefined;
  if (error === undefined) return `HTTP ${status}`;
  return `HTTP ${status} ${quoteForeign(error, 60)}${description ? ` (${quoteForeign(description)})` : ''}`;
}
