// Whole command lines, spawn to exit: `toolwire --version`, `--help`, and `list` / `call` against a local
// `toolwire serve --stdio`, beside their floors (`node -e 0`, and a bare client and server: two node starts plus
// one exchange). Each is run several times; the report gives min / median / max and judges the medians.

import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TOOLWIRE = `${ROOT}bin/toolwire.js`;
const BARE_CLIENT = `${ROOT}bench/servers/bare-client.mjs`;
/** The local server list and call talk to: the ready server with one pack, started by the CLI itself. */
const SERVE = `${JSON.stringify(process.execPath)} ${JSON.stringify(TOOLWIRE)} serve --stdio --tools calc`;

/** `floor` names the line a command is judged against, and `limit` how many times its median it may take. */
export const CLI_LINES = [
  { id: 'node', title: 'node -e 0', args: ['-e', '0'], expect: '' },
  {
    id: 'bare-exchange',
    title: 'bare client + bare server, one tools/call',
    args: [BARE_CLIENT],
    expect: '42',
  },
  {
    id: 'version',
    title: 'toolwire --version',
    args: [TOOLWIRE, '--version'],
    expect: '.',
    floor: 'node',
    limit: 1.5,
  },
  {
    id: 'help',
    title: 'toolwire --help',
    args: [TOOLWIRE, '--help'],
    expect: 'Usage: toolwire',
    floor: 'node',
    limit: 1.5,
  },
  {
    id: 'list',
    title: 'toolwire list (toolwire serve --stdio)',
    args: [TOOLWIRE, 'list', SERVE],
    expect: 'calculate',
    floor: 'bare-exchange',
    limit: 2.5,
  },
  {
    id: 'call',
    title: 'toolwire call (toolwire serve --stdio)',
    args: [TOOLWIRE, 'call', SERVE, 'calculate', 'expression=40+2', '--yes'],
    expect: '42',
    floor: 'bare-exchange',
    limit: 2.5,
  },
];

/**
 * Runs one command line to its exit and returns the milliseconds it took; throws when it fails or its output lacks
 * what it must print (a fast wrong answer is no answer). `env` keeps the CLI's config directory to this run.
 */
export function timeCommand(line, { cwd, env }) {
  return new Promise((resolve, reject) => {
    const start = performance.now();
    const child = spawn(process.execPath, line.args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - start;
      clearTimeout(timer);
      if (code === 0 && out.includes(line.expect)) resolve(ms);
      else
        reject(
          new Error(
            `${line.title}: exit ${code}, stdout ${JSON.stringify(out.slice(0, 200))}, stderr ${JSON.stringify(err.slice(0, 300))}`,
          ),
        );
    });
  });
}
