// Serving a policy's route beside the MCP endpoint (RFC 9728 /.well-known/oauth-protected-resource, say): GET and
// HEAD only, its answer checked and bounded, its failures answered 500 without a word of what went wrong.

import { ErrorCode } from '../../jsonrpc/index.js';
import type { HttpRequestView, HttpRoute } from './edge.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { callHook, hookHeaders, sendHookFailure } from './hook-call.js';
import type { ResolvedHttpOptions } from './options.js';
import { sendError } from './respond.js';

/** The largest body a route may answer with: discovery documents are small. */
export const MAX_ROUTE_BODY_BYTES = 1024 * 1024;
export const ROUTE_METHODS = 'GET, HEAD, OPTIONS';
/** Statuses whose responses carry no body (a web Response refuses one). */
const NO_BODY: ReadonlySet<number> = new Set([204, 205, 304]);

/** Answers the route's response, or returns what is wrong with it. */
function answer(
  exchange: HttpExchange,
  cors: OutgoingHeaders,
  value: unknown,
  head: boolean,
): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `it returned ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}, not { status, headers, body }`;
  }
  const { status = 200, body } = value as { status?: unknown; body?: unknown }; // members read one by one below
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 200 || status > 599) {
    return `status ${typeof status === 'number' ? status : `(a ${typeof status})`} is not an HTTP status (200-599)`;
  }
  if (body !== undefined && typeof body !== 'string') return 'body is not a string';
  const bytes = body === undefined ? 0 : Buffer.byteLength(body);
  if (bytes > MAX_ROUTE_BODY_BYTES) return `body is ${bytes} bytes, over ${MAX_ROUTE_BODY_BYTES}`;
  if (body !== undefined && NO_BODY.has(status)) return `status ${status} cannot have a body`;
  const headers = hookHeaders((value as { headers?: unknown }).headers);
  if (typeof headers === 'string') return headers;
  const out: OutgoingHeaders = { ...headers, ...cors };
  if (body !== undefined && !('content-type' in out)) out['content-type'] = 'application/json';
  if (head) {
    // HEAD: the headers GET would send, without the body.
    if (!NO_BODY.has(status)) out['content-length'] = String(bytes);
    exchange.respond(status, out);
  } else exchange.respond(status, out, body);
  return undefined;
}

/** Serves one request for a route's path. */
export function serveRoute(
  route: HttpRoute,
  view: HttpRequestView,
  exchange: HttpExchange,
  cors: OutgoingHeaders,
  options: Pick<ResolvedHttpOptions, 'logger'>,
): void | Promise<void> {
  const { method, path } = exchange;
  if (method !== 'GET' && method !== 'HEAD') {
    sendError(
      exchange,
      405,
      { ...cors, allow: ROUTE_METHODS },
      undefined,
      ErrorCode.InvalidRequest,
      `Method Not Allowed: ${path} answers GET and HEAD`,
    );
    return;
  }
  const { logger } = options;
  return callHook(
    () => route(view),
    (value) => {
      const wrong = answer(exchange, cors, value, method === 'HEAD');
      if (wrong !== undefined) {
        sendHookFailure(exchange, cors, logger, `the route ${path} answered nonsense: ${wrong}`, undefined);
      }
    },
    (error) => sendHookFailure(exchange, cors, logger, `the route ${path} failed`, error),
  );
}
