// `toolwire list` and `toolwire call` as real processes against toolwire's fixture server over HTTP (in this
// process) and a raw stdio server: argument coercion and its errors, --json, --save, unknown tools, config files
// with mcpServers (stdio and url entries), bad --header and --timeout values, and unreachable servers.

import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { FIXTURES, deferred, listenToolwireHttp, runCli, within } from './fixtures/client/harness.js';
import { PNG_BASE64, createToolwireServer } from './fixtures/client/toolwire-server.js';
import { createNodeHandler } from '../src/transports/http/index.js';

const TEST_MS = 120_000; // a hang guard: a test runs several CLI processes, each allowed CLI_LIMIT_MS on a loaded machine
const USAGE_HINT = 'run "toolwire --help" for usage\n';

describe('toolwire call / list: commands and their errors', () => {
  const http = listenToolwireHttp();
  let url = '';
  let dir = '';
  before(async () => {
    url = (await http).url;
    dir = mkdtempSync(join(tmpdir(), 'toolwire-cli-'));
  });
  after(async () => {
    await (await http).close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A usage error: exit 2, nothing on stdout, the message and the help hint on stderr. */
  async function usage(args: string[], message: string): Promise<void> {
    assert.deepEqual(await runCli(args), {
      code: 2,
      stdout: '',
      stderr: `toolwire: ${message}\n${USAGE_HINT}`,
    });
  }

  it('key=value arguments are coerced by the input schema', { timeout: TEST_MS }, async () => {
    const run = await runCli([
      'call',
      url,
      'echo',
      'text=42',
      'loud=true',
      'times=3',
      'tags=["a","b c"]',
      '--yes',
    ]);
    assert.deepEqual(run, {
      code: 0,
      stdout: '{"text":"42","loud":true,"times":3,"tags":["a","b c"]}\n',
      stderr: '',
    });
  });

  it(
    'key=value coercion errors: exit 2 with the argument and what it must be',
    { timeout: TEST_MS },
    async () => {
      await usage(['call', url, 'add', 'a=two', 'b=3', '--yes'], 'argument a must be a number, got "two"');
      await usage(
        ['call', url, 'echo', 'text=x', 'times=1.5', '--yes'],
        'argument times must be an integer, got "1.5"',
      );
      await usage(
        ['call', url, 'echo', 'text=x', 'loud=yes', '--yes'],
        'argument loud must be true or false, got "yes"',
      );
      await usage(
        ['call', url, 'echo', 'text=x', 'tags=[oops', '--yes'],
        'argument tags must be JSON (array), for example tags=["a","b"]',
      );
      await usage(['call', url, 'echo', 'text=x', 'text=y', '--yes'], 'argument text is given twice');
      await usage(
        ['call', url, 'echo', 'loud', '--yes'],
        'expected key=value or one JSON object, got "loud"',
      );
      await usage(['call', url, 'echo', '[1]', '--yes'], 'expected key=value or one JSON object, got "[1]"');
    },
  );

  it('one JSON object as the arguments, and its errors', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['call', url, 'add', '{"a": 2, "b": 40}', '--trust']), {
      code: 0,
      stdout: '{\n  "sum": 42\n}\n',
      stderr: '',
    });
    const broken = await runCli(['call', url, 'add', '{"a": 2,', '--yes']);
    assert.equal(broken.code, 2);
    assert.match(
      broken.stderr,
      /^toolwire: the arguments are not valid JSON: .+\nrun "toolwire --help" for usage\n$/,
    );
  });

  it('--json prints the whole result; list --json prints the tools', { timeout: TEST_MS }, async () => {
    const called = await runCli(['call', url, 'add', 'a=2', 'b=3', '--trust', '--json']);
    assert.equal(called.stderr, '');
    assert.equal(called.code, 0);
    assert.deepEqual(JSON.parse(called.stdout), {
      _meta: { 'io.modelcontextprotocol/serverInfo': { name: 'toolwire-fixture', version: '1.0.0' } },
      content: [{ type: 'text', text: '{"sum":5}' }],
      structuredContent: { sum: 5 },
    });

    const listed = await runCli(['list', url, '--json']);
    assert.equal(listed.code, 0);
    const tools = JSON.parse(listed.stdout) as Array<{ name: string; annotations?: object }>;
    assert.deepEqual(
      tools.map((tool) => tool.name),
      ['add', 'count', 'remove', 'slow', 'grow', 'ask', 'lookup', 'picture', 'fail', 'echo', 'ticker'],
    );
    assert.deepEqual(tools.find((tool) => tool.name === 'remove')?.annotations, { destructiveHint: true });
  });

  it(
    '--save DIR writes the image to a file; without it the output says how',
    { timeout: TEST_MS },
    async () => {
      const saveDir = join(dir, 'saved');
      const saved = await runCli(['call', url, 'picture', '--yes', '--save', saveDir]);
      const file = join(saveDir, 'picture-1.png');
      const bytes = Buffer.from(PNG_BASE64, 'base64');
      assert.deepEqual(saved, {
        code: 0,
        stdout: `[image image/png, ${bytes.length} bytes] saved to ${file}\n`,
        stderr: '',
      });
      assert.deepEqual(readdirSync(saveDir), ['picture-1.png']);
      assert.deepEqual(readFileSync(file), bytes);

      assert.deepEqual(await runCli(['call', url, 'picture', '--yes']), {
        code: 0,
        stdout: `[image image/png, ${bytes.length} bytes] (use --save DIR to write it to a file)\n`,
        stderr: '',
      });
    },
  );

  it('a tool that answers isError: its text on stderr, exit 1', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['call', url, 'fail', '--yes']), {
      code: 1,
      stdout: '',
      stderr: 'this tool always fails\n',
    });
  });

  it('an unknown tool: exit 2, the nearest name and how to see the tools', { timeout: TEST_MS }, async () => {
    await usage(
      ['call', url, 'nope', '--yes'],
      `the server has no tool "nope"; to see its tools, run: toolwire list ${url}`,
    );
    await usage(
      ['call', url, 'ehco', '--yes'],
      `the server has no tool "ehco" (did you mean "echo"?); to see its tools, run: toolwire list ${url}`,
    );
  });

  it('bad --header and --timeout values: exit 2 before connecting', { timeout: TEST_MS }, async () => {
    await usage(['list', url, '--header', 'NoColon'], '--header expects "Name: value", got "NoColon"');
    await usage(
      ['list', url, '--header', 'Bad Name: v'],
      '--header expects "Name: value", got "Bad Name: v"',
    );
    await usage(
      ['list', url, '--timeout', 'soon'],
      '--timeout expects milliseconds (a positive integer), got "soon"',
    );
  });

  it(
    'a config file with mcpServers: stdio and url entries, trust, and broken entries',
    { timeout: TEST_MS },
    async () => {
      const config = join(dir, 'servers.json');
      writeFileSync(
        config,
        JSON.stringify({
          mcpServers: {
            raw: { command: process.execPath, args: [join(FIXTURES, 'raw-server.mjs'), 'ok'] },
            web: { url, headers: { 'X-Team': 'tests' } },
            'trusted-web': { url, trusted: true },
            broken: { args: ['x'] },
            'bad-args': { command: 'node', args: 'x.js' },
          },
        }),
      );
      assert.deepEqual(await runCli(['list', 'raw', '--config', config]), {
        code: 0,
        stdout: 'NAME  TITLE  ANNOTATIONS           REQUIRED\nwork         read-only,open-world  -\n',
        stderr: '',
      });
      assert.deepEqual(await runCli(['call', 'web', 'add', 'a=2', 'b=3', '--yes', '--config', config]), {
        code: 0,
        stdout: '{\n  "sum": 5\n}\n',
        stderr: '',
      });
      // A trusted entry's readOnlyHint counts: no confirmation needed, even without a terminal.
      assert.deepEqual(await runCli(['call', 'trusted-web', 'add', 'a=1', 'b=1', '--config', config]), {
        code: 0,
        stdout: '{\n  "sum": 2\n}\n',
        stderr: '',
      });
      await usage(
        ['list', 'broken', '--config', config],
        'server "broken" in the config needs "command" (stdio) or "url" (HTTP)',
      );
      await usage(
        ['list', 'bad-args', '--config', config],
        'server "bad-args": "args" must be an array of strings',
      );
      await usage(
        ['list', 'raw', '--config', join(dir, 'missing.json')],
        `config file ${join(dir, 'missing.json')} does not exist`,
      );
    },
  );

  it(
    'headers from the config entry and from --header reach the server; --header wins',
    { timeout: TEST_MS },
    async () => {
      const seen: Array<Record<string, string | string[] | undefined>> = [];
      const handler = createNodeHandler(createToolwireServer());
      const httpServer = createServer((req, res) => {
        seen.push(req.headers);
        handler(req, res);
      });
      await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = httpServer.address() as AddressInfo; // a TCP listener
        const config = join(dir, 'headers.json');
        writeFileSync(
          config,
          JSON.stringify({
            mcpServers: {
              web: {
                url: `http://127.0.0.1:${port}/mcp`,
                headers: { 'X-Team': 'config', 'X-Source': 'config' },
              },
            },
          }),
        );
        const run = await runCli([
          'list',
          'web',
          '--config',
          config,
          '--header',
          'X-Team: cli',
          '--header',
          'X-Trace:  1 ',
        ]);
        assert.equal(run.code, 0, run.stderr);
        assert.ok(seen.length > 0);
        for (const headers of seen) {
          assert.deepEqual(
            [headers['x-team'], headers['x-source'], headers['x-trace']],
            ['cli', 'config', '1'],
          );
        }
      } finally {
        httpServer.closeAllConnections();
        await new Promise<void>((resolve) => httpServer.close(() => resolve()));
      }
    },
  );

  it('./toolwire.json in the working directory is read by default', { timeout: TEST_MS }, async () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(
      join(cwd, 'toolwire.json'),
      JSON.stringify({
        mcpServers: { local: { command: process.execPath, args: [join(FIXTURES, 'raw-server.mjs'), 'ok'] } },
      }),
    );
    assert.deepEqual(await runCli(['call', 'local', 'work', 'job=x', '--yes'], { cwd }), {
      code: 0,
      stdout: 'done\n{\n  "count": 1\n}\n',
      stderr: '',
    });
  });

  it('Ctrl-C (SIGINT) cancels the call on the server and exits 130', { timeout: TEST_MS }, async () => {
    const started = deferred();
    const stopped = deferred<string>();
    const server = await listenToolwireHttp({
      onSlowStarted: () => started.resolve(),
      onSlowAborted: (reason) => stopped.resolve(reason),
    });
    try {
      let cli: ChildProcess | undefined;
      const run = runCli(['call', server.url, 'slow', '--yes'], { onSpawn: (child) => (cli = child) });
      await within(started.promise, 15_000, 'slow to start');
      cli?.kill('SIGINT');
      assert.deepEqual(await run, { code: 130, stdout: '', stderr: 'toolwire: tools/call was cancelled\n' });
      assert.equal(
        await within(stopped.promise, 5000, "the handler's abort"),
        'the client closed the response',
      );
    } finally {
      await server.close();
    }
  });

  it('servers that cannot be reached: exit 3 with what to check', { timeout: TEST_MS }, async () => {
    const missing = await runCli(['list', 'toolwire-test-no-such-command --flag']);
    assert.deepEqual(missing, {
      code: 3,
      stdout: '',
      stderr:
        'toolwire: toolwire-test-no-such-command --flag: cannot start "toolwire-test-no-such-command": not found\n',
    });
    const closed = await runCli(['list', 'http://127.0.0.1:9/mcp']);
    assert.equal(closed.code, 3);
    assert.match(
      closed.stderr,
      /^toolwire: http:\/\/127\.0\.0\.1:9\/mcp: .+; check the URL and that the server is running\n$/,
    );
  });
});
