// Outbound requests to the authorization server (its metadata, its key set, its introspection endpoint): https only
// (loopback or an explicit opt-in excepted), no redirects, a time limit and a size limit, so a slow or hostile
// endpoint can neither hang a request nor fill memory.

import { TokenFailure, unavailable } from './failure.js';

/** The longest an outbound request may take, and the largest answer read. */
export const FETCH_TIMEOUT_MS = 5_000;
export const MAX_RESPONSE_BYTES = 1024 * 1024;

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/** Whether a URL may be fetched: https, or http to a loopback host (or anywhere when insecure URLs are allowed). */
export function urlProblem(url: URL, allowInsecure: boolean): string | undefined {
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.hash !== '') return 'must not have a fragment';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && (allowInsecure || LOOPBACK_HOST.test(url.hostname))) return undefined;
  return url.protocol === 'http:'
    ? 'must be https (http only on loopback, or with allowInsecureUrls: true)'
    : 'must be an https URL';
}

/** What came back: the status and, for a 2xx answer, its parsed JSON. */
export interface FetchedJson {
  readonly status: number;
  readonly json: unknown;
}

export interface FetchLimits {
  readonly timeoutMs: number;
  readonly maxBytes: number;
  /** Aborts every pending request when the authenticator closes. */
  readonly signal: AbortSignal;
}

/** Reads at most `maxBytes` of a body; a longer one is a failure (its rest is never buffered). */
async function boundedText(response: Response, maxBytes: number, what: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body?.cancel().catch(() => undefined);
    throw unavailable(`${what} answered with more than ${maxBytes} bytes`);
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw unavailable(`${what} answered with more than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Fetches JSON from the authorization server. Network errors, time-outs and unparsable 2xx bodies are "unavailable"
 * failures (we cannot check tokens now, which is not the client's fault); other statuses come back for the caller to
 * judge, without a body.
 */
export async function fetchJson(
  url: URL,
  init: { method?: string; headers?: Record<string, string>; body?: string },
  limits: FetchLimits,
  what: string,
): Promise<FetchedJson> {
  let response: Response;
  try {
    response = await fetch(url, {
      method: init.method ?? 'GET',
      headers: { accept: 'application/json', ...init.headers },
      ...(init.body !== undefined && { body: init.body }),
      // A redirect could lead from https to http, or to a host nobody configured.
      redirect: 'error',
      signal: AbortSignal.any([limits.signal, AbortSignal.timeout(limits.timeoutMs)]),
    });
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    throw unavailable(
      `${what} ${timedOut ? `did not answer within ${limits.timeoutMs} ms` : 'is unreachable'}`,
    );
  }
  if (response.status < 200 || response.status > 299) {
    void response.body?.cancel().catch(() => undefined);
    return { status: response.status, json: undefined };
  }
  let text: string;
  try {
    text = await boundedText(response, limits.maxBytes, what);
  } catch (error) {
    if (error instanceof TokenFailure) throw error;
    throw unavailable(`${what} broke off its answer`);
  }
  try {
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    throw unavailable(`${what} answered with something that is not JSON`);
  }
}
