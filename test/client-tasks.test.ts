// Tools that run as tasks, from the client: server-everything's simulate-research-query (2025-11-25 task-augmented
// calls, over stdio and HTTP+SSE) to completion, with a clarification asked on the way, and cancelled; toolwire's
// own server (the 2026-07-28 tasks extension) to completion with input, and cancelled (the handler's signal aborts).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  McpClient,
  RequestAbortedError,
  type ClientOptions,
  type Progress,
  type TaskStatus,
} from '../src/client/index.js';
import { McpServer, silentLogger } from '../src/index.js';
import type { Transport } from '../src/protocol/index.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { everythingStdio, startEverythingSse, type EverythingSse } from './fixtures/client/everything.js';
import { CLIENT_INFO, deferred, stdioTransport, within } from './fixtures/client/harness.js';

/** simulate-research-query takes four one-second stages; a loaded machine may take several times that. */
const TASK_MS = 60_000;
const RESEARCH = 'simulate-research-query';

async function connected(transport: Transport, options: ClientOptions = {}): Promise<McpClient> {
  const client = new McpClient(CLIENT_INFO, { approve: 'always', listenForChanges: false, ...options });
  await within(client.connect(transport), TASK_MS, 'connect');
  return client;
}

/** Runs the research to completion and checks what the caller saw on the way. */
async function researchToCompletion(client: McpClient): Promise<void> {
  const statuses: TaskStatus[] = [];
  const result = await within(
    client.callTool(RESEARCH, { topic: 'tides' }, { onTaskStatus: (status) => statuses.push(status) }),
    TASK_MS,
    'the research task',
  );
  assert.ok(result.taskId, 'ran as a task');
  assert.match(JSON.stringify(result.content), /# Research Report: tides/);
  assert.equal(statuses[0]?.status, 'working');
  assert.ok(statuses.every((status) => status.taskId === result.taskId));
  assert.ok(statuses.some((status) => status.statusMessage === 'Gathering sources...'));
}

/** Starts the research, aborts once it is working, and checks the server ended it. */
async function researchCancelled(client: McpClient): Promise<void> {
  const controller = new AbortController();
  let taskId: string | undefined;
  const call = client.callTool(
    RESEARCH,
    { topic: 'never finished' },
    {
      signal: controller.signal,
      onTaskStatus: (status) => {
        taskId = status.taskId;
        controller.abort();
      },
    },
  );
  await assert.rejects(within(call, TASK_MS, 'the cancelled call'), (error: unknown) => {
    assert.ok(error instanceof RequestAbortedError);
    assert.equal(error.message, `task ${taskId} of tool "${RESEARCH}" was cancelled`);
    return true;
  });
  const task = await client.request('tasks/get', { taskId: taskId ?? '' });
  assert.equal(task.status, 'cancelled', 'tasks/cancel reached the server before the call ended');
}

describe('client tasks: server-everything (2025-11-25 task-augmented calls)', () => {
  let sse: EverythingSse;
  before(async () => {
    sse = await startEverythingSse();
  });
  after(async () => {
    await sse?.close();
  });

  it('lists simulate-research-query as task-required', async () => {
    const client = await connected(everythingStdio());
    try {
      const tool = (await client.listTools()).find((candidate) => candidate.name === RESEARCH);
      assert.deepEqual(tool?.execution, { taskSupport: 'required' });
      assert.ok(client.serverCapabilities.tasks, 'the server offers tasks');
    } finally {
      await client.close();
    }
  });

  it('stdio: runs to completion, its status followed', { timeout: TASK_MS }, async () => {
    const client = await connected(everythingStdio());
    try {
      await researchToCompletion(client);
    } finally {
      await client.close();
    }
  });

  it('HTTP+SSE: runs to completion, its status followed', { timeout: TASK_MS }, async () => {
    const client = await connected(new HttpClientTransport(sse.url));
    try {
      await researchToCompletion(client);
    } finally {
      await client.close();
    }
  });

  it(
    'stdio and HTTP+SSE: aborting the call cancels the task on the server',
    { timeout: TASK_MS },
    async () => {
      for (const transport of [everythingStdio(), new HttpClientTransport(sse.url)]) {
        const client = await connected(transport);
        try {
          await researchCancelled(client);
        } finally {
          await client.close();
        }
      }
    },
  );

  it(
    'a clarification the task asks for mid-way is answered (tasks/result carries it)',
    { timeout: TASK_MS },
    async () => {
      const asked: string[] = [];
      const client = await connected(everythingStdio(), {
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { interpretation: 'historical' } };
          },
        },
      });
      try {
        const result = await within(
          client.callTool(RESEARCH, { topic: 'tides', ambiguous: true }),
          TASK_MS,
          'the ambiguous research',
        );
        assert.equal(asked.length, 1);
        assert.match(asked[0] ?? '', /could have multiple interpretations/);
        assert.match(JSON.stringify(result.content), /# Research Report: tides \(historical\)/);
      } finally {
        await client.close();
      }
    },
  );

  it('task: true for a tool without task support is refused before anything is sent', async () => {
    const client = await connected(everythingStdio());
    try {
      await assert.rejects(client.callTool('echo', { message: 'x' }, { task: true }), {
        name: 'ProtocolError',
        message: 'tool "echo" does not run as a task (its execution.taskSupport is "forbidden")',
      });
    } finally {
      await client.close();
    }
  });
});

