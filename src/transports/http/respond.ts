// JSON-RPC error responses with their HTTP status, and how each era maps JSON-RPC errors to statuses.

import { ErrorCode, encodeError, type RequestId } from '../../jsonrpc/index.js';
import type { BodyFailure, HttpExchange, OutgoingHeaders } from './exchange.js';
import type { ResolvedHttpOptions } from './options.js';

export const JSON_TYPE: Readonly<OutgoingHeaders> = { 'content-type': 'application/json' };

/** An error response; the id is echoed whenever the request's id could be read. */
export function sendError(
  exchange: HttpExchange,
  status: number,
  headers: OutgoingHeaders,
  id: RequestId | undefined,
  code: number,
  message: string,
  data?: unknown,
): void {
  exchange.respond(status, { ...headers, ...JSON_TYPE }, encodeError(id, code, message, data));
}

/** Modern wire: header and envelope errors are 400, unknown methods 404, other JSON-RPC errors travel with 200. */
export function modernStatus(errorCode: number | undefined, rejected = false): number {
  // Refused before dispatch (a missing or malformed _meta envelope): 400, as the spec asks.
  if (rejected && errorCode === ErrorCode.InvalidParams) return 400;
  switch (errorCode) {
    case undefined:
      return 200;
    case ErrorCode.MethodNotFound:
      return 404;
    case ErrorCode.ParseError:
    case ErrorCode.InvalidRequest:
    case ErrorCode.HeaderMismatch:
    case ErrorCode.MissingRequiredClientCapability:
    case ErrorCode.UnsupportedProtocolVersion:
      return 400;
    default:
      // A -32602 from a handler (unknown tool, bad cursor) stays 200; envelope errors come marked `rejected`.
      return 200;
  }
}

/**
 * Legacy wire: an error that could not be tied to a request is 400; everything tied to a request id travels
 * with 200 (a 404 would tell a legacy client its session is gone).
 */
export const legacyStatus = (errorCode: number | undefined, related: RequestId | undefined): number =>
  errorCode !== undefined && related === undefined ? 400 : 200;

/** 503 with Retry-After, closing the connection (the request's body, if any, stays unread). */
export function sendBusy(
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  retryAfterSeconds: number,
  message: string,
): void {
  sendError(
    exchange,
    503,
    { ...headers, 'retry-after': String(retryAfterSeconds), connection: 'close' },
    undefined,
    ErrorCode.InternalError,
    `Service Unavailable: ${message}; retry after ${retryAfterSeconds} s`,
  );
}

type BodyLimitOptions = Pick<
  ResolvedHttpOptions,
  | 'maxBodyBytes'
  | 'maxBufferedBodyBytes'
  | 'maxBufferedBodyBytesPerAddress'
  | 'bodyTimeoutMs'
  | 'bodyIdleTimeoutMs'
  | 'retryAfterSeconds'
>;

/**
 * The answer to a body that was not read. Every refusal but 'aborted' closes the connection, since part of the
 * body may still be on its way. Aborted bodies are answered too: nobody may be listening, but a fetch runtime
 * still awaits a Response.
 */
export function sendBodyRefusal(
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  reason: BodyFailure,
  options: BodyLimitOptions,
): void {
  const closing = { ...headers, connection: 'close' };
  switch (reason) {
    case 'too-large':
      sendError(
        exchange,
        413,
        closing,
        undefined,
        ErrorCode.InvalidRequest,
        `Payload Too Large: the body exceeds ${options.maxBodyBytes} bytes`,
      );
      return;
    case 'busy':
      sendBusy(
        exchange,
        headers,
        options.retryAfterSeconds,
        `request bodies being read already fill the server's buffer (${options.maxBufferedBodyBytes} bytes)`,
      );
      return;
    case 'address-busy':
      sendBusy(
        exchange,
        headers,
        options.retryAfterSeconds,
        `request bodies being read from this client address already fill its share of the server's buffer (${options.maxBufferedBodyBytesPerAddress} bytes)`,
      );
      return;
    case 'timeout':
      sendError(
        exchange,
        408,
        closing,
        undefined,
        ErrorCode.InvalidRequest,
        `Request Timeout: the body did not arrive within ${options.bodyTimeoutMs} ms`,
      );
      return;
    case 'stalled':
      sendError(
        exchange,
        408,
        closing,
        undefined,
        ErrorCode.InvalidRequest,
        `Request Timeout: no part of the body arrived for ${options.bodyIdleTimeoutMs} ms`,
      );
      return;
    case 'aborted':
      sendError(
        exchange,
        400,
        headers,
        undefined,
        ErrorCode.InvalidRequest,
        'Bad Request: the body could not be read',
      );
      return;
  }
}
