// An in-process setup for telemetry tests: a tool server with telemetry outermost and a toolwire client over the memory
// pair (traced too when asked), both reporting to the SDK's in-memory exporter and metric reader.

import assert from 'node:assert/strict';
import { z } from 'zod';
import { McpClient, type Era } from '../../src/client/index.js';
import { telemetry, type TelemetryOptions } from '../../src/policy/telemetry/index.js';
import { LATEST_LEGACY_REVISION, MODERN_REVISION } from '../../src/protocol/index.js';
import { ToolError, type McpServer } from '../../src/server/index.js';
import { createLinkedPair } from '../../src/transports/memory/index.js';
import { testServer } from './harness.js';
import { inMemoryOtel, type Otel } from './telemetry-otel.js';

export const REMOTE_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
export const REMOTE_SPAN = '00f067aa0ba902b7';
export const TRACEPARENT = `00-${REMOTE_TRACE}-${REMOTE_SPAN}-01`;

/** `started` is told when the tool "waits" begins (so a test cancels a call that is running). */
export function toolServer(started: () => void = () => undefined): McpServer {
  const server = testServer();
  server.tool({ name: 'echo', inputSchema: z.object({ text: z.string() }), handler: ({ text }) => text });
  server.tool({
    name: 'fails',
    handler: () => {
      throw new ToolError('no such city');
    },
  });
  server.tool({
    name: 'waits',
    handler: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        started();
      }),
  });
  server.prompt({ name: 'greet', get: () => 'hello' });
  server.resource({ uri: 'test://notes/today', name: 'notes', read: () => 'nothing yet' });
  return server;
}

export interface Setup {
  otel: Otel;
  server: McpServer;
  client: McpClient;
}

/** A tool server with telemetry outermost, and a toolwire client over the memory pair (traced when `tracedClient`). */
export async function setup(
  era: Era,
  options: TelemetryOptions = {},
  tracedClient = false,
  started?: () => void,
): Promise<Setup> {
  const otel = inMemoryOtel();
  const server = toolServer(started);
  const { middleware } = telemetry({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    ...options,
  });
  assert.ok(middleware !== undefined);
  server.use(middleware);
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new McpClient(
    { name: 'telemetry-test', version: '1.0.0' },
    {
      era,
      listenForChanges: false,
      trusted: true,
      approve: 'always',
      ...(tracedClient && {
        telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
      }),
    },
  );
  await client.connect(clientSide);
  otel.reset();
  return { otel, server, client };
}

export const VERSION: Record<Era, string> = { modern: MODERN_REVISION, legacy: LATEST_LEGACY_REVISION };
