// The client against real peers: the official SDK v2 server (both eras, stdio and HTTP), the SDK v1 server
// (legacy, stdio and Streamable HTTP with sessions) and toolwire's own server (memory, stdio, HTTP; both eras).
// On each: connect (the era picked is asserted), list tools, call `add` and `count` with progress.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { McpClient, type Era, type Progress } from '../src/client/index.js';
import type { Transport } from '../src/protocol/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import {
  CLIENT_INFO,
  listenToolwireHttp,
  memoryClient,
  recordingLogger,
  stdioTransport,
  within,
} from './fixtures/client/harness.js';
import { listenSdkV1Http } from './fixtures/client/sdk-v1-server.js';
import { listenSdkV2Http } from './fixtures/client/sdk-v2-server.js';

const MODERN = '2026-07-28';
const LATEST_LEGACY = '2025-11-25';
const TEST_MS = 30_000;

interface Expectation {
  era: Era;
  serverName: string;
  /** The SDKs send every progress notification; toolwire coalesces a tight loop into first and last. */
  progress: readonly number[];
}

const SDK_PROGRESS = [1, 2, 3];
const TOOLWIRE_PROGRESS = [1, 3];

async function scenario(client: McpClient, expected: Expectation): Promise<void> {
  assert.equal(client.era, expected.era);
  assert.equal(client.protocolVersion, expected.era === 'modern' ? MODERN : LATEST_LEGACY);
  assert.equal(client.serverInfo?.name, expected.serverName);

  const tools = await client.listTools();
  const add = tools.find((tool) => tool.name === 'add');
  assert.ok(add, `no add in ${tools.map((tool) => tool.name).join()}`);
  assert.ok(tools.some((tool) => tool.name === 'count'));
  assert.equal(add.annotations?.readOnlyHint, true);
  assert.deepEqual(add.inputSchema.required, ['a', 'b']);
  assert.deepEqual((add.outputSchema?.properties as Record<string, unknown> | undefined)?.sum, {
    type: 'number',
  });

  const sum = await client.callTool('add', { a: 2, b: 3 });
  assert.deepEqual(sum.structuredContent, { sum: 5 });
  assert.equal(sum.isError, undefined);

  const progress: Progress[] = [];
  const counted = await client.callTool('count', { n: 3 }, { onProgress: (p) => progress.push(p) });
  assert.deepEqual(counted.content, [{ type: 'text', text: 'counted to 3' }]);
  assert.deepEqual(
    progress,
    expected.progress.map((step) => ({ progress: step, total: 3, message: `step ${step}` })),
  );
}

/** Connects a client (approving everything: `count` is not read-only) and runs the scenario; no warnings allowed. */
async function run(transport: Transport, era: 'auto' | Era, expected: Expectation): Promise<void> {
  const recorder = recordingLogger();
  const client = new McpClient(CLIENT_INFO, { era, approve: 'always', logger: recorder.logger });
  try {
    await within(client.connect(transport), 15_000, 'connect');
    await scenario(client, expected);
    assert.deepEqual(recorder.warnings, []);
  } finally {
    await client.close();
  }
}

describe('client ↔ official SDK v2 server', () => {
  const v2 = { serverName: 'sdk-v2-fixture', progress: SDK_PROGRESS };
  const http = listenSdkV2Http();
  after(async () => (await http).close());

  it('stdio, auto: picks the modern era (server/discover)', { timeout: TEST_MS }, () =>
    run(stdioTransport('sdk-v2-stdio.ts'), 'auto', { ...v2, era: 'modern' }),
  );
  it('stdio, legacy: the initialize handshake', { timeout: TEST_MS }, () =>
    run(stdioTransport('sdk-v2-stdio.ts'), 'legacy', { ...v2, era: 'legacy' }),
  );
  it('HTTP, auto: picks the modern era', { timeout: TEST_MS }, async () =>
    run(new HttpClientTransport((await http).url), 'auto', { ...v2, era: 'modern' }),
  );
  it('HTTP, legacy: the stateless legacy fallback', { timeout: TEST_MS }, async () =>
    run(new HttpClientTransport((await http).url), 'legacy', { ...v2, era: 'legacy' }),
  );
});

describe('client ↔ official SDK v1 server', () => {
  const v1 = { serverName: 'sdk-v1-fixture', progress: SDK_PROGRESS, era: 'legacy' as const };
  const http = listenSdkV1Http();
  after(async () => (await http).close());

  it('stdio, auto: falls back to legacy (server/discover is -32601)', { timeout: TEST_MS }, () =>
    run(stdioTransport('sdk-v1-stdio.ts'), 'auto', v1),
  );
  it('Streamable HTTP with sessions, auto: falls back to legacy', { timeout: TEST_MS }, async () => {
    const transport = new HttpClientTransport((await http).url);
    await run(transport, 'auto', v1);
    assert.equal(transport.sessionId, undefined, 'the session ends with close()');
  });
});

describe("client ↔ toolwire's own server", () => {
  const toolwire = { serverName: 'toolwire-fixture', progress: TOOLWIRE_PROGRESS };
  const http = listenToolwireHttp();
  after(async () => (await http).close());

  it('stdio, auto: modern', { timeout: TEST_MS }, () =>
    run(stdioTransport('toolwire-stdio.ts'), 'auto', { ...toolwire, era: 'modern' }),
  );
  for (const era of ['modern', 'legacy'] as const) {
    it(`HTTP, ${era}`, { timeout: TEST_MS }, async () =>
      run(new HttpClientTransport((await http).url), era === 'modern' ? 'auto' : era, { ...toolwire, era }),
    );
    it(`memory pair, ${era}`, { timeout: TEST_MS }, async () => {
      const recorder = recordingLogger();
      const pair = await memoryClient({
        era: era === 'modern' ? 'auto' : era,
        approve: 'always',
        logger: recorder.logger,
      });
      try {
        await scenario(pair.client, { ...toolwire, era });
        assert.deepEqual(recorder.warnings, []);
      } finally {
        await pair.close();
      }
    });
  }
});
