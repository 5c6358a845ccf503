// The one error class that may be sent to a peer as a JSON-RPC error response.

/**
 * An error meant for the peer: its code, message and data are sent as they are.
 * Anything else thrown inside the server is normalised into a neutral internal error.
 */
export class RpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'RpcError';
    this.code = code;
    this.data = data;
  }
}
