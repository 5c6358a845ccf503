// What the client throws: errors the server sent, and the client's own (time-outs, refusals, bad answers).

import type { JsonRpcErrorObject } from '../jsonrpc/index.js';

/** A JSON-RPC error response from the server, as it was sent. */
export class McpError extends Error {
  readonly code: number;
  readonly data: unknown;
  /** The HTTP status of the response that carried it, on HTTP. */
  readonly httpStatus: number | undefined;
  /** The response's Retry-After in ms, when it had one (HTTP 429 or 503). */
  readonly retryAfterMs: number | undefined;

  constructor(error: JsonRpcErrorObject, httpStatus?: number, retryAfterMs?: number) {
    super(`server error ${error.code}: ${error.message}`);
    this.name = 'McpError';
    this.code = error.code;
    this.data = error.data;
    this.httpStatus = httpStatus;
    this.retryAfterMs = retryAfterMs;
  }
}

/** The request was not answered in time; the server was told to stop (cancellation). */
export class RequestTimeoutError extends Error {
  constructor(method: string, timeoutMs: number) {
    super(`${method} timed out after ${timeoutMs} ms (the request was cancelled on the server)`);
    this.name = 'RequestTimeoutError';
  }
}

/** The caller's AbortSignal ended the request; the server was told to stop. */
export class RequestAbortedError extends Error {
  constructor(method: string) {
    super(`${method} was cancelled`);
    this.name = 'RequestAbortedError';
  }
}

/** The server broke the protocol: an answer that is not valid for the request. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

/** The approval hook (a human in the loop) refused the call, or no hook was there to ask. */
export class ApprovalDeniedError extends Error {
  readonly tool: string;
  constructor(tool: string, message: string) {
    super(message);
    this.name = 'ApprovalDeniedError';
    this.tool = tool;
  }
}

/** structuredContent did not match the tool's outputSchema; the result is attached, unchanged. */
export class OutputValidationError extends Error {
  readonly tool: string;
  readonly result: unknown;
  constructor(tool: string, message: string, result: unknown) {
    super(message);
    this.name = 'OutputValidationError';
    this.tool = tool;
    this.result = result;
  }
}

/** The connection closed (the server exited, or the client was closed) while a request was open. */
export class ConnectionClosedError extends Error {
  constructor(detail?: string) {
    super(
      detail === undefined
        ? 'the connection to the server closed'
        : `the connection to the server closed: ${detail}`,
    );
    this.name = 'ConnectionClosedError';
  }
}
