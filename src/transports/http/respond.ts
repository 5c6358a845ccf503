// JSON-RPC error responses with their HTTP status, and how each era maps JSON-RPC errors to statuses.

import { ErrorCode, encodeError, type RequestId } from '../../jsonrpc/index.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';

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
