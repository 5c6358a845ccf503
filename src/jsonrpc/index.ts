// JSON-RPC 2.0: message shapes, classification, bounded parsing, encoding and the wire error class.

export { ErrorCode, type ErrorCodeValue } from './codes.js';
export { RpcError } from './rpc-error.js';
export { splitBatch, type Batch } from './batch.js';
export {
  classify,
  classifyMessage,
  isJsonObject,
  isRequestId,
  type Classified,
  type JsonObject,
  type JsonRpcErrorObject,
  type JsonRpcFailure,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type JsonRpcSuccess,
  type SingleMessage,
  type RequestId,
} from './message.js';
export { DEFAULT_MAX_JSON_DEPTH, jsonDepthExceeds, parseJson } from './parse.js';
export {
  encodeError,
  encodeId,
  encodeNotification,
  encodeRequest,
  encodeResult,
  encodeResultText,
} from './encode.js';
