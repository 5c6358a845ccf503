// The plumbing of the approvals admin endpoint on node:http: the edge's request view for the authenticate hook,
// a bounded body reader, and answers that always carry the no-store, nosniff and framing headers.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Caller } from '../../protocol/index.js';
import type { HttpAuthenticate, HttpChallenge, HttpRequestInfo } from '../../transports/http/index.js';

/** The largest request body the admin endpoint reads (a reason and a form token are small). */
export const MAX_ADMIN_BODY_BYTES = 16 * 1024;
/** An authenticate hook still pending after this long counts as failed. */
const AUTHENTICATE_TIMEOUT_MS = 10_000;

export const BASE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
});

export const HTML_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  ...BASE_HEADERS,
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
});

/** What the authenticate hook sees of an admin request (the same view the MCP edge gives it). */
export function requestInfo(request: IncomingMessage): HttpRequestInfo {
  const url = new URL(request.url ?? '/', 'http://admin.invalid');
  return {
    method: (request.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    ...(request.socket.remoteAddress !== undefined && { remoteAddress: request.socket.remoteAddress }),
    header: (name) => {
      const value = request.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    },
    query: (name) => url.searchParams.get(name) ?? undefined,
    queryNames: () => [...url.searchParams.keys()],
  };
}

const isCaller = (value: unknown): value is Caller =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Caller).subject === 'string' &&
  typeof (value as Caller).via === 'string' &&
  Array.isArray((value as Caller).scopes);

const isChallenge = (value: unknown): value is HttpChallenge =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as HttpChallenge).status === 'number' &&
  (((value as HttpChallenge).status >= 400 && (value as HttpChallenge).status <= 499) ||
    (value as HttpChallenge).status === 503);

/** The approver, or the challenge to answer; a failing hook is "unavailable" (its details are for the log). */
export async function authenticateApprover(
  authenticate: HttpAuthenticate,
  info: HttpRequestInfo,
): Promise<Caller | HttpChallenge | 'failed'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      Promise.resolve().then(() => authenticate(info)),
      new Promise<'failed'>((resolve) => {
        timer = setTimeout(resolve, AUTHENTICATE_TIMEOUT_MS, 'failed');
      }),
    ]);
    if (isCaller(outcome) || isChallenge(outcome)) return outcome;
    return 'failed';
  } catch {
    return 'failed';
  } finally {
    clearTimeout(timer);
  }
}

/** The body as text, or a status when it is too large or not the expected media type. */
export async function readBody(request: IncomingMessage, mediaType: string): Promise<string | 413 | 415> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== mediaType) {
    request.resume();
    return 415;
  }
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > MAX_ADMIN_BODY_BYTES) {
    request.resume();
    return 413;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > MAX_ADMIN_BODY_BYTES) {
      request.destroy();
      return 413;
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function send(
  response: ServerResponse,
  status: number,
  headers: Readonly<Record<string, string>>,
  body: string,
): void {
  if (response.headersSent) return;
  response.writeHead(status, { ...headers, 'content-length': String(Buffer.byteLength(body)) });
  response.end(body);
}

export const sendJson = (
  response: ServerResponse,
  status: number,
  value: unknown,
  extra: Record<string, string> = {},
): void =>
  send(
    response,
    status,
    { ...BASE_HEADERS, 'content-type': 'application/json', ...extra },
    JSON.stringify(value),
  );
