// The gateway end to end with real servers from the registry: @modelcontextprotocol/server-everything over stdio and
// in its Streamable HTTP mode, @modelcontextprotocol/server-filesystem on a temporary directory, and a toolwire server,
// behind one gateway on loopback HTTP; driven by the official SDK v2 client (both eras) and by toolwire's CLI (list,
// call, `toolwire gateway` itself as a stdio TARGET, `toolwire gateway status`). List, call with progress, cancel, an
// image result, an elicitation round trip, structured content, resources; and C4.

import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client as ClientV2, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { McpClient } from '../src/client/index.js';
import { createGateway, type Gateway } from '../src/gateway/gateway.js';
import { readGatewayConfig } from '../src/gateway/config.js';
import { memoryPinStore } from '../src/gateway/pins/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { createLinkedPair } from '../src/transports/memory/index.js';
import { FIXTURES, REPO_ROOT, TSX, cliCommand, deferred, runCli, within } from './fixtures/client/harness.js';

const CLIENT_INFO = { name: 'gateway-e2e', version: '0.0.0' };
const STEP_MS = 30_000;
/** The first start of each registry server loads its SDK: generous on a loaded machine. */
const START_MS = 60_000;
const PACKAGES = `${REPO_ROOT}node_modules/@modelcontextprotocol/`;
const EVERYTHING = `${PACKAGES}server-everything/dist/index.js`;
const FILESYSTEM = `${PACKAGES}server-filesystem/dist/index.js`;

/** server-everything in its Streamable HTTP mode, on 127.0.0.1 and a free port (the loopback-listen preload). */
async function startEverythingHttp(): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    ['--import', `${FIXTURES}loopback-listen.mjs`, EVERYTHING, 'streamableHttp'],
    { env: { ...process.env, PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  const port = await within(
    new Promise<number>((resolve, reject) => {
      child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        const match = /loopback-listen: 127\.0\.0\.1:(\d+)/.exec(stderr);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`server-everything exited (${code}): ${stderr}`)));
    }),
    START_MS,
    'server-everything streamableHttp to listen',
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  return { url: `http://127.0.0.1:${port}/mcp`, child };
}

const stopped = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

/** A toolwire upstream whose `wait` tool runs until cancelled, and tells the test it started and that it stopped. */
function toolwireUpstream(): {
  server: McpServer;
  started: () => Promise<void>;
  aborted: () => Promise<void>;
} {
  const server = new McpServer({ name: 'tw', version: '1.0.0' }, { logger: silentLogger });
  let started = deferred();
  let aborted = deferred();
  server.tool({
    name: 'wait',
    description: 'Runs until cancelled.',
    handler: (_args, ctx) =>
      new Promise<string>((resolve) => {
        ctx.signal.addEventListener('abort', () => {
          aborted.resolve();
          resolve('cancelled');
        });
        started.resolve();
      }),
  });
  return {
    server,
    started: () => started.promise.finally(() => (started = deferred())),
    aborted: () => aborted.promise.finally(() => (aborted = deferred())),
  };
}

