// The legacy era's own requests: the initialize handshake that opens a session, and logging/setLevel.

import {
  ErrorCode,
  RpcError,
  encodeError,
  encodeResultText,
  isJsonObject,
  type JsonObject,
  type RequestId,
} from '../jsonrpc/index.js';
import {
  isLoggingLevel,
  negotiateLegacyRevision,
  type ClientCapabilities,
  type Implementation,
  type MessageExtra,
  type ServerCapabilities,
} from '../protocol/index.js';
import type { ServerConnection } from './connection.js';
import type { RequestScope } from './request-scope.js';

export interface ServerFacts {
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions: string | undefined;
}

/** Negotiates a legacy revision (the client's if we speak it, else our latest legacy one) and opens the session. */
export function openLegacySession(
  connection: ServerConnection,
  id: RequestId,
  params: JsonObject | undefined,
  extra: MessageExtra | undefined,
  facts: ServerFacts,
): void {
  const reply = (message: string, errorCode?: number): void => {
    const options =
      errorCode === undefined
        ? { relatedRequestId: id, final: true }
        : { relatedRequestId: id, final: true, errorCode };
    if (extra?.reply !== undefined) extra.reply(message, options);
    else connection.send(message, options);
  };
  if (connection.legacy !== undefined) {
    reply(
      encodeError(id, ErrorCode.InvalidRequest, 'Invalid Request: this connection is already initialized'),
      ErrorCode.InvalidRequest,
    );
    return;
  }
  if (typeof params?.protocolVersion !== 'string') {
    reply(
      encodeError(
        id,
        ErrorCode.InvalidParams,
        'Invalid params: initialize needs params.protocolVersion (a string)',
      ),
      ErrorCode.InvalidParams,
    );
    return;
  }
  const capabilities = isJsonObject(params.capabilities) ? (params.capabilities as ClientCapabilities) : {};
  const info = params.clientInfo;
  const revision = negotiateLegacyRevision(params.protocolVersion);
  connection.legacy = {
    revision,
    clientCapabilities: capabilities,
    clientInfo:
      isJsonObject(info) && typeof info.name === 'string' ? (info as unknown as Implementation) : undefined,
    logLevel: undefined,
    initialized: false,
    resourceSubscriptions: new Set(),
  };
  const result: JsonObject = {
    protocolVersion: revision,
    capabilities: facts.capabilities,
    serverInfo: facts.serverInfo,
  };
  if (facts.instructions !== undefined && revision !== '2024-11-05') result.instructions = facts.instructions;
  reply(encodeResultText(id, JSON.stringify(result)));
}

export function setLogLevel(scope: RequestScope): object {
  const level = scope.params?.level;
  if (!isLoggingLevel(level)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency',
    );
  }
  const session = scope.connection.legacy;
  if (session !== undefined) session.logLevel = level;
  return {};
}
