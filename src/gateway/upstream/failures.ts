// Which failed requests say an upstream is unwell (they count for its circuit) and which only say it answered.

import { ConnectionClosedError, McpError, ProtocolError, RequestTimeoutError } from '../../client/index.js';
import { TransportError } from '../../protocol/index.js';
import { UpstreamTimeout } from './errors.js';

/**
 * No answer in time, a closed connection, a transport failure, a broken protocol, a 5xx: the upstream is unwell.
 * A JSON-RPC error or a tool error is an answer: it is alive. (A caller's own cancel is neither; see Upstream.call.)
 */
export function isUpstreamFailure(error: unknown): boolean {
  if (error instanceof McpError) return error.httpStatus !== undefined && error.httpStatus >= 500;
  return (
    error instanceof RequestTimeoutError ||
    error instanceof ConnectionClosedError ||
    error instanceof TransportError ||
    error instanceof ProtocolError ||
    error instanceof UpstreamTimeout
  );
}

export const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
