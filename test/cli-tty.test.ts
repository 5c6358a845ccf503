// `toolwire call` asks before calling a tool that is not known to be read-only: on a real pseudo-terminal (under
// util-linux `script`) the answer decides; without a terminal and without --yes it refuses with exit code 2.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import {
  CLI_LIMIT_MS,
  REPO_ROOT,
  cliCommand,
  fixtureTarget,
  runCli,
  within,
} from './fixtures/client/harness.js';

const TEST_MS = 30_000;
/** The raw fixture's `work` says readOnlyHint, but an untrusted server's hints do not count. */
const TARGET = fixtureTarget('raw-server.mjs', 'ok');
const PROMPT = 'Call it? [y/N] ';

/** Terminal output as text: no escape sequences, no carriage returns. */
const plain = (text: string): string => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, ''); // eslint-disable-line no-control-regex

/**
 * Runs the CLI under `script` (a pseudo-terminal for stdin, stdout and stderr), waits for the confirmation prompt,
 * types `answer` and Enter, and resolves with the exit code and everything the terminal showed.
 */
function callOnTerminal(
  args: readonly string[],
  answer: string,
): Promise<{ code: number | null; screen: string }> {
  const child = spawn('script', ['-qfec', cliCommand(args), '/dev/null'], {
    cwd: REPO_ROOT,
    env: { ...process.env, SHELL: '/bin/sh', TERM: 'dumb' },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  let answered = false;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    screen += chunk;
    if (!answered && plain(screen).includes(PROMPT)) {
      answered = true;
      child.stdin.write(`${answer}\n`);
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

const QUESTION = [
  'Tool "work" on raw-ok is not marked read-only (the server is not trusted, so its annotations do not count).',
  'Arguments: {"job":"demo"}',
  PROMPT,
].join('\n');

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
    assert.deepEqual(run, {
      code: 2,
      stdout: '',
      stderr:
        'toolwire: refusing to call "work" without confirmation: it is not marked read-only (the server is not ' +
        'trusted, so its annotations do not count) and there is no terminal to ask; pass --yes to allow it\n' +
        'run "toolwire --help" for usage\n',
    });
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
