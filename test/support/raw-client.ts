// Small additions to the raw harness for resources, prompts, completion and tasks: capabilities, listen streams, results.

import assert from 'node:assert/strict';
import { isJsonObject, type JsonObject, type RequestId } from '../../src/jsonrpc/index.js';
import { MetaKey } from '../../src/protocol/index.js';
import {
  SERVER_INFO_META,
  isNotification,
  modern,
  type RawClient,
  type WireError,
  type WireMessage,
} from './harness.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Client capabilities that declare the tasks extension (and, when asked, elicitation). */
export const tasksCapabilities = (extra: JsonObject = {}): JsonObject => ({
  extensions: { [TASKS_EXTENSION]: {} },
  ...extra,
});

/** Params of a modern request that declares these client capabilities. */
export const modernWith = (capabilities: JsonObject, params: JsonObject = {}): JsonObject =>
  modern(params, { [MetaKey.ClientCapabilities]: capabilities });

/** The members of a modern result besides resultType "complete" and the serverInfo `_meta` (both checked). */
export function completeResult(response: WireMessage): Record<string, unknown> {
  assert.equal(response.error, undefined, `expected a result, got ${JSON.stringify(response.error)}`);
  const { resultType, _meta, ...rest } = response.result ?? {};
  assert.equal(resultType, 'complete');
  assert.deepEqual(_meta, SERVER_INFO_META);
  return rest;
}

/** The error of a response (asserting there is no result). */
export function errorOf(response: WireMessage): WireError {
  assert.equal(response.result, undefined, `expected an error, got ${JSON.stringify(response.result)}`);
  assert.ok(response.error !== undefined, 'the response has neither result nor error');
  return response.error;
}

/** The subscription id a notification is tagged with, if any. */
export const subscriptionIdOf = (message: WireMessage): unknown => {
  const meta = message.params?._meta;
  return isJsonObject(meta) ? meta[MetaKey.SubscriptionId] : undefined;
};

/** A notification with this method, tagged with this subscription id. */
export const isTagged =
  (method: string, subscriptionId: RequestId, check: (params: JsonObject) => boolean = () => true) =>
  (message: WireMessage): boolean =>
    isNotification(method)(message) &&
    subscriptionIdOf(message) === subscriptionId &&
    check(message.params ?? {});

/**
 * Opens a subscriptions/listen stream (the request stays in flight) and resolves with the acknowledgement's
 * `notifications` once it arrived. Capabilities default to none.
 */
export async function openListen(
  client: RawClient,
  id: RequestId,
  notifications: JsonObject,
  capabilities: JsonObject = {},
): Promise<JsonObject> {
  const from = client.received().length;
  client.send({
    jsonrpc: '2.0',
    id,
    method: 'subscriptions/listen',
    params: modernWith(capabilities, { notifications }),
  });
  const ack = await client.waitFor(
    (message) => isTagged('notifications/subscriptions/acknowledged', id)(message) || message.id === id,
    undefined,
    from,
  );
  assert.equal(ack.method, 'notifications/subscriptions/acknowledged', JSON.stringify(ack));
  return ack.params?.notifications as JsonObject;
}

/** Waits until a notifications/tasks for `taskId` with `status` arrives on the listen stream `subscriptionId`. */
export const waitForTaskStatus = (
  client: RawClient,
  subscriptionId: RequestId,
  taskId: string,
  status: string,
): Promise<WireMessage> =>
  client.waitFor(
    isTagged(
      'notifications/tasks',
      subscriptionId,
      (params) => params.taskId === taskId && params.status === status,
    ),
  );

/** An ISO 8601 timestamp as Date#toISOString writes it. */
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
