// `toolwire call` against `toolwire serve` over stdio, both run as real processes from source: every built-in tool
// answers through the command line, a refused path exits 1 with the message on stderr, and `serve` without a config
// serves the four read-only packs rooted at the current directory.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  NOTES,
  makeWorkspace,
  parseJson,
  runCli,
  serveTarget,
  withoutLateDiscoverWarning,
  writeConfig,
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

const DEFAULT_TABLE = [
  'NAME            TITLE               ANNOTATIONS  REQUIRED',
  'calculate       Calculator          read-only    expression',
  'read_file       Read a text file    read-only    path',
  'list_directory  List a directory    read-only    -',
  'search_code     Search code         read-only    pattern',
  'analyze_csv     Analyze a CSV file  read-only    path,operations',
  '',
].join('\n');

let ws: Workspace;
let upstreams: Upstreams;
/** `'node --import tsx test/fixtures/serve/cli.ts serve --config …/toolwire.json'`, every pack on. */
let target: string;

before(async () => {
  ws = await makeWorkspace();
  upstreams = await startUpstreams();
  target = serveTarget(['--config', await writeConfig(ws.base, fullConfig(upstreams))]);
});

after(async () => {
  await upstreams?.close();
  await ws?.cleanup();
});

// Two groups at a time: the slow-start case mostly waits, so it overlaps the others.
describe('toolwire serve over stdio', { concurrency: 2 }, () => {
  // Each call starts two processes (the command and the server it spawns); two at a time suit a 2-core machine.
  describe('toolwire call reaches every built-in tool', { concurrency: 2 }, () => {
    it('has a case for each of the nine tools', () => {
      assert.deepEqual(
        TOOL_CASES.map((toolCase) => toolCase.tool),
        ALL_TOOLS,
      );
    });

    for (const toolCase of TOOL_CASES) {
      it(`${toolCase.tool} exits 0 with its JSON result`, async () => {
        // The server is the command's child, so it inherits the command's environment (and the github token).
        const run = await runCli(
          ['call', target, toolCase.tool, ...toolCase.words(upstreams), '--yes', '--json'],
          { env: serverEnv() },
        );
        assert.equal(run.code, 0, run.stderr);
        toolCase.check(parseJson(run) as PrintedResult, ws, upstreams);
        assert.ok(!`${run.stdout}${run.stderr}`.includes(TOKEN), 'the token is never printed');
      });
    }

    it('read_file outside the root exits 1 with the message on stderr', async () => {
      const run = await runCli(['call', target, 'read_file', 'path=../outside.txt', '--yes'], {
        env: serverEnv(),
      });
      assert.deepEqual(withoutLateDiscoverWarning(run), {
        code: 1,
        signal: null,
        stdout: '',
        stderr: outsideMessage(ws),
      });
    });

    it('list shows all nine tools', async () => {
      const run = await runCli(['list', target], { env: serverEnv() });
      assert.deepEqual(withoutLateDiscoverWarning(run), {
        code: 0,
        signal: null,
        stdout: ALL_TOOLS_TABLE,
        stderr: '',
      });
    });
  });

  describe('without a config', { concurrency: 2 }, () => {
    it('serves exactly calculate, read_file, list_directory, search_code and analyze_csv', async () => {
      const run = await runCli(['list', serveTarget([], ws.root)], { cwd: ws.root });
      assert.deepEqual(withoutLateDiscoverWarning(run), {
        code: 0,
        signal: null,
        stdout: DEFAULT_TABLE,
        stderr: '',
      });
    });

    it('roots the file tools at the current directory', async () => {
      const run = await runCli(
        ['call', serveTarget([], ws.root), 'read_file', 'path=notes.txt', '--trust', '--json'],
        { cwd: ws.root },
      );
      assert.equal(run.code, 0, run.stderr);
      const result = parseJson(run) as PrintedResult;
      assert.deepEqual(
        { path: result.structuredContent?.path, content: result.structuredContent?.content },
        { path: 'notes.txt', content: NOTES.trimEnd() },
      );
    });
  });

  describe('a stdio server that takes over 5 s to start', () => {
    it('is answered without a warning about a late response', async () => {
      // A server slow to start, as `npx …` or tsx on a busy machine can be; the test only waits for the exit.
      const slow = `sh -c 'sleep 5.5; exec ${serveTarget([])}'`;
      const run = await runCli(['call', slow, 'calculate', 'expression=1+1', '--yes']);
      assert.deepEqual(run, {
        code: 0,
        signal: null,
        stdout: '1+1 = 2\n{\n  "expression": "1+1",\n  "result": 2\n}\n',
        stderr: '',
      });
    });
  });
});
