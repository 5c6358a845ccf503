// A small MCP server for the model-API bridge tests: real toolwire tools (text, structured, image, error, a key
// with brackets, a dotted name), connected to toolwire's client over the in-memory transport.

import { McpClient, type ClientOptions } from '../src/client/index.js';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';

/** A 1×1 transparent PNG. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

export interface Shop {
  server: McpServer;
  client: McpClient;
  /** The arguments each tool received, in order. */
  received: Array<{ tool: string; arguments: JsonObject }>;
  close(): Promise<void>;
}

/** `approveAll: false` leaves the client without an approval hook (its default: only trusted read-only tools run). */
export async function startShop(options: ClientOptions = {}, approveAll = true): Promise<Shop> {
  const server = new McpServer({ name: 'shop', version: '1.0.0' }, { logger: silentLogger });
  const received: Shop['received'] = [];
  server.tool({
    name: 'add',
    description: 'Adds two numbers.',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'number' },
        b: { type: 'number' },
        'round[to]': { type: 'integer', minimum: 0, description: 'Decimals to keep' },
      },
      required: ['a', 'b'],
    },
    annotations: { readOnlyHint: true },
    handler: (args) => {
      received.push({ tool: 'add', arguments: args });
      return { sum: Number(args.a) + Number(args.b) };
    },
  });
  server.tool({
    name: 'chart.render',
    description: 'Draws a chart.',
    inputSchema: { type: 'object', properties: { title: { type: 'string' } } },
    handler: (args) => {
      received.push({ tool: 'chart.render', arguments: args });
      return {
        content: [
          { type: 'text', text: 'Here is the chart.' },
          { type: 'image', mimeType: 'image/png', data: PNG },
        ],
      };
    },
  });
  server.tool({
    name: 'fail',
    description: 'Always fails.',
    inputSchema: { type: 'object' },
    handler: (args) => {
      received.push({ tool: 'fail', arguments: args });
      return { content: [{ type: 'text', text: 'the disk is full' }], isError: true };
    },
  });
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new McpClient(
    { name: 'llm-test', version: '1' },
    { ...(approveAll ? { approve: 'always' as const } : {}), logger: { warn: () => undefined }, ...options },
  );
  await client.connect(clientSide);
  return { server, client, received, close: () => client.close() };
}
