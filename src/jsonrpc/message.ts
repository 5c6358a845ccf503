// JSON-RPC 2.0 message shapes and the structural checks every incoming message goes through.

import { ErrorCode } from './codes.js';
import { RpcError } from './rpc-error.js';

/** A request id: a string or an integer. 0 and negative numbers are real ids. */
export type RequestId = string | number;

export type JsonObject = Record<string, unknown>;

export interface JsonRpcRequest {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: JsonObject;
}

export interface JsonRpcNotification {
  jsonrpc: '2.0';
  method: string;
  params?: JsonObject;
}

export interface JsonRpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export interface JsonRpcSuccess {
  jsonrpc: '2.0';
  id: RequestId;
  result: JsonObject;
}

export interface JsonRpcFailure {
  jsonrpc: '2.0';
  id?: RequestId;
  error: JsonRpcErrorObject;
}

export type JsonRpcResponse = JsonRpcSuccess | JsonRpcFailure;

/** The outcome of checking one decoded JSON value that is not an array: one message, or why it is none. */
export type SingleMessage =
  | { kind: 'request'; message: JsonRpcRequest }
  | { kind: 'notification'; message: JsonRpcNotification }
  | { kind: 'response'; message: JsonRpcResponse }
  | { kind: 'invalid'; id: RequestId | undefined; error: RpcError };

/** The outcome of checking one decoded JSON value: a message, or a batch whose items are still to be judged. */
export type Classified = SingleMessage | { kind: 'batch'; items: unknown[] };

export const isRequestId = (value: unknown): value is RequestId =>
  typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));

export const isJsonObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const invalid = (id: RequestId | undefined, code: number, message: string): SingleMessage => ({
  kind: 'invalid',
  id,
  error: new RpcError(code, message),
});

/** Classifies one parsed JSON value as a request, notification, response or batch, or says why it is none. */
export function classify(value: unknown): Classified {
  if (Array.isArray(value)) {
    if (value.length === 0)
      return invalid(undefined, ErrorCode.InvalidRequest, 'Invalid Request: empty batch');
    return { kind: 'batch', items: value };
  }
  return classifyMessage(value);
}

/**
 * Judges one decoded value as a single message; an array is not one. A string is a value like any other (an
 * Invalid Request), never text to decode again.
 */
export function classifyMessage(value: unknown): SingleMessage {
  if (!isJsonObject(value)) {
    return invalid(
      undefined,
      ErrorCode.InvalidRequest,
      'Invalid Request: a JSON-RPC message must be a JSON object',
    );
  }
  const rawId = value.id;
  const readableId = isRequestId(rawId) ? rawId : undefined;
  if (value.jsonrpc !== '2.0') {
    return invalid(readableId, ErrorCode.InvalidRequest, 'Invalid Request: "jsonrpc" must be exactly "2.0"');
  }
  const method = value.method;
  if (method !== undefined) {
    if (typeof method !== 'string' || method.length === 0) {
      return invalid(
        readableId,
        ErrorCode.InvalidRequest,
        'Invalid Request: "method" must be a non-empty string',
      );
    }
    const params = value.params;
    if (params !== undefined && !isJsonObject(params)) {
      // JSON-RPC: a notification is never answered, not even to say its params are wrong.
      if (!('id' in value)) return { kind: 'notification', message: { jsonrpc: '2.0', method } };
      const code = Array.isArray(params) ? ErrorCode.InvalidParams : ErrorCode.InvalidRequest;
      return invalid(readableId, code, `Invalid params: "params" of ${method} must be a JSON object`);
    }
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (readableId === undefined) {
      return invalid(
        undefined,
        ErrorCode.InvalidRequest,
        'Invalid Request: "id" must be a string or an integer (null is not allowed)',
      );
    }
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if ('error' in value) {
    // An error may answer a message whose id could not be read: then its id is null or absent, and nothing else.
    if (readableId === undefined && rawId !== undefined && rawId !== null) {
      return invalid(
        undefined,
        ErrorCode.InvalidRequest,
        'Invalid Request: the "id" of an error response must be a string, an integer or null',
      );
    }
    const error = value.error;
    if (!isJsonObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
      return invalid(
        readableId,
        ErrorCode.InvalidRequest,
        'Invalid Request: "error" must have an integer code and a message',
      );
    }
    // Rare: an error with id null keeps its meaning, but no null id travels past this point.
    if (rawId === null) {
      const checked = error as unknown as JsonRpcErrorObject; // its code and message were checked just above
      return { kind: 'response', message: { jsonrpc: '2.0', error: checked } };
    }
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  if ('result' in value) {
    if (readableId === undefined) {
      return invalid(
        undefined,
        ErrorCode.InvalidRequest,
        'Invalid Request: a response needs a string or integer "id"',
      );
    }
    if (!isJsonObject(value.result)) {
      return invalid(readableId, ErrorCode.InvalidRequest, 'Invalid Request: "result" must be a JSON object');
    }
    return { kind: 'response', message: value as unknown as JsonRpcResponse };
  }
  return invalid(
    readableId,
    ErrorCode.InvalidRequest,
    'Invalid Request: a message needs "method", "result" or "error"',
  );
}
