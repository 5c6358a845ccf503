// The gateway in one process: toolwire servers as upstreams on loopback HTTP, the gateway's server reached by
// toolwire's client over a memory pair on both eras. Names, pass-through of results (structured, image, resource
// links), progress, cancellation, input requests asked of the caller, prompts and resources under gateway names and
// URIs, list changes, a down upstream, and C4 (an untrusted upstream's annotations do not count for policy).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient, type ClientOptions } from '../src/client/index.js';
import { createGateway, type Gateway } from '../src/gateway/gateway.js';
import { readGatewayConfig } from '../src/gateway/config.js';
import { memoryPinStore } from '../src/gateway/pins/index.js';
import { McpServer, image, silentLogger, type Logger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { CLIENT_INFO, deferred, within } from './fixtures/client/harness.js';

const STEP_MS = 20_000;
const PIXEL =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** Keeps what the gateway logs, to assert on its warnings. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const keep = (message: string): void => void lines.push(message);
  return { lines, debug: keep, info: keep, warn: keep, error: keep };
}

interface Upstream {
  url: string;
  server: McpServer;
  /** Resolves with the signal of the `wait` tool's handler once it runs. */
  waiting: () => Promise<AbortSignal>;
  close(): Promise<void>;
}

async function upstreamServer(name: string): Promise<Upstream> {
  const server = new McpServer({ name, version: '1.0.0' }, { logger: silentLogger });
  let running = deferred<AbortSignal>();
  server.tool({
    name: 'echo',
    description: 'Says back what it is given.',
    annotations: { readOnlyHint: true },
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    outputSchema: { type: 'object', properties: { echoed: { type: 'string' } }, required: ['echoed'] },
    handler: (args) => ({ echoed: String(args.text) }),
  });
  server.tool({
    name: 'picture',
    handler: () => [image(PIXEL, 'image/png'), { type: 'resource_link', uri: 'mem://notes/a', name: 'a' }],
  });
  server.tool({
    name: 'count',
    inputSchema: { type: 'object', properties: { to: { type: 'number' } } },
    handler: async (args, ctx) => {
      const to = Number(args.to);
      for (let step = 1; step <= to; step++) ctx.progress(step, to, `step ${step}`);
      return `counted to ${to}`;
    },
  });
  server.tool({
    name: 'wait',
    handler: async (_args, ctx) => {
      running.resolve(ctx.signal);
      await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
      return 'stopped';
    },
  });
  server.tool({
    name: 'ask',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      });
      return answer.action === 'accept'
        ? `hello ${String(answer.content?.name)}`
        : `no name (${answer.action})`;
    },
  });
  server.tool({
    name: 'think',
    handler: async (_args, ctx) => {
      const answer = await ctx.sample({
        messages: [{ role: 'user', content: { type: 'text', text: 'Two plus two?' } }],
        maxTokens: 10,
      });
      const content = Array.isArray(answer.content) ? answer.content[0] : answer.content;
      return `the model said ${String(content?.text)}`;
    },
  });
  server.tool({
    name: 'say',
    handler: (_args, ctx) => {
      ctx.log('info', { said: 'from upstream' }, 'talker');
      ctx.log('debug', 'too detailed');
      return 'said';
    },
  });
  server.tool({
    name: 'fail',
    handler: () => ({ content: [{ type: 'text', text: 'it broke' }], isError: true }),
  });
  server.prompt({
    name: 'greet',
    arguments: [{ name: 'who', required: true }],
    get: (args) => `Greet ${args.who ?? 'nobody'} warmly.`,
  });
  server.resource({ uri: 'mem://notes/a', name: 'a', mimeType: 'text/plain', read: () => 'note a' });
  const listening = await listenHttp(server, { port: 0 });
  return {
    url: listening.url,
    server,
    waiting: () => {
      const current = running.promise;
      return current.finally(() => (running = deferred<AbortSignal>()));
    },
    async close() {
      await listening.close();
      await server.close();
    },
  };
}

async function startGateway(raw: object, logger: Logger = silentLogger): Promise<Gateway> {
  const config = readGatewayConfig(raw, '/tmp/toolwire-gateway-test/toolwire.json');
  const gateway = await createGateway(config, { logger, pinStore: memoryPinStore() });
  await within(gateway.start(), STEP_MS, 'the gateway to start');
  return gateway;
}

