// Encoding of outgoing JSON-RPC messages. Results that were serialised ahead of time are spliced in as text.

import { isRequestId, type RequestId } from './message.js';

/** The JSON text of an id: numbers as digits, strings quoted and escaped. */
export const encodeId = (id: RequestId): string => (typeof id === 'number' ? String(id) : JSON.stringify(id));

/** A success response around an already-serialised result object. */
export const encodeResultText = (id: RequestId, resultJson: string): string =>
  '{"jsonrpc":"2.0","id":' + encodeId(id) + ',"result":' + resultJson + '}';

export const encodeResult = (id: RequestId, result: object): string =>
  encodeResultText(id, JSON.stringify(result));

/**
 * An error response. Its id is a string, an integer or null, nothing else: `undefined` leaves the id out (a single
 * message whose id could not be read), `null` writes `"id":null` (an entry of a batch answer, where every entry
 * needs one), and anything that is not a request id is written as null rather than echoed.
 */
export function encodeError(
  id: RequestId | null | undefined,
  code: number,
  message: string,
  data?: unknown,
): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  if (id === undefined) return JSON.stringify({ jsonrpc: '2.0', error });
  // The check costs nothing next to JSON.stringify, and holds even where a cast upstream lied about the type.
  const idText = isRequestId(id) ? encodeId(id) : 'null';
  return '{"jsonrpc":"2.0","id":' + idText + ',"error":' + JSON.stringify(error) + '}';
}

export const encodeNotification = (method: string, params?: object): string =>
  params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', method })
    : '{"jsonrpc":"2.0","method":' + JSON.stringify(method) + ',"params":' + JSON.stringify(params) + '}';

export const encodeRequest = (id: RequestId, method: string, params?: object): string =>
  params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', id, method })
    : JSON.stringify({ jsonrpc: '2.0', id, method, params });
