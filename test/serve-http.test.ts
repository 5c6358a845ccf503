// `toolwire call` against one `toolwire serve --http 127.0.0.1:0` child process: every built-in tool answers
// through the command line, a refused path exits 1 with the message on stderr, and SIGTERM stops the server.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  makeWorkspace,
  parseJson,
  runCli,
  startHttpServe,
  writeConfig,
  type HttpServe,
  type Workspace,
} from './fixtures/serve/harness.js';
import {
  ALL_TOOLS,
  ALL_TOOLS_TABLE,
  TOKEN,
  TOOL_CASES,
  fullConfig,
  outsideMessage,
  serverEnv,
  type PrintedResult,
} from './fixtures/serve/tool-calls.js';
import { startUpstreams, type Upstreams } from './fixtures/serve/upstreams.js';

let ws: Workspace;
let upstreams: Upstreams;
let server: HttpServe | undefined;

before(async () => {
  ws = await makeWorkspace();
  upstreams = await startUpstreams();
  // Only the server gets the github token: the command that calls it runs with the test's own environment.
  server = await startHttpServe(['--config', await writeConfig(ws.base, fullConfig(upstreams))], serverEnv());
});

after(async () => {
  server?.kill();
  await upstreams?.close();
  await ws?.cleanup();
});

const url = (): string => {
  assert.ok(server, 'the HTTP server started');
  return server.url;
};

describe('toolwire serve --http', () => {
  it('says where it listens, its roots and its tools on stderr', async () => {
    assert.ok(server, 'the HTTP server started');
    // Three lines, written one after the other: wait for the last before reading them.
    await server.waitForStderr(/^toolwire: tools: .*\n/m);
    const lines = server.stderr().split('\n');
    const from = lines.indexOf(`toolwire: listening on ${server.url}`);
    assert.notEqual(from, -1, server.stderr());
    assert.deepEqual(lines.slice(from, from + 3), [
      `toolwire: listening on ${server.url}`,
      `toolwire: roots: ${ws.root}`,
      `toolwire: tools: ${ALL_TOOLS.join(', ')}`,
    ]);
  });

  // One server for every call; each call is one short process, so three at a time.
  describe('toolwire call over HTTP reaches every built-in tool', { concurrency: 3 }, () => {
    for (const toolCase of TOOL_CASES) {
      it(`${toolCase.tool} exits 0 with its JSON result`, async () => {
        const run = await runCli([
          'call',
          url(),
          toolCase.tool,
          ...toolCase.words(upstreams),
          '--yes',
          '--json',
        ]);
        assert.equal(run.code, 0, run.stderr);
        toolCase.check(parseJson(run) as PrintedResult, ws, upstreams);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), 'the token is never printed');
      });
    }

    it('read_file outside the root exits 1 with the message on stderr', async () => {
      const run = await runCli(['call', url(), 'read_file', 'path=../outside.txt', '--yes']);
      assert.deepEqual(run, { code: 1, signal: null, stdout: '', stderr: outsideMessage(ws) });
    });

    it('list shows all nine tools', async () => {
      const run = await runCli(['list', url()]);
      assert.deepEqual(run, { code: 0, signal: null, stdout: ALL_TOOLS_TABLE, stderr: '' });
    });
  });

  it('exits 0 on SIGTERM', async () => {
    assert.ok(server, 'the HTTP server started');
    const ended = await server.stop();
    assert.deepEqual(ended, { code: 0, signal: null }, server.stderr());
    assert.ok(!server.stderr().includes(TOKEN), 'the token is never logged');
  });
});
