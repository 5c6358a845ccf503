// Per-call input handlers (CallOptions.handlers): each call's input requests reach that call's handlers — MRTR rounds
// on the modern wire, server→client requests on legacy Streamable HTTP (the response stream names the call), and on
// a wire that names nothing (stdio, memory) the one call in flight, or the client-wide handlers when there are several.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpClient, type ClientOptions, type InputHandlers } from '../src/client/index.js';
import type { Transport } from '../src/protocol/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { CLIENT_INFO, deferred, within } from './fixtures/client/harness.js';

const STEP_MS = 15_000;
const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * A server whose `ask` tool waits until `expected` calls have started (so they are all in flight when the first
 * one asks), then asks the user for a name and says who answered.
 */
function askingServer(expected: number): McpServer {
  const server = new McpServer({ name: 'asking', version: '1.0.0' }, { logger: silentLogger });
  let started = 0;
  const everyone = deferred();
  server.tool({
    name: 'ask',
    inputSchema: { type: 'object', properties: { who: { type: 'string' } }, required: ['who'] },
    handler: async (args, ctx) => {
      if (++started >= expected) everyone.resolve();
      await everyone.promise;
      const answer = await ctx.elicit({
        message: `name for ${String(args.who)}`,
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return `${String(args.who)} got ${String(answer.content?.name)}`;
    },
  });
  server.prompt({
    name: 'greet',
    get: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'who is greeted',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      });
      return `hello ${String(answer.content?.name)}`;
    },
  });
  return server;
}

/** Handlers that answer every elicitation with `name`. */
const naming = (name: string): InputHandlers => ({
  elicitation: () => ({ action: 'accept', content: { name } }),
});

async function client(transport: Transport, options: ClientOptions): Promise<McpClient> {
  const connected = new McpClient(CLIENT_INFO, { approve: 'always', ...options });
  closers.push(() => connected.close());
  await within(connected.connect(transport), STEP_MS, 'connect');
  return connected;
}

async function overMemory(server: McpServer, options: ClientOptions): Promise<McpClient> {
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  closers.push(() => server.close());
  return client(clientSide, options);
}

async function overHttp(server: McpServer, options: ClientOptions): Promise<McpClient> {
  const listening = await listenHttp(server, { port: 0 });
  closers.push(async () => {
    await listening.close();
    await server.close();
  });
  return client(new HttpClientTransport(listening.url), options);
}

const text = (result: { content: ReadonlyArray<{ type: string; text?: string }> }): string | undefined =>
  result.content[0]?.text;

describe('client: per-call input handlers', () => {
  const eras = [
    ['modern, memory (MRTR rounds)', 'auto', overMemory],
    ['legacy, Streamable HTTP (the response stream names the call)', 'legacy', overHttp],
    ['modern, Streamable HTTP (MRTR rounds)', 'auto', overHttp],
  ] as const;
  for (const [wire, era, connect] of eras) {
    it(`${wire}: two calls in flight each get their own handlers' answer`, async () => {
      const mcp = await connect(askingServer(2), { era, handlers: naming('client-wide') });
      const [first, second] = await within(
        Promise.all([
          mcp.callTool('ask', { who: 'a' }, { handlers: naming('alice') }),
          mcp.callTool('ask', { who: 'b' }, { handlers: naming('bob') }),
        ]),
        STEP_MS,
        'the two calls',
      );
      assert.equal(text(first), 'a got alice');
      assert.equal(text(second), 'b got bob');
    });
  }

  it('legacy, memory (no association on the wire): the only call in flight gets the request', async () => {
    const mcp = await overMemory(askingServer(1), { era: 'legacy', handlers: naming('client-wide') });
    const result = await within(
      mcp.callTool('ask', { who: 'a' }, { handlers: naming('alice') }),
      STEP_MS,
      'the call',
    );
    assert.equal(text(result), 'a got alice');
  });

  it('legacy, memory: with two calls in flight an unassociated request goes to the client-wide handlers', async () => {
    const mcp = await overMemory(askingServer(2), { era: 'legacy', handlers: naming('client-wide') });
    const results = await within(
      Promise.all([
        mcp.callTool('ask', { who: 'a' }, { handlers: naming('alice') }),
        mcp.callTool('ask', { who: 'b' }, { handlers: naming('bob') }),
      ]),
      STEP_MS,
      'the two calls',
    );
    assert.deepEqual(results.map(text), ['a got client-wide', 'b got client-wide']);
  });

  it('a call without handlers of its own uses the client-wide ones', async () => {
    const mcp = await overMemory(askingServer(1), { handlers: naming('client-wide') });
    const result = await within(mcp.callTool('ask', { who: 'a' }), STEP_MS, 'the call');
    assert.equal(text(result), 'a got client-wide');
  });

  for (const era of ['auto', 'legacy'] as const) {
    it(`${era === 'auto' ? 'modern' : 'legacy'}: prompts/get takes handlers of its own`, async () => {
      const mcp = await overMemory(askingServer(1), { era, handlers: naming('client-wide') });
      const prompt = await within(
        mcp.getPrompt('greet', {}, { handlers: naming('carol') }),
        STEP_MS,
        'the prompt',
      );
      assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'hello carol' });
    });
  }

  it('the handler sees the call’s signal: cancelling the call aborts the question', async () => {
    const asked = deferred<AbortSignal>();
    const handlers: InputHandlers = {
      elicitation: (_params, context) => {
        asked.resolve(context.signal);
        return new Promise(() => undefined); // the user never answers
      },
    };
    const mcp = await overMemory(askingServer(1), { era: 'legacy', handlers: naming('client-wide') });
    const controller = new AbortController();
    const call = mcp.callTool('ask', { who: 'a' }, { handlers, signal: controller.signal });
    const signal = await within(asked.promise, STEP_MS, 'the question');
    assert.equal(signal.aborted, false);
    controller.abort();
    await assert.rejects(call, { name: 'RequestAbortedError' });
    assert.equal(signal.aborted, true);
  });
});