describe('client tasks: an SDK v1 server with an optional task tool', () => {
  it(
    'task: true runs it as a task, and progress with the call token goes on while the task runs',
    { timeout: TASK_MS },
    async () => {
      const client = await connected(stdioTransport('sdk-v1-task-stdio.ts'));
      try {
        const tool = (await client.listTools()).find((candidate) => candidate.name === 'steps');
        assert.deepEqual(tool?.execution, { taskSupport: 'optional' });
        const progress: Progress[] = [];
        const result = await within(
          client.callTool('steps', {}, { task: true, onProgress: (p) => progress.push(p) }),
          TASK_MS,
          'the task',
        );
        assert.ok(result.taskId);
        assert.deepEqual(result.content, [{ type: 'text', text: 'stepped as a task' }]);
        assert.deepEqual(progress, [
          { progress: 1, total: 2, message: 'step 1' },
          { progress: 2, total: 2, message: 'step 2' },
        ]);
      } finally {
        await client.close();
      }
    },
  );
});

describe("client tasks: toolwire's own server (2026-07-28 tasks extension)", () => {
  const server = new McpServer(
    { name: 'tasks-peer', version: '1.0.0' },
    { logger: silentLogger, taskPollIntervalMs: 20 },
  );
  let started = deferred();
  let aborted = deferred();
  server.tool({
    name: 'report',
    description: 'A long job that asks whether to include the appendix',
    task: 'required',
    handler: async (_args, ctx) => {
      const answer = await ctx.elicit({
        message: 'Include the appendix?',
        requestedSchema: { type: 'object', properties: { appendix: { type: 'boolean' } } },
      });
      return answer.action === 'accept' && answer.content?.appendix === true ? 'report + appendix' : 'report';
    },
  });
  server.tool({
    name: 'forever',
    description: 'Runs until cancelled',
    task: 'required',
    handler: async (_args, ctx) => {
      started.resolve();
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

  it('a task-required tool runs as a task; its input request is answered with tasks/update', async () => {
    const client = await connected(new HttpClientTransport(listening.url), {
      handlers: { elicitation: () => ({ action: 'accept', content: { appendix: true } }) },
    });
    try {
      const statuses: string[] = [];
      const result = await within(
        client.callTool('report', {}, { onTaskStatus: (task) => statuses.push(task.status) }),
        TASK_MS,
        'the report task',
      );
      assert.ok(result.taskId);
      assert.deepEqual(result.content, [{ type: 'text', text: 'report + appendix' }]);
      assert.equal(statuses.at(-1), 'completed');
      assert.ok(statuses.includes('input_required'), statuses.join());
    } finally {
      await client.close();
    }
  });

  it('aborting the call sends tasks/cancel: the handler is aborted and the task stays cancelled', async () => {
    started = deferred();
    aborted = deferred();
    const client = await connected(new HttpClientTransport(listening.url));
    try {
      const controller = new AbortController();
      let taskId = '';
      const created = deferred();
      const call = client.callTool(
        'forever',
        {},
        {
          signal: controller.signal,
          onTaskStatus: (task) => {
            taskId = task.taskId;
            created.resolve();
          },
        },
      );
      await within(started.promise, TASK_MS, 'the handler to start');
      await within(created.promise, TASK_MS, 'the client to learn of the task');
      controller.abort();
      await assert.rejects(call, { message: `task ${taskId} of tool "forever" was cancelled` });
      await within(aborted.promise, TASK_MS, "the handler's signal to abort");
      const task = await client.request('tasks/get', { taskId });
      assert.equal(task.status, 'cancelled');
    } finally {
      await client.close();
    }
  });

  it('task: true is ignored on the modern wire: the server decides', async () => {
    const client = await connected(new HttpClientTransport(listening.url), {
      handlers: { elicitation: () => ({ action: 'decline' }) },
    });
    try {
      const result = await within(client.callTool('report', {}, { task: true }), TASK_MS, 'report');
      assert.deepEqual(result.content, [{ type: 'text', text: 'report' }]);
    } finally {
      await client.close();
    }
  });
});
