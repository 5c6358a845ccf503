// Tasks in the CLI: `toolwire list` shows task support, `toolwire call` runs a task-required tool as a task (saying
// its status on stderr), --task is refused for a tool without task support, and Ctrl-C cancels the task.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { McpServer, silentLogger } from '../src/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { everythingTarget } from './fixtures/client/everything.js';
import { FIXTURES, REPO_ROOT, TSX, deferred, runCli, within } from './fixtures/client/harness.js';

const TASK_MS = 60_000;

describe('toolwire CLI and tasks', () => {
  it('list shows a TASK column when a tool runs as a task', { timeout: TASK_MS }, async () => {
    const run = await runCli(['list', everythingTarget()], { limitMs: TASK_MS });
    assert.equal(run.code, 0, run.stderr);
    const lines = run.stdout.split('\n');
    assert.match(lines[0] ?? '', /^NAME +TITLE +ANNOTATIONS +TASK +REQUIRED$/);
    assert.match(run.stdout, /^simulate-research-query +.* required +topic$/m);
    assert.match(run.stdout, /^echo +.* - +message$/m);
  });

  it('call runs a task-required tool as a task and says its status', { timeout: TASK_MS }, async () => {
    const run = await runCli(
      ['call', everythingTarget(), 'simulate-research-query', 'topic=tides', '--yes'],
      {
        limitMs: TASK_MS,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /# Research Report: tides/);
    assert.match(run.stderr, /^toolwire: task [\w-]+: working \(Gathering sources\.\.\.\)$/m);
  });

  it('--task for a tool without task support is a usage error', { timeout: TASK_MS }, async () => {
    const run = await runCli(['call', everythingTarget(), 'echo', 'message=x', '--task', '--yes'], {
      limitMs: TASK_MS,
    });
    assert.deepEqual(run, {
      code: 2,
      stdout: '',
      stderr:
        'toolwire: tool "echo" does not run as a task (its task support is "forbidden"); call it without --task\n' +
        'run "toolwire --help" for usage\n',
    });
  });

  describe('Ctrl-C during a task', () => {
    const server = new McpServer({ name: 'cli-tasks', version: '1.0.0' }, { logger: silentLogger });
    let aborted = deferred();
    server.tool({
      name: 'forever',
      description: 'Runs until cancelled',
      task: 'required',
      handler: async (_args, ctx) => {
        await new Promise<void>((resolve) =>
          ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
        );
        aborted.resolve();
        return 'stopped';
      },
    });
    let listening: HttpListening;
    before(async () => {
      listening = await listenHttp(server, { port: 0 });
    });
    after(async () => {
      await listening.close();
      await server.close();
    });

    it('cancels the task on the server (tasks/cancel) and exits 130', { timeout: TASK_MS }, async () => {
      aborted = deferred();
      const child = spawn(
        process.execPath,
        ['--import', TSX, `${FIXTURES}cli.ts`, 'call', listening.url, 'forever', '--yes'],
        { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      const working = deferred();
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        stderr += chunk;
        if (/task \S+: working/.test(stderr)) working.resolve();
      });
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
      try {
        await within(working.promise, TASK_MS, 'the task to be reported working');
        child.kill('SIGINT');
        assert.equal(await within(exited, TASK_MS, 'the CLI to exit'), 130);
        assert.match(stderr, /^toolwire: task \S+ of tool "forever" was cancelled$/m);
        await within(aborted.promise, TASK_MS, "the handler's signal to abort");
      } finally {
        child.kill('SIGKILL');
      }
    });
  });
});
