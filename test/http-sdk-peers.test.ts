// The official SDK clients as peers over real HTTP: @modelcontextprotocol/client 2.x on the 2026-07-28 wire and on
// the legacy wire, @modelcontextprotocol/sdk 1.x on Streamable HTTP and on the 2024-11-05 HTTP+SSE transport.
// Each lists tools, calls one with progress, cancels a slow call (the handler's ctx.signal must abort) and hears
// of a tools list change (modern: subscriptions/listen; legacy: the GET stream).

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport as SseTransportV1 } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport as HttpTransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpServer, silentLogger } from '../src/index.js';
import { HttpCore } from '../src/transports/http/core.js';
import { LegacySession } from '../src/transports/http/legacy/session.js';
import { nodeListener } from '../src/transports/http/node-adapter.js';
import { resolveHttpOptions } from '../src/transports/http/options.js';
import { deferred } from './support/harness.js';
import { waitFor } from './support/poll.js';

const CLIENT_INFO = { name: 'toolwire-http-interop', version: '0.0.0' };
const STEP_MS = 10_000;

interface CallOptions {
  onprogress?: (progress: { progress: number }) => void;
  signal?: AbortSignal;
}

/** What each SDK client is driven through, so that one scenario runs on all of them. */
interface Peer {
  listToolNames(): Promise<string[]>;
  call(name: string, options?: CallOptions): Promise<{ content: unknown }>;
  /** Arms `handler` for tools/list_changed (opening listen on the modern wire). */
  onToolsChanged(handler: () => void): Promise<void>;
  close(): Promise<void>;
}

/** Polls a condition until it holds or the deadline passes (bounded). */

describe('HTTP: the official SDK clients as peers', () => {
  const server = new McpServer({ name: 'http-peers', version: '1.0.0' }, { logger: silentLogger });
  let core: HttpCore;
  let httpServer: Server;
  let url: string;
  let gate = deferred();
  let slowStarted = deferred();
  let slowAborted = deferred();
  let added = 0;

  server.tool({
    name: 'steps',
    description: 'Reports progress, waits until the client has seen it, then finishes',
    handler: async (_args, ctx) => {
      ctx.progress(1, 2, 'first step');
      await gate.promise; // released by the client's onprogress: no race between progress and result
      gate = deferred();
      return 'all steps done';
    },
  });
  server.tool({
    name: 'slow',
    description: 'Runs until cancelled',
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          slowAborted.resolve();
          resolve('cancelled');
        });
        slowStarted.resolve();
      }),
  });

  /** Legacy peers get list_changed on their GET stream: wait until some session has it open. */
  const getStreamOpen = (): boolean =>
    [...(core.context.sessions?.values() ?? [])].some(
      (session) => session instanceof LegacySession && session.standalone.attached,
    );

  before(async () => {
    core = new HttpCore(server, resolveHttpOptions(server, { logger: silentLogger }));
    httpServer = createServer(nodeListener(core));
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  });
  after(async () => {
    await core.close();
    httpServer.closeAllConnections();
    await new Promise<void>((resolve) => httpServer.close(() => resolve()));
  });

  async function scenario(peer: Peer, era: 'modern' | 'legacy'): Promise<void> {
    try {
      const names = await peer.listToolNames();
      assert.ok(names.includes('steps') && names.includes('slow'), names.join());

      const progress: number[] = [];
      const result = await peer.call('steps', {
        onprogress: (p) => {
          progress.push(p.progress);
          gate.resolve();
        },
      });
      assert.deepEqual(result.content, [{ type: 'text', text: 'all steps done' }]);
      assert.deepEqual(progress, [1]);

      const controller = new AbortController();
      const cancelled = peer.call('slow', { signal: controller.signal });
      await slowStarted.promise;
      controller.abort();
      await assert.rejects(cancelled);
      await slowAborted.promise;
      slowStarted = deferred();
      slowAborted = deferred();

      const changed = deferred();
      await peer.onToolsChanged(() => changed.resolve());
      if (era === 'legacy') await waitFor(getStreamOpen, STEP_MS);
      server.tool({ name: `added_${++added}`, description: 'added at runtime', handler: () => 'new' });
      await changed.promise;
    } finally {
      await peer.close();
    }
  }

  function v2Peer(client: ClientV2, era: 'modern' | 'legacy'): Peer {
    let subscription: { close(): Promise<void> } | undefined;
    return {
      listToolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
      call: (name, options = {}) =>
        client.callTool({ name, arguments: {} }, { ...options, timeout: STEP_MS }),
      onToolsChanged: async (handler) => {
        client.setNotificationHandler('notifications/tools/list_changed', handler);
        if (era === 'modern') subscription = await client.listen({ toolsListChanged: true });
      },
      close: async () => {
        await subscription?.close();
        await client.close();
      },
    };
  }

  function v1Peer(client: ClientV1): Peer {
    return {
      listToolNames: async () => (await client.listTools()).tools.map((tool) => tool.name),
      // 1.x types the result as a union with the 2024 toolResult shape; this server answers with content.
      call: (name, options = {}) =>
        client.callTool({ name, arguments: {} }, undefined, { ...options, timeout: STEP_MS }) as Promise<{
          content: unknown;
        }>,
      onToolsChanged: async (handler) =>
        client.setNotificationHandler(ToolListChangedNotificationSchema, handler),
      close: () => client.close(),
    };
  }

  it('client 2.x on 2026-07-28 (server/discover, listen)', { timeout: 30_000 }, async () => {
    const client = new ClientV2(CLIENT_INFO, { versionNegotiation: { mode: { pin: '2026-07-28' } } });
    await client.connect(new HttpTransportV2(new URL(url)));
    assert.equal(client.getServerVersion()?.name, 'http-peers');
    await scenario(v2Peer(client, 'modern'), 'modern');
  });

  it('client 2.x on the legacy wire (initialize, session, GET stream)', { timeout: 30_000 }, async () => {
    const client = new ClientV2(CLIENT_INFO);
    const transport = new HttpTransportV2(new URL(url));
    await client.connect(transport);
    assert.ok(transport.sessionId);
    await scenario(v2Peer(client, 'legacy'), 'legacy');
  });

  it('sdk 1.x on Streamable HTTP (legacy)', { timeout: 30_000 }, async () => {
    const client = new ClientV1(CLIENT_INFO);
    const transport = new HttpTransportV1(new URL(url));
    await client.connect(transport);
    assert.ok(transport.sessionId);
    assert.equal(transport.protocolVersion, '2025-11-25');
    await scenario(v1Peer(client), 'legacy');
  });

  it('sdk 1.x on the 2024-11-05 HTTP+SSE transport: list and call', { timeout: 30_000 }, async () => {
    const client = new ClientV1(CLIENT_INFO);
    await client.connect(new SseTransportV1(new URL(`${url}/sse`)));
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === 'steps'));
      const progress: number[] = [];
      const result = await client.callTool({ name: 'steps', arguments: {} }, undefined, {
        onprogress: (p) => {
          progress.push(p.progress);
          gate.resolve();
        },
      });
      assert.deepEqual(result.content, [{ type: 'text', text: 'all steps done' }]);
      assert.deepEqual(progress, [1]);
    } finally {
      await client.close();
    }
  });
});
