// The Vercel AI SDK's MCP client (@ai-sdk/mcp 1.x) against toolwire's HTTP endpoint on a 2025-11-25 session: it
// lists, calls (a JSON answer, and an SSE one carrying an elicitation) with its GET stream open, and its error
// callback never fires. (It reports every server notification as "Unsupported message type", so none is sent.) It used to report "Failed to parse message" for the empty priming event that opened every stream;
// that event now goes out only where it serves resumability: before the server closes a stream to be polled.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { within } from './fixtures/client/harness.js';

const STEP_MS = 15_000;
const LATEST_LEGACY = '2025-11-25';

interface ExecutableTool {
  execute(args: object, options: { toolCallId: string; messages: [] }): Promise<unknown>;
}

describe('@ai-sdk/mcp 1.x as a peer on a 2025-11-25 session', () => {
  const server = new McpServer({ name: 'ai-sdk-peer', version: '1.0.0' }, { logger: silentLogger });
  server.tool({ name: 'greet', description: 'Answers at once (JSON)', handler: () => 'hello' });
  server.tool({
    name: 'confirm',
    description: 'Asks the user first, so its answer is an SSE stream carrying the elicitation request',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Go ahead?',
        requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
      });
      return answer.action === 'accept' ? 'confirmed' : 'not confirmed';
    },
  });
  server.tool({
    name: 'poll_first',
    description: 'Closes its stream before anything was sent on it (2025-11-25 polling), then finishes',
    handler: async (_args, ctx) => {
      ctx.closeStream();
      await new Promise((resolve) => setImmediate(resolve));
      return 'polled';
    },
  });
  let listening: HttpListening;

  before(async () => {
    listening = await listenHttp(server, { port: 0 });
  });
  after(async () => {
    await listening.close();
    await server.close();
  });

  it('lists and calls (a JSON answer and an SSE one), opens its GET stream; no error callback fires', async () => {
    const errors: unknown[] = [];
    // What arrives on the GET stream the client opens after initialization: nothing, until the server has news.
    let getBytes = '';
    let getOpened = false;
    const recordingFetch: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method !== 'GET' || response.body === null) return response;
      getOpened = true;
      const decoder = new TextDecoder();
      const seen = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          getBytes += decoder.decode(chunk, { stream: true });
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(seen), response);
    };
    const client = await within(
      createMCPClient({
        transport: { type: 'http', url: listening.url, fetch: recordingFetch },
        capabilities: { elicitation: {} },
        onUncaughtError: (error) => errors.push(error),
      }),
      STEP_MS,
      'the AI SDK client to connect',
    );
    client.onElicitationRequest(ElicitationRequestSchema, () => ({
      action: 'accept',
      content: { ok: true },
    }));
    try {
      const listed = await within(client.listTools(), STEP_MS, 'tools/list');
      assert.deepEqual(
        listed.tools.map((tool) => tool.name),
        ['greet', 'confirm', 'poll_first'],
      );
      const tools = (await client.tools()) as unknown as Record<string, ExecutableTool>;
      const call = (name: string) =>
        within(tools[name]!.execute({}, { toolCallId: name, messages: [] }), STEP_MS, name);
      assert.deepEqual(await call('greet'), { content: [{ type: 'text', text: 'hello' }], isError: false });
      assert.deepEqual(await call('confirm'), {
        content: [{ type: 'text', text: 'confirmed' }],
        isError: false,
      });
      // One more round trip: an event written when the GET stream opened has long arrived by now.
      await within(client.listTools(), STEP_MS, 'tools/list again');
      assert.equal(getOpened, true, 'the client opened its GET stream');
      assert.equal(getBytes, '', 'no priming event on the GET stream');
      assert.deepEqual(errors, []);
    } finally {
      await client.close();
    }
  });

  it('a stream closed before any event gets the priming event first (an id, empty data), then retry', async () => {
    const initialize = await fetch(listening.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: LATEST_LEGACY,
          capabilities: {},
          clientInfo: { name: 'raw', version: '0' },
        },
      }),
    });
    const session = initialize.headers.get('mcp-session-id');
    assert.ok(session);
    await initialize.text();
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-session-id': session,
      'mcp-protocol-version': LATEST_LEGACY,
    };
    await (
      await fetch(listening.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      })
    ).text();
    const call = await fetch(listening.url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'poll_first' } }),
    });
    assert.equal(call.headers.get('content-type'), 'text/event-stream');
    const text = await within(call.text(), STEP_MS, 'the released stream to end');
    assert.match(text, /^id: (\d+)\.1\ndata: \n\nretry: 1000\n\n$/);
    await fetch(listening.url, { method: 'DELETE', headers });
  });
});
