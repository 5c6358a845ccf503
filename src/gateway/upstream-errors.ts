// How an upstream's failure reaches the gateway's client: as a tool error that says which upstream failed and how
// (the model or the user can act on it), never as the gateway's own internal error, and never with a stack.

import {
  ConnectionClosedError,
  McpError,
  OutputValidationError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
} from '../client/index.js';
import { ErrorCode, RpcError } from '../jsonrpc/index.js';
import { ToolError } from '../server/index.js';
import { UpstreamUnavailable } from './upstream/index.js';

/** Upstream text in an error is cut here: an upstream must not fill the gateway's answers. */
const MAX_DETAIL = 500;

const cut = (text: string): string => (text.length > MAX_DETAIL ? `${text.slice(0, MAX_DETAIL)}…` : text);

/**
 * The error a proxied request throws for `error`: the gateway's own protocol errors (RpcError, from asking the inbound
 * client) and cancellations pass as they are; everything from the upstream becomes a ToolError naming it.
 */
export function upstreamFailure(server: string, error: unknown): unknown {
  if (error instanceof RpcError || error instanceof RequestAbortedError) return error;
  if (error instanceof UpstreamUnavailable) {
    const wait =
      error.retryAfterMs === undefined ? '' : `; try again in ${Math.ceil(error.retryAfterMs / 1000)} s`;
    return new ToolError(`upstream "${server}" is unavailable${wait}`);
  }
  if (error instanceof RequestTimeoutError)
    return new ToolError(`upstream "${server}" did not answer in time: ${cut(error.message)}`);
  if (error instanceof ConnectionClosedError)
    return new ToolError(`upstream "${server}" closed the connection during the request`);
  if (error instanceof McpError)
    return new ToolError(`upstream "${server}" answered error ${error.code}: ${cut(error.message)}`);
  if (error instanceof OutputValidationError || error instanceof ProtocolError)
    return new ToolError(`upstream "${server}" answered something invalid: ${cut(error.message)}`);
  if (error instanceof Error && error.name === 'InputRequiredSignal') return error; // the modern wire's input round
  return error; // not from the upstream: the server logs it and answers with a neutral reference
}

/**
 * The same for prompts/get and resources/read, which have no tool result to carry an error: a JSON-RPC error, the
 * upstream's own code kept when it sent one (an unknown prompt stays -32602), with the same message.
 */
export function upstreamRequestFailure(server: string, error: unknown): unknown {
  const failure = upstreamFailure(server, error);
  if (!(failure instanceof ToolError)) return failure;
  const code =
    error instanceof McpError && Number.isInteger(error.code) ? error.code : ErrorCode.InternalError;
  return new RpcError(code, failure.message);
}
