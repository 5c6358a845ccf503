// Calling a policy's edge hook (authenticate, a route) safely: synchronous answers stay synchronous, a pending one
// is bounded in time, and the headers it asks for are checked before they reach a response.

import { ErrorCode } from '../../jsonrpc/index.js';
import type { Logger } from '../../server/index.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { sendError } from './respond.js';

/** How long an edge hook may stay pending before the request is answered 500 (a JWKS fetch that hangs, say). */
export const HOOK_TIMEOUT_MS = 10_000;

/**
 * Calls `hook` and hands its value to `onValue`, or what it threw (or its rejection) to `onError`. A synchronous hook
 * is answered in the same turn, with no promise in between: the common case costs nothing.
 */
export function callHook<R>(
  hook: () => unknown,
  onValue: (value: unknown) => R,
  onError: (error: unknown) => R,
): R | Promise<R> {
  let value: unknown;
  try {
    value = hook();
  } catch (error) {
    return onError(error);
  }
  if (typeof (value as { then?: unknown } | null)?.then !== 'function') return onValue(value);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`it did not settle within ${HOOK_TIMEOUT_MS} ms`)),
      HOOK_TIMEOUT_MS,
    );
    timer.unref?.();
  });
  return Promise.race([Promise.resolve(value), late])
    .finally(() => clearTimeout(timer))
    .then(onValue, onError);
}

/** Header names a hook may not set: they frame the message, and the transport owns them. */
const FRAMING: ReadonlySet<string> = new Set([
  'connection',
  'content-length',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);
/** RFC 9110 token. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** Visible ASCII, space and tab: no line breaks (response splitting), nothing a runtime would refuse. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
const MAX_HEADER_VALUE = 8 * 1024;

/** The headers a hook asked for, lower-cased; a string saying what is wrong with them otherwise. */
export function hookHeaders(value: unknown): OutgoingHeaders | string {
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return 'headers is not an object of header names to strings';
  }
  const headers: OutgoingHeaders = {};
  for (const [name, text] of Object.entries(value)) {
    const lower = name.toLowerCase();
    if (!TOKEN.test(name)) return `header name ${JSON.stringify(name)} is not a valid HTTP header name`;
    if (FRAMING.has(lower)) return `header ${JSON.stringify(name)} is the transport's to set`;
    if (typeof text !== 'string' || !FIELD_VALUE.test(text) || text.length > MAX_HEADER_VALUE) {
      return `header ${JSON.stringify(name)} is not a string of visible ASCII, space and tab (at most ${MAX_HEADER_VALUE} characters)`;
    }
    headers[lower] = text;
  }
  return headers;
}

/** A hook failed (threw, rejected, timed out, or answered nonsense): 500 with a neutral message, details logged. */
export function sendHookFailure(
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  logger: Logger,
  what: string,
  error: unknown,
): void {
  logger.error(`HTTP transport: ${what}`, error);
  sendError(exchange, 500, { ...headers }, undefined, ErrorCode.InternalError, 'Internal error');
}