describe('gateway end to end: server-everything (stdio, HTTP), server-filesystem, a toolwire server', () => {
  const directory = mkdtempSync(join(tmpdir(), 'toolwire-gateway-e2e-'));
  const tw = toolwireUpstream();
  let twHttp: HttpListening;
  let everythingHttp: { url: string; child: ChildProcess };
  let gateway: Gateway;
  let listening: HttpListening;
  let configFile: string;

  before(async () => {
    writeFileSync(join(directory, 'hello.txt'), 'hello from the filesystem\n');
    twHttp = await listenHttp(tw.server, { port: 0 });
    everythingHttp = await startEverythingHttp();
    const raw = {
      mcpServers: {
        ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], listTimeoutMs: START_MS },
        evhttp: { url: everythingHttp.url, listTimeoutMs: START_MS },
        fs: { command: process.execPath, args: [FILESYSTEM, directory], listTimeoutMs: START_MS },
        tw: { url: twHttp.url, trusted: true },
      },
      gateway: { statusFile: 'status.json', pins: 'pins.sqlite' },
    };
    configFile = join(directory, 'toolwire.json');
    writeFileSync(configFile, JSON.stringify(raw));
    gateway = await createGateway(readGatewayConfig(raw, configFile), {
      logger: silentLogger,
      pinStore: memoryPinStore(),
    });
    await within(gateway.start(), START_MS, 'the gateway to start');
    listening = await listenHttp(gateway.server, { port: 0 });
  });

  after(async () => {
    await listening?.close();
    await gateway?.close();
    await twHttp?.close();
    await tw.server.close();
    if (everythingHttp !== undefined) await stopped(everythingHttp.child);
    rmSync(directory, { recursive: true, force: true });
  });

  it('every upstream is ready', () => {
    assert.deepEqual(
      gateway.status().map((health) => [health.name, health.state]),
      [
        ['ev', 'ready'],
        ['evhttp', 'ready'],
        ['fs', 'ready'],
        ['tw', 'ready'],
      ],
    );
  });

  for (const era of ['modern', 'legacy'] as const) {
    describe(`the official SDK v2 client, ${era} wire`, () => {
      let client: ClientV2;
      const asked: string[] = [];
      before(async () => {
        client = new ClientV2(CLIENT_INFO, {
          capabilities: { elicitation: {} },
          ...(era === 'modern' && { versionNegotiation: { mode: { pin: '2026-07-28' } } }),
        });
        client.setRequestHandler('elicitation/create', async (request) => {
          asked.push(String((request.params as { message?: unknown }).message));
          return { action: 'accept', content: { name: 'Ada Lovelace', check: true } };
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(listening.url)));
      });
      after(() => client?.close());

      it('lists the tools of every upstream as server___tool, sorted', async () => {
        const names = (await client.listTools()).tools.map((tool) => tool.name);
        for (const name of ['ev___echo', 'evhttp___echo', 'fs___read_text_file', 'tw___wait'])
          assert.ok(names.includes(name), `${name} in ${names.join(', ')}`);
        assert.deepEqual(names, [...names].sort());
        assert.ok(names.every((name) => /^(ev|evhttp|fs|tw)___/.test(name)));
      });

      for (const server of ['ev', 'evhttp']) {
        it(`${server}: a call with progress relays the upstream's progress`, async () => {
          const progress: number[] = [];
          const result = (await client.callTool(
            { name: `${server}___trigger-long-running-operation`, arguments: { duration: 1, steps: 2 } },
            { onprogress: (p: { progress: number }) => progress.push(p.progress), timeout: STEP_MS },
          )) as { content: Array<{ type: string; text?: string }> };
          assert.match(result.content[0]?.text ?? '', /Long running operation completed/);
          assert.ok(progress.length >= 1, 'progress was relayed');
        });

        it(`${server}: an image result comes through as an image`, async () => {
          const result = (await client.callTool({ name: `${server}___get-tiny-image`, arguments: {} })) as {
            content: Array<{ type: string; mimeType?: string; data?: string }>;
          };
          const image = result.content.find((block) => block.type === 'image');
          assert.equal(image?.mimeType, 'image/png');
          assert.ok((image?.data ?? '').length > 100);
        });

        it(`${server}: an elicitation round trip reaches this client and its answer the upstream`, async () => {
          const before = asked.length;
          const result = (await client.callTool(
            { name: `${server}___trigger-elicitation-request`, arguments: {} },
            { timeout: STEP_MS },
          )) as { content: Array<{ type: string; text?: string }> };
          assert.ok(asked.length > before, 'the client was asked');
          const text = result.content.map((block) => block.text ?? '').join('\n');
          assert.match(text, /Ada Lovelace/);
        });
      }

      it('a cancelled call cancels the upstream call', async () => {
        const controller = new AbortController();
        const call = client.callTool({ name: 'tw___wait', arguments: {} }, { signal: controller.signal });
        await within(tw.started(), STEP_MS, 'the upstream call to start');
        controller.abort();
        await assert.rejects(call);
        await within(tw.aborted(), STEP_MS, 'the upstream call to be cancelled');
      });

      it('server-filesystem: structured content passes, checked against its outputSchema', async () => {
        const result = (await client.callTool({
          name: 'fs___read_text_file',
          arguments: { path: join(directory, 'hello.txt') },
        })) as { structuredContent?: { content?: string }; isError?: boolean };
        assert.notEqual(result.isError, true);
        assert.equal(result.structuredContent?.content, 'hello from the filesystem\n');
      });

      it('server-everything resources are listed under gateway URIs and read through them', async () => {
        const { resources } = await client.listResources();
        const resource = resources.find((entry) => entry.name.length > 0);
        assert.ok(resource !== undefined && !resource.uri.startsWith('demo://'), resource?.uri);
        const read = await client.readResource({ uri: resource.uri });
        assert.equal(read.contents[0]?.uri, resource.uri);
      });
    });
  }

  it(
    "toolwire's client: a legacy task upstream (server-everything's research query) asking for clarification, through a gateway task",
    { timeout: 120_000 },
    async () => {
      const [clientSide, serverSide] = createLinkedPair();
      await gateway.server.connect(serverSide);
      const asked: string[] = [];
      const client = new McpClient(CLIENT_INFO, {
        approve: 'always',
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            const schema = (
              params as {
                requestedSchema?: { properties?: Record<string, { oneOf?: Array<{ const?: string }> }> };
              }
            ).requestedSchema;
            const [property, definition] = Object.entries(schema?.properties ?? {})[0] ?? [
              'interpretation',
              {},
            ];
            return { action: 'accept', content: { [property]: definition.oneOf?.[0]?.const ?? 'the first' } };
          },
        },
      });
      try {
        await within(client.connect(clientSide), STEP_MS, 'connect');
        const statuses: string[] = [];
        const result = await within(
          client.callTool(
            'ev___simulate-research-query',
            { topic: 'python', ambiguous: true },
            { onTaskStatus: (task) => statuses.push(task.status) },
          ),
          STEP_MS * 2,
          'the research query',
        );
        assert.notEqual(result.isError, true, JSON.stringify(result));
        assert.equal(asked.length, 1, 'asked once for clarification');
        assert.ok(result.taskId !== undefined, 'the gateway ran the call as a task of its own');
        assert.ok(statuses.includes('input_required'), statuses.join(','));
        assert.match(JSON.stringify(result.content), /python/i);
      } finally {
        await client.close();
      }
    },
  );

  describe("toolwire's CLI", () => {
    it('toolwire list and call through the gateway', { timeout: 120_000 }, async () => {
      const listed = await runCli(['list', listening.url], { limitMs: STEP_MS * 2 });
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /ev___get-sum/);
      assert.match(listed.stdout, /fs___list_directory/);
      const called = await runCli(['call', listening.url, 'ev___get-sum', 'a=2', 'b=3', '--yes', '--json'], {
        limitMs: STEP_MS * 2,
      });
      assert.equal(called.code, 0, called.stderr);
      assert.match(called.stdout, /5/);
    });

    it(
      '`toolwire gateway` over stdio as a TARGET, then `toolwire gateway status`',
      { timeout: 180_000 },
      async () => {
        const target = cliCommand(['gateway', '--config', configFile]);
        const listed = await runCli(['list', target], { limitMs: START_MS * 2 });
        assert.equal(listed.code, 0, listed.stderr);
        assert.match(listed.stdout, /tw___wait/);
        assert.match(listed.stdout, /evhttp___echo/);
        const status = await runCli(['gateway', 'status', '--config', configFile], { limitMs: STEP_MS * 2 });
        // That gateway stopped when the list ended: the status says so, with each upstream's last known state.
        assert.equal(status.code, 3, status.stderr);
        assert.match(status.stdout, /not running \(stopped at/);
        assert.match(status.stdout, /evhttp\s+ready\s+legacy/);
      },
    );

    it(
      '`toolwire gateway --http` runs, `toolwire gateway status` shows each upstream ready, SIGTERM stops it',
      { timeout: 180_000 },
      async () => {
        const child = spawn(
          process.execPath,
          ['--import', TSX, `${FIXTURES}cli.ts`, 'gateway', '--http', '127.0.0.1:0', '--config', configFile],
          { stdio: ['ignore', 'ignore', 'pipe'] },
        );
        try {
          let stderr = '';
          const url = await within(
            new Promise<string>((resolve, reject) => {
              child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
                stderr += chunk;
                // The last of its startup lines: the ones before it are there too once it is.
                const match = /toolwire: listening on (\S+)[\s\S]*toolwire: status in /.exec(stderr);
                if (match?.[1] !== undefined) resolve(match[1]);
              });
              child.once('exit', (code) => reject(new Error(`the gateway exited (${code}): ${stderr}`)));
            }),
            START_MS * 2,
            'the gateway to listen',
          );
          assert.match(stderr, /gateway upstreams: ev \(ready, \d+ tools\), evhttp \(ready/);
          const status = await runCli(['gateway', 'status', '--config', configFile], {
            limitMs: STEP_MS * 2,
          });
          assert.equal(status.code, 0, status.stderr + status.stdout);
          assert.match(
            status.stdout,
            new RegExp(`running \\(pid ${child.pid}, ${url.replace(/[.]/g, '\\.')}\\)`),
          );
          assert.match(status.stdout, /fs\s+ready\s+legacy\s+14/);
        } finally {
          await stopped(child);
        }
        const after = await runCli(['gateway', 'status', '--config', configFile, '--json'], {
          limitMs: STEP_MS * 2,
        });
        assert.equal(after.code, 3);
        const json = JSON.parse(after.stdout) as { running: boolean; stoppedAt?: string; transport: string };
        assert.equal(json.running, false);
        assert.equal(json.transport, 'http');
        assert.ok(json.stoppedAt !== undefined, 'SIGTERM stopped it cleanly');
      },
    );
  });
});

