// The legacy era's own requests: the initialize handshake that opens a session, and logging/setLevel.

import { ErrorCode, RpcError, type JsonObject } from '../jsonrpc/index.js';
import {
  isLoggingLevel,
  isLegacyRevision,
  type Implementation,
  type ServerCapabilities,
} from '../protocol/index.js';
import type { RequestScope } from './request-scope.js';

export interface ServerFacts {
  capabilities: ServerCapabilities;
  serverInfo: Implementation;
  instructions: string | undefined;
}

/**
 * Opens the session with the revision the pipeline negotiated (the client's if we speak it, else our latest legacy
 * one; never 2026-07-28), for the caller that sent it.
 */
export function initialize(scope: RequestScope, facts: ServerFacts): object {
  const connection = scope.connection;
  if (connection.legacy !== undefined) {
    throw new RpcError(ErrorCode.InvalidRequest, 'Invalid Request: this connection is already initialized');
  }
  if (typeof scope.params?.protocolVersion !== 'string') {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: initialize needs params.protocolVersion (a string)',
    );
  }
  const { protocolVersion: revision, clientCapabilities, clientInfo } = scope.envelope;
  if (!isLegacyRevision(revision))
    throw new Error(`initialize negotiated ${revision}, not a legacy revision`);
  connection.legacy = {
    revision,
    clientCapabilities,
    clientInfo,
    logLevel: undefined,
    initialized: false,
    resourceSubscriptions: new Set(),
    caller: scope.caller,
  };
  const result: JsonObject = {
    protocolVersion: revision,
    capabilities: facts.capabilities as JsonObject,
    serverInfo: facts.serverInfo as unknown as JsonObject,
  };
  if (facts.instructions !== undefined && revision !== '2024-11-05') result.instructions = facts.instructions;
  return result;
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
