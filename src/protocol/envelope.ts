// Reading and checking the per-request _meta envelope of the modern wire (2026-07-28).

import { ErrorCode, RpcError, isJsonObject, isRequestId, type JsonObject } from '../jsonrpc/index.js';
import { isLoggingLevel } from './logging.js';
import { MetaKey } from './meta.js';
import { MODERN_REVISIONS, isModernRevision } from './revisions.js';
import type { ClientCapabilities, Implementation, RequestEnvelope } from './types.js';

/** True when a request's params carry the modern envelope marker (the protocolVersion key). */
export const hasModernMeta = (params: JsonObject | undefined): boolean => {
  const meta = params?._meta;
  return isJsonObject(meta) && MetaKey.ProtocolVersion in meta;
};

const readClientInfo = (value: unknown): Implementation | undefined =>
  isJsonObject(value) && typeof value.name === 'string' && typeof value.version === 'string'
    ? (value as unknown as Implementation)
    : undefined;

/**
 * Validates the per-request _meta of a modern request and returns what it says.
 * Missing or malformed required keys → -32602; an unsupported version → -32022 with data.supported/requested.
 */
export function readModernEnvelope(params: JsonObject | undefined): RequestEnvelope {
  const meta = params?._meta;
  if (!isJsonObject(meta)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: missing params._meta; 2026-07-28 requests carry "${MetaKey.ProtocolVersion}" and "${MetaKey.ClientCapabilities}" there (or start a legacy session with initialize)`,
    );
  }
  const version = meta[MetaKey.ProtocolVersion];
  if (typeof version !== 'string' || version.length === 0) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: params._meta["${MetaKey.ProtocolVersion}"] is required`,
    );
  }
  const capabilities = meta[MetaKey.ClientCapabilities];
  if (!isJsonObject(capabilities)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: params._meta["${MetaKey.ClientCapabilities}"] is required and must be an object ({} for none)`,
    );
  }
  if (!isModernRevision(version)) {
    throw new RpcError(ErrorCode.UnsupportedProtocolVersion, `Unsupported protocol version: ${version}`, {
      supported: [...MODERN_REVISIONS],
      requested: version,
    });
  }
  const logLevel = meta[MetaKey.LogLevel];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: params._meta["${MetaKey.LogLevel}"] must be one of debug, info, notice, warning, error, critical, alert, emergency`,
    );
  }
  const progressToken = meta.progressToken;
  if (progressToken !== undefined && !isRequestId(progressToken)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: params._meta.progressToken must be a string or an integer',
    );
  }
  return {
    protocolVersion: version,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: readClientInfo(meta[MetaKey.ClientInfo]),
    logLevel,
    progressToken,
  };
}

/** The envelope of a legacy request: the session's facts plus the request's own progress token. */
export function legacyProgressToken(params: JsonObject | undefined): string | number | undefined {
  const meta = params?._meta;
  if (!isJsonObject(meta)) return undefined;
  const token = meta.progressToken;
  return isRequestId(token) ? token : undefined;
}
