// resources/read, and legacy resources/subscribe / unsubscribe (the lists are in list-page.ts).

import { ErrorCode, RpcError } from '../jsonrpc/index.js';
import { RunSpec, execute, protocolOutcome } from './execute.js';
import type { RequestScope } from './request-scope.js';
import { readResolved, resourceNotFound } from './resources.js';
import { MAX_RESOURCE_SUBSCRIPTIONS } from './subscription-hub.js';

const invalid = (message: string): RpcError =>
  new RpcError(ErrorCode.InvalidParams, `Invalid params: ${message}`);

const readUri = (scope: RequestScope): string => {
  const uri = scope.params?.uri;
  if (typeof uri !== 'string' || uri.length === 0)
    throw invalid(`${scope.method} needs params.uri (a string)`);
  return uri;
};

export async function readResource(scope: RequestScope): Promise<object | undefined> {
  const uri = readUri(scope);
  const server = scope.services;
  const modern = scope.era === 'modern';
  const resolved = scope.resolved?.kind === 'resource' ? scope.resolved.resource : undefined;
  if (resolved === undefined) throw resourceNotFound(uri, modern);
  const execution = await execute(
    scope,
    new RunSpec(`resource:${uri}`, {}, resolved.record.config.timeoutMs ?? server.defaultTimeoutMs, (ctx) =>
      readResolved(resolved, uri, ctx),
    ),
  );
  const outcome = protocolOutcome(execution, `Reading "${uri}"`);
  if ('reply' in outcome) return outcome.reply;
  const contents = outcome.value as unknown[]; // readResolved returns normalised contents
  if (contents.length === 0) throw resourceNotFound(uri, modern);
  if (!modern) return { contents };
  const hints = server.resourceReadCache;
  return { contents, ttlMs: hints.ttlMs, cacheScope: hints.cacheScope };
}

export function subscribeResource(scope: RequestScope): object {
  const uri = readUri(scope);
  if (scope.resolveResource(uri) === undefined) throw resourceNotFound(uri, false);
  const session = scope.connection.legacy;
  if (session === undefined) return {};
  if (
    !session.resourceSubscriptions.has(uri) &&
    session.resourceSubscriptions.size >= MAX_RESOURCE_SUBSCRIPTIONS
  ) {
    throw invalid(
      `this session already has ${MAX_RESOURCE_SUBSCRIPTIONS} resource subscriptions; unsubscribe from some first`,
    );
  }
  session.resourceSubscriptions.add(uri);
  return {};
}

export function unsubscribeResource(scope: RequestScope): object {
  const uri = readUri(scope);
  scope.connection.legacy?.resourceSubscriptions.delete(uri);
  return {};
}
