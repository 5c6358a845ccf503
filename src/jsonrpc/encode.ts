// Encoding of outgoing JSON-RPC messages. Results that were serialised ahead of time are spliced in as text.

import type { RequestId } from './message.js';

/** The JSON text of an id: numbers as digits, strings quoted and escaped. */
export const encodeId = (id: RequestId): string => (typeof id === 'number' ? String(id) : JSON.stringify(id));

/** A success response around an already-serialised result object. */
export const encodeResultText = (id: RequestId, resultJson: string): string =>
  '{"jsonrpc":"2.0","id":' + encodeId(id) + ',"result":' + resultJson + '}';

export const encodeResult = (id: RequestId, result: object): string =>
  encodeResultText(id, JSON.stringify(result));

/** An error response; the id is omitted when it could not be read from the request. */
export function encodeError(
  id: RequestId | undefined,
  code: number,
  message: string,
  data?: unknown,
): string {
  const error = data === undefined ? { code, message } : { code, message, data };
  return id === undefined
    ? JSON.stringify({ jsonrpc: '2.0', error })
    : '{"jsonrpc":"2.0","id":' + encodeId(id) + ',"error":' + JSON.stringify(error) + '}';
}

export const encodeNotification = (method: string, params?: object): string =>
  params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', method })
    : '{"jsonrpc":"2.0","method":' + JSON.stringify(method) + ',"params":' + JSON.stringify(params) + '}';

export const encodeRequest = (id: RequestId, method: string, params?: object): string =>
  params === undefined
    ? JSON.stringify({ jsonrpc: '2.0', id, method })
    : JSON.stringify({ jsonrpc: '2.0', id, method, params });