async function clientOf(gateway: Gateway, options: ClientOptions = {}): Promise<McpClient> {
  const [clientSide, serverSide] = createLinkedPair();
  await gateway.server.connect(serverSide);
  const client = new McpClient(CLIENT_INFO, { approve: 'always', ...options });
  await within(client.connect(clientSide), STEP_MS, 'connect to the gateway');
  return client;
}

describe('gateway: one toolwire upstream over HTTP', () => {
  let alpha: Upstream;
  let gateway: Gateway;
  const logger = recordingLogger();
  before(async () => {
    alpha = await upstreamServer('alpha');
    gateway = await startGateway(
      { mcpServers: { alpha: { url: alpha.url } }, gateway: { debounceMs: 0 } },
      logger,
    );
  });
  after(async () => {
    await gateway?.close();
    await alpha?.close();
  });

  for (const era of ['modern', 'legacy'] as const) {
    describe(`inbound ${era}`, () => {
      let client: McpClient;
      before(async () => {
        client = await clientOf(gateway, {
          era: era === 'modern' ? 'auto' : 'legacy',
          handlers: {
            elicitation: () => ({ action: 'accept', content: { name: 'Ada' } }),
            sampling: () => ({ role: 'assistant', content: { type: 'text', text: 'four' }, model: 'test' }),
          },
        });
      });
      after(() => client?.close());

      it('lists every tool as server___tool, sorted', async () => {
        const names = (await client.listTools({ refresh: true })).map((tool) => tool.name);
        assert.deepEqual(names, [
          'alpha___ask',
          'alpha___count',
          'alpha___echo',
          'alpha___fail',
          'alpha___picture',
          'alpha___say',
          'alpha___think',
          'alpha___wait',
        ]);
      });

      it('passes arguments and structured content through, checked against the upstream schema', async () => {
        const result = await client.callTool('alpha___echo', { text: 'hi' });
        assert.deepEqual(result.structuredContent, { echoed: 'hi' });
        const bad = await client.callTool('alpha___echo', {});
        assert.equal(bad.isError, true);
      });

      it('passes an image and a resource link (its URI rewritten to the gateway one)', async () => {
        const result = await client.callTool('alpha___picture', {});
        assert.deepEqual(result.content[0], { type: 'image', data: PIXEL, mimeType: 'image/png' });
        const link = result.content[1];
        assert.equal(link?.type, 'resource_link');
        const uri = link?.type === 'resource_link' ? link.uri : '';
        assert.notEqual(uri, 'mem://notes/a');
        const read = await client.readResource(uri);
        assert.deepEqual(
          read.contents.map((contents) => ('text' in contents ? contents.text : '')),
          ['note a'],
        );
      });

      it('passes an upstream tool error as a tool error', async () => {
        const result = await client.callTool('alpha___fail', {});
        assert.deepEqual(result.content, [{ type: 'text', text: 'it broke' }]);
        assert.equal(result.isError, true);
      });

      it('relays progress', async () => {
        const seen: number[] = [];
        const result = await client.callTool(
          'alpha___count',
          { to: 3 },
          { onProgress: (p) => seen.push(p.progress) },
        );
        assert.equal(result.content[0]?.type === 'text' && result.content[0].text, 'counted to 3');
        assert.ok(seen.length >= 1 && seen.at(-1) === 3, `progress seen: ${seen.join(',')}`);
      });

      it('a cancelled call cancels the upstream call', async () => {
        const controller = new AbortController();
        const call = client.callTool('alpha___wait', {}, { signal: controller.signal });
        const upstreamSignal = await within(alpha.waiting(), STEP_MS, 'the upstream call');
        controller.abort();
        await assert.rejects(call, { name: 'RequestAbortedError' });
        if (!upstreamSignal.aborted)
          await within(
            new Promise((resolve) => upstreamSignal.addEventListener('abort', resolve)),
            STEP_MS,
            'the upstream cancel',
          );
        assert.equal(upstreamSignal.aborted, true);
      });

      it("asks the caller the upstream's elicitation, and hands back the answer", async () => {
        const result = await within(client.callTool('alpha___ask', {}), STEP_MS, 'the call');
        assert.deepEqual(result.content, [{ type: 'text', text: 'hello Ada' }]);
      });

      it("asks the caller's model the upstream's sampling request", async () => {
        const result = await within(client.callTool('alpha___think', {}), STEP_MS, 'the call');
        assert.deepEqual(result.content, [{ type: 'text', text: 'the model said four' }]);
      });

      it('serves the upstream prompts and resources under gateway names and URIs', async () => {
        const prompts = await client.listPrompts();
        assert.deepEqual(
          prompts.map((prompt) => prompt.name),
          ['alpha___greet'],
        );
        const prompt = await client.getPrompt('alpha___greet', { who: 'Bo' });
        assert.deepEqual(prompt.messages[0]?.content, { type: 'text', text: 'Greet Bo warmly.' });
        const [resource] = await client.listResources();
        assert.ok(resource !== undefined && resource.uri !== 'mem://notes/a');
        const read = await client.readResource(resource.uri);
        assert.equal(read.contents[0]?.uri, resource.uri);
      });

      it("relays the upstream's log messages at the level this caller asked for", async () => {
        const logs: unknown[] = [];
        const stop = client.onNotification('notifications/message', (params) => logs.push(params));
        try {
          if (era === 'legacy') {
            await client.request('logging/setLevel', { level: 'info' });
            await client.callTool('alpha___say', {});
          } else {
            const meta = { 'io.modelcontextprotocol/logLevel': 'info' };
            await client.request('tools/call', { name: 'alpha___say', arguments: {}, _meta: meta });
          }
          assert.deepEqual(logs, [{ level: 'info', logger: 'talker', data: { said: 'from upstream' } }]);
        } finally {
          stop();
        }
      });

      it('an unknown name is an unknown tool', async () => {
        await assert.rejects(client.callTool('alpha___nope', {}), /Unknown tool/);
      });
    });
  }

  it("an upstream's list change reaches the gateway's clients", async () => {
    const client = await clientOf(gateway);
    try {
      const changed = deferred();
      client.onToolsChanged(() => changed.resolve());
      const added = alpha.server.tool({ name: 'late', handler: () => 'here' });
      await within(changed.promise, STEP_MS, 'the gateway list_changed');
      assert.ok((await client.listTools({ refresh: true })).some((tool) => tool.name === 'alpha___late'));
      added.remove();
    } finally {
      await client.close();
    }
  });
});

