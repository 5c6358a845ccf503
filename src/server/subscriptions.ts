// subscriptions/listen (modern wire): acknowledgement first, then only the notifications the client asked for.

import { ErrorCode, RpcError, encodeNotification, encodeResultText, isJsonObject } from '../jsonrpc/index.js';
import { MetaKey, Notification, onTransportAbort, type SubscriptionFilter } from '../protocol/index.js';
import { subscriptionMeta, type RequestScope } from './request-scope.js';
import type { Subscription } from './subscription-hub.js';

/** Listen requests open at once across the whole server; more are refused. */
export const MAX_SUBSCRIPTIONS = 10_000;

export function listen(scope: RequestScope): Promise<undefined> {
  const requested = scope.params?.notifications;
  if (!isJsonObject(requested)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: subscriptions/listen needs params.notifications (an object)',
    );
  }
  const server = scope.services;
  if (server.subscriptions.size >= MAX_SUBSCRIPTIONS) {
    throw new RpcError(
      ErrorCode.InternalError,
      `Too many open subscriptions (limit ${MAX_SUBSCRIPTIONS}); close some first`,
    );
  }
  const agreed: SubscriptionFilter = server.subscriptions.agree(requested, scope.envelope.clientCapabilities);
  if (server.visibility.active && agreed.resourceSubscriptions !== undefined) {
    // Updates of a resource this caller cannot see would tell it the resource exists and changes: not agreed to.
    const seen = agreed.resourceSubscriptions.filter((uri) => scope.resolveResource(uri) !== undefined);
    if (seen.length > 0) agreed.resourceSubscriptions = seen;
    else delete agreed.resourceSubscriptions;
  }
  scope.connection.track(scope);
  return new Promise<undefined>((resolve) => {
    const subscription: Subscription = {
      scope,
      filter: agreed,
      end(graceful) {
        server.subscriptions.remove(subscription);
        scope.connection.untrack(scope);
        if (graceful && !scope.cancelled) {
          scope.respond(
            encodeResultText(
              scope.id,
              server.modernResultJson({ _meta: { [MetaKey.SubscriptionId]: scope.id } }),
            ),
          );
          // On stream transports the spec also has the server reference the listen id in notifications/cancelled.
          if (scope.extra?.reply === undefined) {
            scope.connection.send(
              encodeNotification(Notification.Cancelled, {
                requestId: scope.id,
                reason: 'server shutting down',
              }),
            );
          }
        }
        resolve(undefined);
      },
    };
    scope.onCancel = () => subscription.end(false);
    onTransportAbort(scope.extra, () => scope.cancel('response stream closed'));
    scope.notify(
      encodeNotification(Notification.SubscriptionsAcknowledged, {
        _meta: subscriptionMeta(scope.id),
        notifications: agreed,
      }),
    );
    server.subscriptions.add(subscription);
  });
}
