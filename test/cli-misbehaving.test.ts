// `toolwire call` and `toolwire list` against servers that break the rules (test/fixtures/client/raw-server.mjs):
// one clear message on stderr, exit code 3 (connection or protocol), and no hang.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixtureTarget, runCli } from './fixtures/client/harness.js';

const TEST_MS = 120_000; // a hang guard: a test runs several CLI processes, each allowed CLI_LIMIT_MS on a loaded machine
const TIMEOUT = '2000';

/** What the raw server noted on stderr before `work` went wrong, as the CLI quotes it. */
const STDERR_TAIL = [
  "the server's stderr ended with:",
  'got server/discover 1',
  'got initialize 2',
  'got notifications/initialized null',
  'got tools/list 3',
  'got tools/call 4',
];

const call = (mode: string, ...extra: string[]) => {
  const target = fixtureTarget('raw-server.mjs', mode);
  return { target, run: runCli(['call', target, 'work', '--yes', '--timeout', TIMEOUT, ...extra]) };
};

describe('toolwire call: misbehaving servers', () => {
  it(
    'invalid JSON on stdout: exit 3, the line quoted, and the server stderr',
    { timeout: TEST_MS },
    async () => {
      const { target, run } = call('invalid-json');
      const message = 'the server sent something that is not JSON: "this is not json {"';
      const { code, stdout, stderr } = await run;
      assert.equal(code, 3);
      assert.equal(stdout, '');
      // The server's stderr is a separate pipe: its last note ("got tools/call 4") may or may not be read yet.
      const expected = (tail: string[]): string =>
        [`toolwire: ${target}: ${message}`, ...tail, ''].join('\n'); // said once, not also as a warning
      assert.ok(
        stderr === expected(STDERR_TAIL) || stderr === expected(STDERR_TAIL.slice(0, -1)),
        `unexpected stderr:\n${stderr}`,
      );
    },
  );

  it(
    'a response with an unknown id: a warning, then the time-out (exit 3)',
    { timeout: TEST_MS },
    async () => {
      const { run } = call('unknown-id');
      assert.deepEqual(await run, {
        code: 3,
        stdout: '',
        stderr:
          'toolwire: warning: ignored a response with unknown id 9999\n' +
          `toolwire: tools/call timed out after ${TIMEOUT} ms (the request was cancelled on the server); ` +
          'raise --timeout if the tool needs longer\n',
      });
    },
  );

  it('a server that never answers: the time-out names --timeout (exit 3)', { timeout: TEST_MS }, async () => {
    const { run } = call('silent');
    assert.deepEqual(await run, {
      code: 3,
      stdout: '',
      stderr:
        `toolwire: tools/call timed out after ${TIMEOUT} ms (the request was cancelled on the server); ` +
        'raise --timeout if the tool needs longer\n',
    });
  });

  it('a server that crashes mid-call: exit 3 with the end of its stderr', { timeout: TEST_MS }, async () => {
    const { target, run } = call('crash');
    assert.deepEqual(await run, {
      code: 3,
      stdout: '',
      stderr: [
        `toolwire: ${target}: the connection to the server closed`,
        'the server exited with code 1; its stderr ended with:',
        ...STDERR_TAIL.slice(1),
        'raw server: out of cheese, giving up',
        '',
      ].join('\n'),
    });
  });

  it(
    'regression: a server that crashes at startup: its exit code and the end of its stderr (neutralised, E1)',
    { timeout: TEST_MS },
    async () => {
      const target = fixtureTarget('cli-fixture-server.mjs', 'crash-at-start');
      assert.deepEqual(await runCli(['list', target]), {
        code: 3,
        stdout: '',
        stderr: [
          `toolwire: ${target}: the connection to the server closed`,
          'the server exited with code 4; its stderr ended with:',
          'fixture: reading config',
          'fixture: fatal: ␛[31mno config␛[0m',
          '',
        ].join('\n'),
      });
    },
  );

  it(
    'regression: a server killed by a signal at startup: the signal is named',
    { timeout: TEST_MS },
    async () => {
      const target = fixtureTarget('cli-fixture-server.mjs', 'killed');
      assert.deepEqual(await runCli(['call', target, 'work', '--yes']), {
        code: 3,
        stdout: '',
        stderr: [
          `toolwire: ${target}: the connection to the server closed`,
          'the server was killed by SIGKILL; its stderr ended with:',
          'fixture: about to be killed',
          '',
        ].join('\n'),
      });
    },
  );

  it(
    "a crashed server's stderr is quoted bounded: the last 10 lines, each cut at 300 columns",
    { timeout: TEST_MS },
    async () => {
      const target = fixtureTarget('cli-fixture-server.mjs', 'crash-noisy');
      const lines = Array.from({ length: 10 }, (_, i) => `line ${21 + i}`);
      lines[8] = `line 29 ${'x'.repeat(300 - 'line 29 '.length - 1)}…`;
      assert.deepEqual(await runCli(['list', target]), {
        code: 3,
        stdout: '',
        stderr: [
          `toolwire: ${target}: the connection to the server closed`,
          'the server exited with code 2; its stderr ended with:',
          ...lines,
          '',
        ].join('\n'),
      });
    },
  );

  it(
    '10,000 progress notifications: one progress line each, then the result (exit 0)',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { run } = call('flood');
      const { code, stdout, stderr } = await run;
      assert.equal(stdout, 'done\n{\n  "count": 10000\n}\n');
      const lines = stderr.split('\n');
      assert.equal(lines.length, 10_001);
      assert.equal(lines[0], 'progress: 1/10000');
      assert.equal(lines[9_999], 'progress: 10000/10000');
      assert.equal(lines[10_000], '');
      assert.equal(code, 0);
    },
  );

  it(
    'output that breaks the outputSchema: the field, who to blame, exit 3',
    { timeout: TEST_MS },
    async () => {
      const { run } = call('bad-output');
      assert.deepEqual(await run, {
        code: 3,
        stdout: '',
        stderr:
          'toolwire: structuredContent of tool "work" does not match its outputSchema:\n' +
          '- count: must be integer, got string\n' +
          "(the server broke its own outputSchema; report it to the server's authors)\n",
      });
    },
  );

  it(
    'list: a tool with an invalid x-mcp-header is left out with a warning (exit 0)',
    {
      timeout: TEST_MS,
    },
    async () => {
      const run = await runCli(['list', fixtureTarget('raw-server.mjs', 'bad-header')]);
      assert.deepEqual(run, {
        code: 0,
        stdout: 'NAME  TITLE  ANNOTATIONS           REQUIRED\nwork         read-only,open-world  -\n',
        stderr:
          'toolwire: warning: dropped tool "bad_header": invalid x-mcp-header: "Bad Region" at /properties/region ' +
          'is not a valid header name: it must be an RFC 9110 token ' +
          "(letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, control or non-ASCII characters)\n",
      });
    },
  );
});