describe('gateway: upstreams that are down, and trust', () => {
  it('a down upstream leaves the others served, with a warning that names it', async () => {
    const alpha = await upstreamServer('alpha');
    const logger = recordingLogger();
    const gateway = await startGateway(
      {
        mcpServers: {
          alpha: { url: alpha.url },
          gone: { url: 'http://127.0.0.1:9/mcp', listTimeoutMs: 2000 },
        },
      },
      logger,
    );
    try {
      const client = await clientOf(gateway);
      const names = (await client.listTools()).map((tool) => tool.name);
      assert.ok(names.every((name) => name.startsWith('alpha___')) && names.length === 8, names.join(','));
      assert.ok(
        logger.lines.some((line) => line.includes('"gone"')),
        logger.lines.join('\n'),
      );
      await client.close();
    } finally {
      await gateway.close();
      await alpha.close();
    }
  });

  it("C4 an untrusted upstream's readOnlyHint does not count for policy; a trusted one's does", async () => {
    const trusted = await upstreamServer('trusted');
    const untrusted = await upstreamServer('untrusted');
    const gateway = await startGateway({
      mcpServers: { mine: { url: trusted.url, trusted: true }, theirs: { url: untrusted.url } },
      // Only read-only tools are granted, with no scope needed: a class that only annotations can put a tool in.
      policy: { anonymous: true, scopes: { rules: [{ annotations: ['read-only'], see: [] }] } },
    });
    try {
      const client = await clientOf(gateway);
      const names = (await client.listTools()).map((tool) => tool.name);
      assert.deepEqual(names, ['mine___echo']);
      await assert.rejects(client.callTool('theirs___echo', { text: 'x' }), /Unknown tool/);
      assert.deepEqual((await client.callTool('mine___echo', { text: 'x' })).structuredContent, {
        echoed: 'x',
      });
      await client.close();
    } finally {
      await gateway.close();
      await trusted.close();
      await untrusted.close();
    }
  });
});
