// Protocol core, subscriptions/listen (modern wire): acknowledgement, tagging, filtering, and both ways of ending.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isJsonObject, type RequestId } from '../src/jsonrpc/index.js';
import {
  connect,
  initializeLegacy,
  isNotification,
  modern,
  testServer,
  type RawClient,
  type WireMessage,
} from './support/harness.js';

const SUBSCRIPTION = 'io.modelcontextprotocol/subscriptionId';

/** The subscription id a notification is tagged with, if any. */
const subscriptionIdOf = (message: WireMessage): unknown => {
  const meta = message.params?._meta;
  return isJsonObject(meta) ? meta[SUBSCRIPTION] : undefined;
};

const tagged = (id: RequestId) => (message: WireMessage) => subscriptionIdOf(message) === id;

/** Every message of this subscription (tagged with its id, or its final result), in order. */
const streamOf = (client: RawClient, id: RequestId): WireMessage[] =>
  client
    .received()
    .filter((m): m is WireMessage => !Array.isArray(m))
    .filter((m) => tagged(id)(m) || (m.id === id && m.method === undefined) || m.params?.requestId === id);

/** Opens a listen request and waits for its acknowledgement. */
async function listen(
  client: RawClient,
  id: RequestId,
  notifications: Record<string, unknown>,
): Promise<WireMessage> {
  client.send({ jsonrpc: '2.0', id, method: 'subscriptions/listen', params: modern({ notifications }) });
  return client.waitFor(isNotification('notifications/subscriptions/acknowledged', tagged(id)));
}

describe('core subscriptions/listen', () => {
  it('SU-03 the acknowledgement comes first, tagged, with the subset the server honours', async () => {
    const client = await connect(testServer());
    const ack = await listen(client, 'sub', {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['file:///x'],
    });
    assert.deepEqual(ack, {
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { _meta: { [SUBSCRIPTION]: 'sub' }, notifications: { toolsListChanged: true } },
    });
    assert.equal(streamOf(client, 'sub')[0], ack, 'nothing of this subscription before its acknowledgement');
  });

  it('SU-04 a filter asking for nothing the server has is acknowledged with an empty set', async () => {
    const client = await connect(testServer());
    const ack = await listen(client, 7, { promptsListChanged: true, toolsListChanged: false });
    assert.deepEqual(ack.params, { _meta: { [SUBSCRIPTION]: 7 }, notifications: {} });
  });

  it('SU-10 a tool list change is delivered tagged with the listen id, its type kept (number)', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 1, { toolsListChanged: true });
    server.tool({ name: 'fresh', handler: () => 'x' });
    const change = await client.waitFor(isNotification('notifications/tools/list_changed'));
    assert.deepEqual(change, {
      jsonrpc: '2.0',
      method: 'notifications/tools/list_changed',
      params: { _meta: { [SUBSCRIPTION]: 1 } },
    });
  });

  it('SU-06 every notification on a stream is tagged: two subscriptions on one connection stay apart', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 'a', { toolsListChanged: true });
    await listen(client, 'b', { toolsListChanged: true });
    server.tool({ name: 'one', handler: () => 'x' });
    await client.flush();
    server.tool({ name: 'two', handler: () => 'x' });
    await client.flush();
    const changes = client.notifications().filter(isNotification('notifications/tools/list_changed'));
    assert.deepEqual(changes.map(subscriptionIdOf), ['a', 'b', 'a', 'b']);
    assert.equal(streamOf(client, 'a').length, 3, 'ack + two changes');
  });

  it('SU-02 a listener that did not ask for tool changes gets none', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 'prompts-only', { promptsListChanged: true });
    server.tool({ name: 'fresh', handler: () => 'x' });
    await client.flush();
    await client.flush();
    assert.deepEqual(client.notifications().filter(isNotification('notifications/tools/list_changed')), []);
  });

  it('SU-10 several changes in one tick reach a listener as one notification', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 's', { toolsListChanged: true });
    server.tool({ name: 'a', handler: () => 'x' });
    server.tool({ name: 'b', handler: () => 'x' });
    server.tools.setEnabled('a', false);
    await client.flush();
    assert.equal(client.notifications().filter(isNotification('notifications/tools/list_changed')).length, 1);
  });

  it('SU-09 notifications/cancelled from the client ends the subscription: no response, no more notifications', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 'sub', { toolsListChanged: true });
    server.tool({ name: 'before', handler: () => 'x' });
    await client.waitFor(isNotification('notifications/tools/list_changed'));
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'sub' } });
    await client.flush();
    assert.equal(server.subscriptionCount, 0);
    server.tool({ name: 'after', handler: () => 'x' });
    await client.flush();
    assert.deepEqual(
      streamOf(client, 'sub').map((m) => m.method ?? 'response'),
      ['notifications/subscriptions/acknowledged', 'notifications/tools/list_changed'],
    );
  });

  it('SU-08 server.close() ends a subscription gracefully: its result (with serverInfo, B-30), then notifications/cancelled for its id', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 'sub', { toolsListChanged: true });
    await server.close();
    await client.waitFor(isNotification('notifications/cancelled'));
    assert.deepEqual(streamOf(client, 'sub').slice(1), [
      {
        jsonrpc: '2.0',
        id: 'sub',
        result: {
          resultType: 'complete',
          _meta: {
            'io.modelcontextprotocol/serverInfo': { name: 'core-test', version: '1.0.0' },
            [SUBSCRIPTION]: 'sub',
          },
        },
      },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'sub', reason: 'server shutting down' },
      },
    ]);
  });

  it('SU-09 a closed connection drops its subscriptions without anything more being sent', async () => {
    const server = testServer();
    const client = await connect(server);
    await listen(client, 'sub', { toolsListChanged: true });
    assert.equal(server.subscriptionCount, 1);
    await client.transport.close();
    assert.equal(server.subscriptionCount, 0);
  });

  it('B-03 a listen request id stays in use while the subscription is open', async () => {
    const client = await connect(testServer());
    await listen(client, 'sub', { toolsListChanged: true });
    assert.deepEqual(await client.request('tools/list', modern(), { id: 'sub' }), {
      jsonrpc: '2.0',
      id: 'sub',
      error: { code: -32600, message: 'Invalid Request: id "sub" is already in use by a request in flight' },
    });
  });

  for (const [label, params] of [
    ['missing', {}],
    ['an array', { notifications: ['toolsListChanged'] }],
    ['true', { notifications: true }],
  ] as const) {
    it(`SU-01 params.notifications ${label} gets -32602`, async () => {
      const client = await connect(testServer());
      assert.deepEqual(await client.request('subscriptions/listen', modern(params), { id: 'l' }), {
        jsonrpc: '2.0',
        id: 'l',
        error: {
          code: -32602,
          message: 'Invalid params: subscriptions/listen needs params.notifications (an object)',
        },
      });
    });
  }

  it('§1.5.2 subscriptions/listen is modern only: in a legacy session it is -32601', async () => {
    const client = await connect(testServer());
    await initializeLegacy(client, '2025-11-25');
    const response = await client.request('subscriptions/listen', {
      notifications: { toolsListChanged: true },
    });
    assert.deepEqual(response.error, { code: -32601, message: 'Method not found: subscriptions/listen' });
  });
});
