// Recognising JSON-RPC in HTTP bodies and SSE events: what to deliver, and whether a request has its answer.

import { isJsonObject, isRequestId, type RequestId } from '../../jsonrpc/index.js';

export interface JsonRpcBody {
  /** Each message as text, ready for onmessage (a batch is split into its members). */
  messages: string[];
  /** Set when the body is one error response that names no request (the server could not or did not say). */
  idlessError?: { code: unknown; message: unknown };
}

/** The JSON-RPC message(s) in a body, or undefined when the body is not JSON-RPC (an HTML error page, say). */
export function parseJsonRpcBody(text: string): JsonRpcBody | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(value)) {
    if (value.length === 0 || !value.every(isJsonRpcObject)) return undefined;
    return { messages: value.map((item) => JSON.stringify(item)) };
  }
  if (!isJsonRpcObject(value)) return undefined;
  const body: JsonRpcBody = { messages: [text] };
  if (isJsonObject(value.error) && !('method' in value) && !isRequestId(value.id)) {
    body.idlessError = { code: value.error.code, message: value.error.message };
  }
  return body;
}

/**
 * True when `data` is the response (result or error) to `requestId`. Costs a parse of the message; the client
 * parses it again, which only matters for the one large message of a request, its result.
 */
export function isResponseTo(data: string, requestId: RequestId): boolean {
  // A response has a "result" or "error" key: progress and log notifications without either cost no parse.
  if (!data.includes('"result"') && !data.includes('"error"')) return false;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return false;
  }
  return (
    isJsonObject(value) &&
    !('method' in value) &&
    ('result' in value || 'error' in value) &&
    value.id === requestId
  );
}

function isJsonRpcObject(value: unknown): value is Record<string, unknown> {
  return isJsonObject(value) && value.jsonrpc === '2.0';
}
