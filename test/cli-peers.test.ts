// `toolwire list` and `toolwire call … --yes --json` as real processes against the official SDK v2 and v1 servers
// and toolwire's own, over stdio (a command line TARGET) and HTTP (a URL TARGET): exact output, exit code 0.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { fixtureTarget, listenToolwireHttp, runCli } from './fixtures/client/harness.js';
import { listenSdkV1Http } from './fixtures/client/sdk-v1-server.js';
import { listenSdkV2Http } from './fixtures/client/sdk-v2-server.js';

const TEST_MS = 120_000; // a hang guard: each peer runs two CLI processes (and a server), each allowed CLI_LIMIT_MS on a loaded machine

const SDK_TABLE = [
  'NAME   TITLE  ANNOTATIONS             REQUIRED',
  'add           read-only,open-world    a,b',
  'count         destructive,open-world  n',
  '',
].join('\n');

const TOOLWIRE_TABLE = [
  'NAME     TITLE  ANNOTATIONS             REQUIRED',
  'add             read-only,open-world    a,b',
  'count           read-only,open-world    n',
  'remove          destructive,open-world  name',
  'slow            read-only,open-world    -',
  'grow            destructive,open-world  -',
  'ask             read-only,open-world    -',
  'lookup          read-only,open-world    region',
  'picture         read-only,open-world    -',
  'fail            read-only,open-world    -',
  'echo            read-only,open-world    text',
  'ticker          read-only,open-world    -',
  '',
].join('\n');

interface Peer {
  name: string;
  target: () => Promise<string>;
  table: string;
  /** What `call add a=2 b=3 --json` prints, parsed. */
  result: object;
}

const serverInfo = (name: string, version: string): object => ({
  _meta: { 'io.modelcontextprotocol/serverInfo': { name, version } },
});
const sdkResult = { content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } };
const toolwireResult = { content: [{ type: 'text', text: '{"sum":5}' }], structuredContent: { sum: 5 } };

describe('toolwire list / call against every peer', () => {
  const v2Http = listenSdkV2Http();
  const v1Http = listenSdkV1Http();
  const toolwireHttp = listenToolwireHttp();
  after(async () => {
    await Promise.all([v2Http, v1Http, toolwireHttp].map(async (server) => (await server).close()));
  });

  const peers: Peer[] = [
    {
      name: 'SDK v2 over stdio (modern)',
      target: async () => fixtureTarget('sdk-v2-stdio.ts'),
      table: SDK_TABLE,
      result: { ...sdkResult, ...serverInfo('sdk-v2-fixture', '2.0.0') },
    },
    {
      name: 'SDK v2 over HTTP (modern)',
      target: async () => (await v2Http).url,
      table: SDK_TABLE,
      result: { ...sdkResult, ...serverInfo('sdk-v2-fixture', '2.0.0') },
    },
    {
      name: 'SDK v1 over stdio (legacy)',
      target: async () => fixtureTarget('sdk-v1-stdio.ts'),
      table: SDK_TABLE,
      result: sdkResult,
    },
    {
      name: 'SDK v1 over Streamable HTTP (legacy)',
      target: async () => (await v1Http).url,
      table: SDK_TABLE,
      result: sdkResult,
    },
    {
      name: 'toolwire over stdio',
      target: async () => fixtureTarget('toolwire-stdio.ts'),
      table: TOOLWIRE_TABLE,
      result: { ...toolwireResult, ...serverInfo('toolwire-fixture', '1.0.0') },
    },
    {
      name: 'toolwire over HTTP',
      target: async () => (await toolwireHttp).url,
      table: TOOLWIRE_TABLE,
      result: { ...toolwireResult, ...serverInfo('toolwire-fixture', '1.0.0') },
    },
  ];

  for (const peer of peers) {
    it(
      `${peer.name}: list prints the table, call --json prints the result`,
      { timeout: TEST_MS },
      async () => {
        const target = await peer.target();
        const listed = await runCli(['list', target]);
        assert.deepEqual(listed, { code: 0, stdout: peer.table, stderr: '' });

        const called = await runCli(['call', target, 'add', 'a=2', 'b=3', '--yes', '--json']);
        assert.equal(called.stderr, '');
        assert.equal(called.code, 0);
        assert.deepEqual(JSON.parse(called.stdout), peer.result);
      },
    );
  }
});