describe('gateway end to end: C4', () => {
  it(
    "C4 server-everything's readOnlyHint does not count when it is not trusted; a trusted toolwire server's does",
    {
      timeout: 120_000,
    },
    async () => {
      const directory = mkdtempSync(join(tmpdir(), 'toolwire-gateway-c4-'));
      const trusted = new McpServer({ name: 'mine', version: '1.0.0' }, { logger: silentLogger });
      trusted.tool({ name: 'peek', annotations: { readOnlyHint: true }, handler: () => 'peeked' });
      const trustedHttp = await listenHttp(trusted, { port: 0 });
      const raw = {
        mcpServers: {
          ev: { command: process.execPath, args: [EVERYTHING, 'stdio'], listTimeoutMs: START_MS },
          mine: { url: trustedHttp.url, trusted: true },
        },
        policy: { anonymous: true, scopes: { rules: [{ annotations: ['read-only'], see: [] }] } },
      };
      const gateway = await createGateway(readGatewayConfig(raw, join(directory, 'toolwire.json')), {
        logger: silentLogger,
        pinStore: memoryPinStore(),
      });
      try {
        await within(gateway.start(), START_MS, 'the gateway to start');
        const served = await listenHttp(gateway.server, { port: 0, ...gateway.policy?.http });
        const client = new ClientV2(CLIENT_INFO);
        try {
          await client.connect(new StreamableHTTPClientTransport(new URL(served.url)));
          const names = (await client.listTools()).tools.map((tool) => tool.name);
          // everything's echo says readOnlyHint: true, but nobody vouched for it: not in the read-only class.
          assert.deepEqual(names, ['mine___peek']);
          await assert.rejects(
            client.callTool({ name: 'ev___echo', arguments: { message: 'x' } }),
            /Unknown tool/,
          );
        } finally {
          await client.close();
          await served.close();
        }
      } finally {
        await gateway.close();
        await trustedHttp.close();
        await trusted.close();
        rmSync(directory, { recursive: true, force: true });
      }
    },
  );
});
