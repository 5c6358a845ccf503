// `toolwire gateway` and `toolwire gateway status` in-process through main(): the exact usage errors and exit codes,
// and what status prints for a gateway that runs, one that is gone, and an upstream whose error carries escapes.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { main } from '../src/cli/main.js';
import { writeStatus, type GatewayStatus } from '../src/gateway/status-file.js';

const directory = mkdtempSync(join(tmpdir(), 'toolwire-gateway-cli-'));
after(() => rmSync(directory, { recursive: true, force: true }));

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (text: string) => ((stdout += text), true) } as unknown as NodeJS.WritableStream,
    stderr: { write: (text: string) => ((stderr += text), true) } as unknown as NodeJS.WritableStream,
    cwd: directory,
  };
  const code = await main(args, io);
  return { code, stdout, stderr };
}

function config(name: string, raw: object): string {
  const file = join(directory, name);
  writeFileSync(file, JSON.stringify(raw));
  return file;
}

const status = (overrides: Partial<GatewayStatus>): GatewayStatus => ({
  pid: process.pid,
  name: 'edge',
  transport: 'http',
  url: 'http://127.0.0.1:3333/mcp',
  startedAt: '2026-11-27T12:00:00.000Z',
  updatedAt: '2026-11-27T12:00:02.000Z',
  upstreams: [
    { name: 'fs', state: 'ready', era: 'legacy', failures: 0, restarts: 0, tools: 14 },
    { name: 'web', state: 'ready', era: 'modern', failures: 0, restarts: 1, tools: 3 },
  ],
  ...overrides,
});

describe('toolwire gateway: usage errors', () => {
  it('a missing config file', async () => {
    const run = await cli(['gateway', '--http', '127.0.0.1:0', '--config', 'nope.json']);
    assert.deepEqual(run, {
      code: 2,
      stdout: '',
      stderr: `toolwire: cannot read the config file ${join(directory, 'nope.json')}: ENOENT\n`,
    });
  });

  it('a bad key, named', async () => {
    const file = config('typo.json', { mcpServers: { fs: { command: 'node', timeoutMS: 5 } } });
    const run = await cli(['gateway', '--http', '127.0.0.1:0', '--config', file]);
    assert.equal(run.code, 2);
    assert.equal(
      run.stderr,
      'toolwire: mcpServers.fs has an unknown key "timeoutMS"; allowed keys: command, args, env, cwd, url, headers, trusted, type, timeoutMs, listTimeoutMs, credentials, tools\n',
    );
  });

  it('--stdio with --http, an HTTP flag without --http, an unknown action', async () => {
    assert.deepEqual(await cli(['gateway', '--stdio', '--http', '0']), {
      code: 2,
      stdout: '',
      stderr: 'toolwire: choose one of --stdio and --http\n',
    });
    assert.deepEqual(await cli(['gateway', '--allowed-hosts', 'example.com']), {
      code: 2,
      stdout: '',
      stderr: 'toolwire: --allowed-hosts applies to --http only\n',
    });
    assert.deepEqual(await cli(['gateway', 'restart']), {
      code: 2,
      stdout: '',
      stderr: 'toolwire: unknown gateway action "restart"; the one action is "status"\n',
    });
  });
});

describe('toolwire gateway status', () => {
  const file = config('toolwire.json', {
    mcpServers: { fs: { command: 'node' } },
    gateway: { statusFile: 'state/status.json' },
  });
  const statusFile = join(directory, 'state', 'status.json');

  it('no status file yet: exit 3, saying so', async () => {
    assert.deepEqual(await cli(['gateway', 'status', '--config', file]), {
      code: 3,
      stdout: '',
      stderr: `toolwire: no gateway status at ${statusFile}: the gateway of this config has not run\n`,
    });
  });

  it('a running gateway with every upstream ready: exit 0 and a table', async () => {
    writeStatus(statusFile, status({}));
    const run = await cli(['gateway', 'status', '--config', file]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(
      run.stdout,
      `gateway edge: running (pid ${process.pid}, http://127.0.0.1:3333/mcp), updated 2026-11-27T12:00:02.000Z\n` +
        'UPSTREAM  STATE  ERA     TOOLS  FAILURES  RESTARTS  LAST ERROR\n' +
        'fs        ready  legacy  14     0         0\n' +
        'web       ready  modern  3      0         1\n',
    );
  });

  it('an upstream in backoff: exit 1, and its error shown without the escapes it carried', async () => {
    writeStatus(
      statusFile,
      status({
        upstreams: [
          {
            name: 'fs',
            state: 'backoff',
            failures: 3,
            restarts: 0,
            tools: 0,
            lastError: 'boom \u001b[2J\u001b]0;PWNED\u0007 gone',
          },
        ],
      }),
    );
    const run = await cli(['gateway', 'status', '--config', file]);
    assert.equal(run.code, 1);
    assert.ok(!run.stdout.includes('\u001b') && !run.stdout.includes('\u0007'), JSON.stringify(run.stdout));
    assert.match(run.stdout, /fs\s+backoff\s+0\s+3\s+0\s+boom/);
  });

  it('a gateway whose process is gone: exit 3, the last known state, and --json says running: false', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    writeStatus(statusFile, status({ pid: gone }));
    const run = await cli(['gateway', 'status', '--config', file]);
    assert.equal(run.code, 3);
    assert.match(
      run.stdout,
      new RegExp(`^gateway edge: not running \\(pid ${gone} is gone\\); last known state:\\n`),
    );
    const json = await cli(['gateway', 'status', '--config', file, '--json']);
    assert.equal(json.code, 3);
    assert.equal((JSON.parse(json.stdout) as { running: boolean }).running, false);
  });
});
