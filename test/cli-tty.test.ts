// `toolwire call` asks before calling a tool that is not known to be read-only: on a real pseudo-terminal (under
// util-linux `script`) the answer decides; without a terminal and without --yes it refuses with exit code 2, saying
// that an untrusted server's "read-only" is only its claim and which flag does what. `list` on a terminal says the
// same of its ANNOTATIONS column, and `toolwire serve` started by hand on a terminal says what it is.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, describe, it } from 'node:test';
import {
  CLI_LIMIT_MS,
  REPO_ROOT,
  cliCommand,
  fixtureTarget,
  listenToolwireHttp,
  runCli,
  within,
} from './fixtures/client/harness.js';

const TEST_MS = 120_000; // a hang guard: a test runs several CLI processes, each allowed CLI_LIMIT_MS on a loaded machine
/** The raw fixture's `work` says readOnlyHint, but an untrusted server's hints do not count. */
const TARGET = fixtureTarget('raw-server.mjs', 'ok');
const PROMPT = 'Call it? [y/N] ';

/** Terminal output as text: no escape sequences, no carriage returns. */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''); // eslint-disable-line no-control-regex

/**
 * Runs the CLI under `script` (a pseudo-terminal for stdin, stdout and stderr). Once the screen shows `waitFor`, types
 * `input`; resolves with the exit code and everything the terminal showed.
 */
function onTerminal(
  args: readonly string[],
  waitFor?: string,
  input?: string,
): Promise<{ code: number | null; screen: string }> {
  const child = spawn('script', ['-qfec', cliCommand(args), '/dev/null'], {
    cwd: REPO_ROOT,
    env: { ...process.env, SHELL: '/bin/sh', TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let answered = waitFor === undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    if (!answered && waitFor !== undefined && plain(screen).includes(waitFor)) {
      answered = true;
      child.stdin.write(input ?? '');
    }
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (screen += chunk));
  return within(
    new Promise<{ code: number | null; screen: string }>((resolve, reject) => {
      child.once('error', reject);
      child.once('close', (code) => {
        child.stdin.destroy();
        resolve({ code, screen: plain(screen) });
      });
    }),
    CLI_LIMIT_MS,
    `toolwire ${args.join(' ')} on a terminal (screen so far: ${JSON.stringify(plain(screen))})`,
  ).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
}

/** Waits for the confirmation prompt and answers it. */
const callOnTerminal = (args: readonly string[], answer: string) => onTerminal(args, PROMPT, `${answer}\n`);

const QUESTION = [
  'Tool "work" on raw-ok: the server says it is read-only, but that is the server\'s own claim and this server is ' +
    'not trusted.',
  "(--trust trusts this server's annotations; --yes calls without asking.)",
  'Arguments: {"job":"demo"}',
  PROMPT,
].join('\n');

/** Said without a terminal when a tool claims read-only but the server is not trusted. */
const refusal = (tool: string): string =>
  `toolwire: refusing to call "${tool}": the server says it is read-only, but that is the server's own claim and ` +
  'this server is not trusted (there is no terminal to ask you)\n' +
  "pass --trust to trust this server's annotations, or --yes to call it anyway\n";

describe('toolwire call: confirmation', () => {
  it(
    'on a terminal, answering y calls the tool (exit 0)',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { code, screen } = await callOnTerminal(['call', TARGET, 'work', 'job=demo'], 'y');
      assert.equal(screen, `${QUESTION}y\ndone\n{\n  "count": 1\n}\n`);
      assert.equal(code, 0);
    },
  );

  it(
    'on a terminal, answering n refuses (exit 2) and the tool is not called',
    { timeout: TEST_MS },
    async () => {
      const { code, screen } = await callOnTerminal(['call', TARGET, 'work', 'job=demo'], 'n');
      assert.equal(screen, `${QUESTION}n\ntoolwire: the call to "work" was not approved\n`);
      assert.equal(code, 2);
    },
  );

  it('without a terminal and without --yes, refuses with exit code 2', { timeout: TEST_MS }, async () => {
    const run = await runCli(['call', TARGET, 'work', 'job=demo']);
    assert.deepEqual(run, { code: 2, stdout: '', stderr: refusal('work') });
  });

  it(
    'without a terminal, --trust lets a read-only tool run without asking',
    { timeout: TEST_MS },
    async () => {
      const run = await runCli(['call', TARGET, 'work', 'job=demo', '--trust']);
      assert.deepEqual(run, { code: 0, stdout: 'done\n{\n  "count": 1\n}\n', stderr: '' });
    },
  );
});

describe('toolwire call and list: what "read-only" means for a server that is not trusted', () => {
  /** `toolwire serve --tools calc` as a stdio TARGET, run from source like the CLI itself. */
  const SERVE = fixtureTarget('cli.ts', 'serve', '--tools', 'calc');
  const http = listenToolwireHttp();
  after(async () => (await http).close());

  it(
    'regression: calculate expression="2*(3+4)" explains the refusal and names --trust and --yes; both work',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await runCli(['call', SERVE, 'calculate', 'expression=2*(3+4)']), {
        code: 2,
        stdout: '',
        stderr: refusal('calculate'),
      });
      const answer = '2*(3+4) = 14\n{\n  "expression": "2*(3+4)",\n  "result": 14\n}\n';
      for (const flag of ['--trust', '--yes']) {
        assert.deepEqual(await runCli(['call', SERVE, 'calculate', 'expression=2*(3+4)', flag]), {
          code: 0,
          stdout: answer,
          stderr: '',
        });
      }
    },
  );

  it('a tool that is not marked read-only: only --yes is offered', { timeout: TEST_MS }, async () => {
    assert.deepEqual(await runCli(['call', (await http).url, 'remove', 'name=x', '--trust']), {
      code: 2,
      stdout: '',
      stderr:
        'toolwire: refusing to call "remove": it is not marked read-only, so it may change things ' +
        '(there is no terminal to ask you)\npass --yes to call it anyway\n',
    });
  });

  it(
    'regression: list on a terminal says ANNOTATIONS are the claims of an untrusted server; not with --trust',
    { timeout: TEST_MS },
    async () => {
      const table = 'NAME  TITLE  ANNOTATIONS           REQUIRED\nwork         read-only,open-world  -\n';
      assert.deepEqual(await onTerminal(['list', TARGET]), {
        code: 0,
        screen:
          table +
          'toolwire: note: ANNOTATIONS are the server\'s own claims and this server is not trusted, so "toolwire call" ' +
          'asks before calling any of its tools (--trust trusts its annotations; --yes calls without asking)\n',
      });
      assert.deepEqual(await onTerminal(['list', TARGET, '--trust']), { code: 0, screen: table });
    },
  );
});

describe('toolwire serve on a terminal', () => {
  it(
    'regression: serve over stdio started by hand on a terminal says what it is on stderr, and Ctrl-D ends it',
    { timeout: TEST_MS },
    async () => {
      const note =
        "toolwire: serving MCP over stdio: this is for an MCP client, not a person (try: toolwire list 'toolwire " +
        "serve'); Ctrl-D or Ctrl-C stops it\n";
      const { code, screen } = await onTerminal(['serve', '--tools', 'calc'], 'Ctrl-D', '\x04');
      assert.equal(screen, note);
      assert.equal(code, 0);
    },
  );

  it(
    'serve over stdio with a pipe for stdin (an MCP client) says nothing',
    { timeout: TEST_MS },
    async () => {
      assert.deepEqual(await runCli(['serve', '--tools', 'calc']), { code: 0, stdout: '', stderr: '' });
    },
  );
});
