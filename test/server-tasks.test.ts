// The tasks extension (io.modelcontextprotocol/tasks) on the modern wire: advertising, CreateTaskResult, tasks/get,
// tasks/update, tasks/cancel, MRTR before a task, notifications/tasks on listen streams, and the memory store's bounds.

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { z } from 'zod';
import { ToolError } from '../src/index.js';
import { ErrorCode, RpcError } from '../src/jsonrpc/index.js';
import { MemoryTaskStore, type TaskState } from '../src/server/tasks/task-store.js';
import {
  SERVER_INFO_META,
  connect,
  deferred,
  initializeLegacy,
  isNotification,
  modern,
  testServer,
  type RawClient,
} from './support/harness.js';
import {
  ISO_8601,
  TASKS_EXTENSION,
  completeResult,
  errorOf,
  isTagged,
  modernWith,
  openListen,
  tasksCapabilities,
  waitForTaskStatus,
} from './support/raw-client.js';

const TASKS = tasksCapabilities();
const TASKS_AND_ELICITATION = tasksCapabilities({ elicitation: {} });
const MISSING_TASKS = {
  code: -32021,
  message: `Missing required client capability: declare the ${TASKS_EXTENSION} extension to use tasks`,
  data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
};
const SETTINGS = { taskTtlMs: 60_000, taskPollIntervalMs: 250 };

interface CreatedTask {
  taskId: string;
  status: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number | null;
  pollIntervalMs: number;
}

/**
 * Every task the tests start: cancelled when the file ends, because a running task's time limit (1 h by default) is
 * a timer that would keep the test process alive. Cancelling a finished task is a harmless empty ack.
 */
const startedTasks: { client: RawClient; taskId: string }[] = [];
after(async () => {
  for (const { client, taskId } of startedTasks) {
    await client.request('tasks/cancel', modernWith(TASKS, { taskId })).catch(() => undefined);
  }
});

/** tools/call that must come back as a CreateTaskResult; checks its exact shape and returns the task fields. */
async function startTask(
  client: RawClient,
  name: string,
  args: Record<string, unknown> = {},
  capabilities: Record<string, unknown> = TASKS,
): Promise<CreatedTask> {
  const response = await client.request('tools/call', modernWith(capabilities, { name, arguments: args }));
  const result = response.result ?? {};
  assert.equal(result.resultType, 'task', JSON.stringify(response));
  const taskId = result.taskId;
  assert.ok(typeof taskId === 'string' && /^[A-Za-z0-9_-]{22,}$/.test(taskId), `taskId ${String(taskId)}`);
  assert.match(String(result.createdAt), ISO_8601);
  assert.deepEqual(result, {
    resultType: 'task',
    taskId,
    status: 'working',
    createdAt: result.createdAt,
    lastUpdatedAt: result.createdAt,
    ttlMs: SETTINGS.taskTtlMs,
    pollIntervalMs: SETTINGS.taskPollIntervalMs,
    _meta: SERVER_INFO_META,
  });
  startedTasks.push({ client, taskId });
  const { resultType: _type, _meta, ...task } = result;
  return task as unknown as CreatedTask;
}

/** tasks/get as the client sees it (resultType "complete" and serverInfo checked), plus the fields it repeats. */
async function getTask(client: RawClient, taskId: string): Promise<Record<string, unknown>> {
  return completeResult(await client.request('tasks/get', modernWith(TASKS, { taskId })));
}

/** The DetailedTask a task at creation time turns into, with `changes`. */
const detailed = (task: CreatedTask, changes: Record<string, unknown>): Record<string, unknown> => {
  const { status: _status, lastUpdatedAt: _last, ...fixed } = task;
  return { ...fixed, ...changes };
};

const tasksRequest = (client: RawClient, method: string, params: Record<string, unknown>, caps = TASKS) =>
  client.request(method, modernWith(caps, params));

describe('tasks: advertising the extension', () => {
  it('TK-01: server/discover lists extensions["io.modelcontextprotocol/tasks"] only once a task tool is registered', async () => {
    const server = testServer();
    server.tool({ name: 'plain', handler: () => 'ok' });
    const client = await connect(server);
    assert.deepEqual(completeResult(await client.request('server/discover', modern())).capabilities, {
      tools: { listChanged: true },
      logging: {},
    });
    assert.deepEqual(errorOf(await tasksRequest(client, 'tasks/get', { taskId: 'x' })), {
      code: -32601,
      message: 'Method not found: tasks/get',
    });
    server.tool({ name: 'long', task: 'optional', handler: () => 'ok' });
    assert.deepEqual(completeResult(await client.request('server/discover', modern())).capabilities, {
      tools: { listChanged: true },
      logging: {},
      extensions: { [TASKS_EXTENSION]: {} },
    });
  });

  it('TK-15: initialize (legacy) advertises neither the extension nor legacy tasks capabilities', async () => {
    const server = testServer();
    server.tool({ name: 'long', task: 'required', handler: () => 'ok' });
    const client = await connect(server);
    const init = await initializeLegacy(client, '2025-11-25', { extensions: { [TASKS_EXTENSION]: {} } });
    assert.deepEqual(init.result?.capabilities, { tools: { listChanged: true }, logging: {} });
  });

  it('TK-15: tasks/result and tasks/list (2025-11-25 experimental tasks) get -32601', async () => {
    const server = testServer();
    server.tool({ name: 'long', task: 'optional', handler: () => 'ok' });
    const client = await connect(server);
    for (const method of ['tasks/result', 'tasks/list']) {
      assert.deepEqual(errorOf(await tasksRequest(client, method, { taskId: 'x' })), {
        code: -32601,
        message: `Method not found: ${method} is not part of protocol revision 2026-07-28`,
      });
    }
  });
});

describe('tasks: tools/call', () => {
  const server = testServer(SETTINGS);
  server.tool({
    name: 'greet',
    task: 'optional',
    inputSchema: z.object({ name: z.string() }),
    handler: ({ name }) => `Hello, ${name}!`,
  });
  server.tool({ name: 'must_be_task', task: 'required', handler: () => 'done' });

  it('TK-02: an optional task tool called without the extension answers synchronously', async () => {
    const client = await connect(server);
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { name: 'Ada' } }),
    );
    assert.deepEqual(completeResult(response), { content: [{ type: 'text', text: 'Hello, Ada!' }] });
  });

  it('TK-04/TK-05: with the extension the call returns CreateTaskResult (resultType "task", working, ISO times, ttlMs, pollIntervalMs) and tasks/get resolves at once', async () => {
    const client = await connect(server);
    const task = await startTask(client, 'greet', { name: 'Ada' });
    const got = await getTask(client, task.taskId);
    assert.ok(got.status === 'working' || got.status === 'completed', JSON.stringify(got));
  });

  it('TK-14: task ids are distinct and long enough to be unguessable (≥ 128 bits)', async () => {
    const client = await connect(server);
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await startTask(client, 'greet', { name: String(i) })).taskId);
    assert.equal(ids.size, 5);
  });

  it('TK-15: the 2025-11-25 `task` param is ignored: without the extension the call stays synchronous', async () => {
    const client = await connect(server);
    const response = await client.request(
      'tools/call',
      modern({ name: 'greet', arguments: { name: 'Bo' }, task: { ttl: 1000 } }),
    );
    assert.deepEqual(completeResult(response), { content: [{ type: 'text', text: 'Hello, Bo!' }] });
  });

  it('TK-15: the extension does not enable tasks on a 2025-11-25 session: the call is synchronous', async () => {
    const client = await connect(server);
    await initializeLegacy(client, '2025-11-25', { extensions: { [TASKS_EXTENSION]: {} } });
    const response = await client.request('tools/call', { name: 'greet', arguments: { name: 'Cy' } });
    assert.deepEqual(response.result, { content: [{ type: 'text', text: 'Hello, Cy!' }] });
  });

  it('TK-03: a required task tool called without the extension gets -32021 naming it in requiredCapabilities.extensions', async () => {
    const client = await connect(server);
    assert.deepEqual(await client.request('tools/call', modern({ name: 'must_be_task' }), { id: 4 }), {
      jsonrpc: '2.0',
      id: 4,
      error: MISSING_TASKS,
    });
    const otherExtension = modernWith({ extensions: { 'com.example/other': {} } }, { name: 'must_be_task' });
    assert.deepEqual(errorOf(await client.request('tools/call', otherExtension)), MISSING_TASKS);
  });

  it('TK-03: a required task tool with the extension runs as a task', async () => {
    const client = await connect(server);
    await startTask(client, 'must_be_task');
  });

  it('SEP-1303 with TK-02: argument validation still comes first: bad arguments give the usual isError result, not a task', async () => {
    const client = await connect(server);
    const response = await client.request('tools/call', modernWith(TASKS, { name: 'greet', arguments: {} }));
    const result = completeResult(response);
    assert.equal(result.isError, true);
    assert.equal(result.taskId, undefined);
  });
});

describe('tasks: tasks/get through the life of a task', () => {
  it('TK-07: working, then completed with the tools/call result inlined; notifications/tasks tell each change', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'slow_compute',
      task: 'optional',
      handler: async () => {
        await release.promise;
        return { content: [{ type: 'text', text: '42' }] };
      },
    });
    const client = await connect(server);
    const task = await startTask(client, 'slow_compute');
    assert.deepEqual(
      await getTask(client, task.taskId),
      detailed(task, { status: 'working', lastUpdatedAt: task.createdAt }),
    );
    await openListen(client, 'watch', { taskIds: [task.taskId] }, TASKS);
    release.resolve();
    const note = await waitForTaskStatus(client, 'watch', task.taskId, 'completed');
    const completed = await getTask(client, task.taskId);
    assert.match(String(completed.lastUpdatedAt), ISO_8601);
    assert.ok(String(completed.lastUpdatedAt) >= task.createdAt);
    assert.deepEqual(
      completed,
      detailed(task, {
        status: 'completed',
        lastUpdatedAt: completed.lastUpdatedAt,
        result: { content: [{ type: 'text', text: '42' }] },
      }),
    );
    assert.deepEqual(note.params, {
      ...completed,
      _meta: { 'io.modelcontextprotocol/subscriptionId': 'watch' },
    });
  });

  it('TK-08: an isError result (ToolError) makes a completed task, never a failed one', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'failing_job',
      task: 'optional',
      handler: async () => {
        await release.promise;
        throw new ToolError('The job failed: disk full');
      },
    });
    const client = await connect(server);
    const task = await startTask(client, 'failing_job');
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    release.resolve();
    await waitForTaskStatus(client, 'w', task.taskId, 'completed');
    const got = await getTask(client, task.taskId);
    assert.deepEqual(
      got,
      detailed(task, {
        status: 'completed',
        lastUpdatedAt: got.lastUpdatedAt,
        result: { content: [{ type: 'text', text: 'The job failed: disk full' }], isError: true },
      }),
    );
  });

  it('TK-08: an RpcError thrown by the handler makes a failed task with the JSON-RPC error and a statusMessage', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'protocol_error_job',
      task: 'optional',
      handler: async () => {
        await release.promise;
        throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: the dataset "x" does not exist', {
          dataset: 'x',
        });
      },
    });
    const client = await connect(server);
    const task = await startTask(client, 'protocol_error_job');
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    release.resolve();
    await waitForTaskStatus(client, 'w', task.taskId, 'failed');
    const got = await getTask(client, task.taskId);
    assert.deepEqual(
      got,
      detailed(task, {
        status: 'failed',
        lastUpdatedAt: got.lastUpdatedAt,
        statusMessage: 'Invalid params: the dataset "x" does not exist',
        error: {
          code: -32602,
          message: 'Invalid params: the dataset "x" does not exist',
          data: { dataset: 'x' },
        },
      }),
    );
  });

  it('TK-08, TO-01: a task past its time limit completes with an isError "timed out" result; its signal aborts', async () => {
    const server = testServer(SETTINGS);
    const aborted = deferred();
    server.tool({
      name: 'forever',
      task: 'optional',
      timeoutMs: 20,
      handler: (_args, ctx) =>
        new Promise<string>(() => ctx.signal.addEventListener('abort', () => aborted.resolve())),
    });
    const client = await connect(server);
    const task = await startTask(client, 'forever');
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    await waitForTaskStatus(client, 'w', task.taskId, 'completed');
    await aborted.promise;
    assert.deepEqual((await getTask(client, task.taskId)).result, {
      content: [{ type: 'text', text: 'Tool "forever" timed out after 20 ms' }],
      isError: true,
    });
  });
});

describe('tasks: unknown, expired and undeclared', () => {
  const server = testServer({ ...SETTINGS, taskTtlMs: 1000 });
  server.tool({ name: 'quick', task: 'optional', handler: () => 'quick' });

  for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
    it(`TK-12: ${method} for an unknown taskId gets -32602 with data.taskId`, async () => {
      const client = await connect(server);
      assert.deepEqual(
        errorOf(await tasksRequest(client, method, { taskId: 'no-such-task', inputResponses: {} })),
        {
          code: -32602,
          message: 'Unknown task: "no-such-task" (it may have expired)',
          data: { taskId: 'no-such-task' },
        },
      );
    });

    it(`TK-12: ${method} without a string taskId gets -32602`, async () => {
      const client = await connect(server);
      for (const params of [{}, { taskId: 7 }, { taskId: '' }]) {
        assert.deepEqual(errorOf(await tasksRequest(client, method, params)), {
          code: -32602,
          message: 'Invalid params: taskId (a string) is required',
        });
      }
    });

    it(`TK-12: ${method} from a request that does not declare the extension gets -32021`, async () => {
      const client = await connect(server);
      const created = await client.request('tools/call', modernWith(TASKS, { name: 'quick' }));
      const taskId = created.result?.taskId as string;
      assert.deepEqual(
        errorOf(await client.request(method, modern({ taskId, inputResponses: {} }))),
        MISSING_TASKS,
      );
    });
  }

  it('TK-12: tasks/get for a task past its ttlMs gets -32602 (taskTtlMs 1000, clock moved 1001 ms)', async (t) => {
    t.mock.timers.enable({ apis: ['Date'], now: Date.parse('2026-08-01T12:00:00.000Z') });
    const local = testServer({ ...SETTINGS, taskTtlMs: 1000 });
    local.tool({ name: 'quick', task: 'optional', handler: () => 'quick' });
    const client = await connect(local);
    const response = await client.request('tools/call', modernWith(TASKS, { name: 'quick' }));
    const taskId = response.result?.taskId as string;
    assert.equal(response.result?.createdAt, '2026-08-01T12:00:00.000Z');
    assert.equal(response.result?.ttlMs, 1000);
    t.mock.timers.tick(999);
    assert.equal((await getTask(client, taskId)).taskId, taskId);
    t.mock.timers.tick(2);
    assert.deepEqual(errorOf(await tasksRequest(client, 'tasks/get', { taskId })), {
      code: -32602,
      message: `Unknown task: "${taskId}" (it may have expired)`,
      data: { taskId },
    });
  });

  it('tasks ext. lifetime (ttlMs null = unlimited): taskTtlMs null: CreateTaskResult says ttlMs null (unlimited)', async () => {
    const local = testServer({ ...SETTINGS, taskTtlMs: null });
    local.tool({ name: 'quick', task: 'optional', handler: () => 'quick' });
    const client = await connect(local);
    const response = await client.request('tools/call', modernWith(TASKS, { name: 'quick' }));
    assert.equal(response.result?.resultType, 'task');
    assert.equal(response.result?.ttlMs, null);
  });
});

describe('tasks: tasks/cancel', () => {
  it("TK-11: cancelling a running task acks with an empty result, aborts the handler's signal, and the status stays cancelled even when the handler returns later", async () => {
    const server = testServer(SETTINGS);
    const started = deferred();
    const aborted = deferred();
    server.tool({
      name: 'slow_compute',
      task: 'optional',
      handler: (_args, ctx) =>
        new Promise<string>((resolve) => {
          ctx.signal.addEventListener('abort', () => {
            aborted.resolve();
            resolve('a result that arrives after the cancel');
          });
          started.resolve();
        }),
    });
    const client = await connect(server);
    const task = await startTask(client, 'slow_compute');
    await started.promise;
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    assert.deepEqual(
      await client.request('tasks/cancel', modernWith(TASKS, { taskId: task.taskId }), { id: 'cancel-1' }),
      { jsonrpc: '2.0', id: 'cancel-1', result: { resultType: 'complete', _meta: SERVER_INFO_META } },
    );
    await aborted.promise;
    await waitForTaskStatus(client, 'w', task.taskId, 'cancelled');
    await client.flush();
    const got = await getTask(client, task.taskId);
    assert.deepEqual(
      got,
      detailed(task, {
        status: 'cancelled',
        statusMessage: 'cancelled by the client',
        lastUpdatedAt: got.lastUpdatedAt,
      }),
    );
    const statuses = client
      .notifications()
      .filter((m) => m.method === 'notifications/tasks')
      .map((m) => m.params?.status);
    assert.deepEqual(statuses, ['cancelled'], 'no completed after the cancel');
  });

  it('TK-11: cancelling a finished task acks with an empty result and leaves it as it was', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'job',
      task: 'optional',
      handler: async () => {
        await release.promise;
        return 'finished';
      },
    });
    const client = await connect(server);
    const task = await startTask(client, 'job');
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    release.resolve();
    await waitForTaskStatus(client, 'w', task.taskId, 'completed');
    const before = await getTask(client, task.taskId);
    assert.deepEqual(completeResult(await tasksRequest(client, 'tasks/cancel', { taskId: task.taskId })), {});
    assert.deepEqual(await getTask(client, task.taskId), before);
    assert.equal(before.status, 'completed');
  });

  it('CA-08: notifications/cancelled for the tools/call id does not cancel the task', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'job',
      task: 'optional',
      handler: async () => {
        await release.promise;
        return 'finished';
      },
    });
    const client = await connect(server);
    const response = await client.request('tools/call', modernWith(TASKS, { name: 'job' }), { id: 'call-1' });
    const taskId = response.result?.taskId as string;
    startedTasks.push({ client, taskId });
    await openListen(client, 'w', { taskIds: [taskId] }, TASKS);
    client.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'call-1' } });
    await client.flush();
    release.resolve();
    await waitForTaskStatus(client, 'w', taskId, 'completed');
  });
});

describe('tasks: server shutdown', () => {
  it('TK-11 (cancellation is cooperative) on shutdown: McpServer.close() ("aborts calls in flight") aborts the signal of a running task', async () => {
    // A short task time limit, so that without the fix the test process still exits soon after.
    const server = testServer({ ...SETTINGS, taskTimeoutMs: 1000 });
    const started = deferred();
    const aborted = deferred<string>();
    server.tool({
      name: 'slow_compute',
      task: 'optional',
      handler: (_args, ctx) =>
        new Promise<string>(() => {
          ctx.signal.addEventListener('abort', () => aborted.resolve('aborted'));
          started.resolve();
        }),
    });
    const client = await connect(server);
    await client.request('tools/call', modernWith(TASKS, { name: 'slow_compute' }));
    await started.promise;
    await server.close();
    const outcome = await Promise.race([
      aborted.promise,
      new Promise<string>((resolve) => setTimeout(resolve, 300, 'still running 300 ms after close()')),
    ]);
    assert.equal(outcome, 'aborted');
  });
});

describe('tasks: tasks/update and input requests', () => {
  const nameRequest = {
    method: 'elicitation/create',
    params: {
      message: 'Your name?',
      requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    },
  } as const;
  const colorRequest = {
    method: 'elicitation/create',
    params: {
      message: 'Favourite colour?',
      requestedSchema: { type: 'object', properties: { color: { type: 'string' } }, required: ['color'] },
    },
  } as const;
  const accept = (content: Record<string, string>) => ({ action: 'accept', content });

  /** A server whose multi_input tool waits for `gate` and then asks for two answers at once. */
  function multiInputServer(gate: Promise<void>) {
    const server = testServer(SETTINGS);
    server.tool({
      name: 'multi_input',
      task: 'optional',
      handler: async (_args, ctx) => {
        await gate;
        const answers = (await ctx.requestInput({ name: nameRequest, color: colorRequest })) as Record<
          string,
          { content: Record<string, string> }
        >;
        return `${answers.name?.content.name} likes ${answers.color?.content.color}`;
      },
    });
    return server;
  }

  /** Connects, starts multi_input as a task, watches it on listen stream "w", and waits until it asks for input. */
  async function waitingTask(
    capabilities = TASKS_AND_ELICITATION,
  ): Promise<{ client: RawClient; task: CreatedTask }> {
    const gate = deferred();
    const client = await connect(multiInputServer(gate.promise));
    const task = await startTask(client, 'multi_input', {}, capabilities);
    await openListen(client, 'w', { taskIds: [task.taskId] }, TASKS);
    gate.resolve();
    return { client, task };
  }
  const untilWaiting = (client: RawClient, task: CreatedTask) =>
    waitForTaskStatus(client, 'w', task.taskId, 'input_required');

  it('TK-09: partial fulfilment: two requests outstanding, one answered, only the other remains; answering it completes the task', async () => {
    const { client, task } = await waitingTask();
    await untilWaiting(client, task);
    const waiting = await getTask(client, task.taskId);
    assert.deepEqual(
      waiting,
      detailed(task, {
        status: 'input_required',
        lastUpdatedAt: waiting.lastUpdatedAt,
        inputRequests: { name: nameRequest, color: colorRequest },
      }),
    );
    const from = client.received().length;
    assert.deepEqual(
      completeResult(
        await tasksRequest(client, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: { name: accept({ name: 'Ada' }) },
        }),
      ),
      {},
    );
    await client.waitFor(
      isTagged('notifications/tasks', 'w', (p) => p.status === 'input_required'),
      undefined,
      from,
    );
    assert.deepEqual((await getTask(client, task.taskId)).inputRequests, { color: colorRequest });
    await tasksRequest(client, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { color: accept({ color: 'teal' }) },
    });
    await waitForTaskStatus(client, 'w', task.taskId, 'completed');
    const done = await getTask(client, task.taskId);
    assert.deepEqual(done.result, { content: [{ type: 'text', text: 'Ada likes teal' }] });
    assert.equal(done.inputRequests, undefined);
  });

  it('TK-09: keys that are not outstanding are ignored (empty ack, nothing changes)', async () => {
    const { client, task } = await waitingTask();
    await untilWaiting(client, task);
    const before = await getTask(client, task.taskId);
    assert.deepEqual(
      completeResult(
        await tasksRequest(client, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: { unknown_key: accept({ x: 'y' }), another: 12345 },
        }),
      ),
      {},
    );
    assert.deepEqual(await getTask(client, task.taskId), before);
  });

  for (const [label, inputResponses, message] of [
    ['null', null, 'Invalid params: inputResponses must be an object keyed by input request'],
    ['missing', undefined, 'Invalid params: inputResponses must be an object keyed by input request'],
    [
      'an array',
      [accept({ name: 'x' })],
      'Invalid params: inputResponses must be an object keyed by input request',
    ],
    [
      'an elicitation answer of 12345',
      { name: 12345 },
      'Invalid params: inputResponses["name"] is not a valid elicitation/create result (expected an object)',
    ],
    [
      'an elicitation answer with action "ok"',
      { color: { action: 'ok' } },
      'Invalid params: inputResponses["color"] is not a valid elicitation/create result (action must be "accept", "decline" or "cancel")',
    ],
  ] as const) {
    it(`MR-09/TK-09: inputResponses ${label} gets -32602 and the task keeps waiting for both`, async () => {
      const { client, task } = await waitingTask();
      await untilWaiting(client, task);
      const params: Record<string, unknown> = { taskId: task.taskId };
      if (inputResponses !== undefined) params.inputResponses = inputResponses;
      assert.deepEqual(errorOf(await tasksRequest(client, 'tasks/update', params)), {
        code: -32602,
        message,
      });
      assert.deepEqual((await getTask(client, task.taskId)).inputRequests, {
        name: nameRequest,
        color: colorRequest,
      });
    });
  }

  it('TK-09: an update with one valid and one invalid answer is rejected as a whole; answering both again completes the task', async () => {
    const { client, task } = await waitingTask();
    await untilWaiting(client, task);
    assert.deepEqual(
      errorOf(
        await tasksRequest(client, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: { name: accept({ name: 'Ada' }), color: 12345 },
        }),
      ),
      {
        code: -32602,
        message:
          'Invalid params: inputResponses["color"] is not a valid elicitation/create result (expected an object)',
      },
    );
    assert.deepEqual((await getTask(client, task.taskId)).inputRequests, {
      name: nameRequest,
      color: colorRequest,
    });
    await tasksRequest(client, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { name: accept({ name: 'Ada' }), color: accept({ color: 'red' }) },
    });
    await client.waitFor(
      isTagged('notifications/tasks', 'w', (p) => p.taskId === task.taskId && p.status === 'completed'),
      1000,
    );
    assert.deepEqual((await getTask(client, task.taskId)).result, {
      content: [{ type: 'text', text: 'Ada likes red' }],
    });
  });

  it('TK-09 (terminal states never change): tasks/update on a finished task is an empty ack and changes nothing', async () => {
    const { client, task } = await waitingTask();
    await untilWaiting(client, task);
    await tasksRequest(client, 'tasks/update', {
      taskId: task.taskId,
      inputResponses: { name: accept({ name: 'A' }), color: accept({ color: 'B' }) },
    });
    await waitForTaskStatus(client, 'w', task.taskId, 'completed');
    const before = await getTask(client, task.taskId);
    assert.deepEqual(
      completeResult(
        await tasksRequest(client, 'tasks/update', {
          taskId: task.taskId,
          inputResponses: { name: accept({ name: 'Z' }) },
        }),
      ),
      {},
    );
    assert.deepEqual(await getTask(client, task.taskId), before);
  });

  it('MR-04 in a task: an input request the client did not declare fails the task with -32021', async () => {
    const { client, task } = await waitingTask(TASKS);
    await waitForTaskStatus(client, 'w', task.taskId, 'failed');
    const got = await getTask(client, task.taskId);
    assert.deepEqual(
      got,
      detailed(task, {
        status: 'failed',
        lastUpdatedAt: got.lastUpdatedAt,
        statusMessage:
          'Missing required client capability: this task needs elicitation/create, which the request did not declare',
        error: {
          code: -32021,
          message:
            'Missing required client capability: this task needs elicitation/create, which the request did not declare',
          data: { requiredCapabilities: { elicitation: {} } },
        },
      }),
    );
  });
});

describe('tasks: MRTR first, then a task (start: "when-asked")', () => {
  const confirm = {
    method: 'elicitation/create',
    params: {
      message: 'Delete 3 files?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    },
  } as const;
  const reason = {
    method: 'elicitation/create',
    params: { message: 'Why?', requestedSchema: { type: 'object', properties: { why: { type: 'string' } } } },
  } as const;

  function confirmServer(release: Promise<void>) {
    const server = testServer(SETTINGS);
    server.tool({
      name: 'confirm_delete',
      task: { support: 'optional', start: 'when-asked' },
      handler: async (_args, ctx) => {
        const answer = await ctx.elicit(confirm.params, 'confirm');
        if (answer.action !== 'accept' || answer.content?.ok !== true) return 'kept everything';
        const asTask = await ctx.runAsTask();
        await release;
        if (!asTask) return 'deleted synchronously';
        const why = await ctx.elicit(reason.params, 'reason');
        return `deleted as a task (${String(why.content?.why)})`;
      },
    });
    return server;
  }

  it('TK-06: the MRTR round is answered synchronously; the retry becomes a task whose later input goes through tasks/update', async () => {
    const release = deferred();
    const client = await connect(confirmServer(release.promise));
    const first = await client.request(
      'tools/call',
      modernWith(TASKS_AND_ELICITATION, { name: 'confirm_delete' }),
    );
    const requestState = first.result?.requestState as string;
    assert.deepEqual(first.result, {
      resultType: 'input_required',
      inputRequests: { confirm },
      requestState,
      _meta: SERVER_INFO_META,
    });
    const retry = await client.request(
      'tools/call',
      modernWith(TASKS_AND_ELICITATION, {
        name: 'confirm_delete',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState,
      }),
    );
    assert.equal(retry.result?.resultType, 'task', JSON.stringify(retry));
    const taskId = retry.result?.taskId as string;
    startedTasks.push({ client, taskId });
    await openListen(client, 'w', { taskIds: [taskId] }, TASKS);
    release.resolve();
    const waiting = await waitForTaskStatus(client, 'w', taskId, 'input_required');
    assert.deepEqual(waiting.params?.inputRequests, { reason }, 'TK-10: the task asks under its own key');
    await tasksRequest(client, 'tasks/update', {
      taskId,
      inputResponses: { reason: { action: 'accept', content: { why: 'cleanup' } } },
    });
    await waitForTaskStatus(client, 'w', taskId, 'completed');
    assert.deepEqual((await getTask(client, taskId)).result, {
      content: [{ type: 'text', text: 'deleted as a task (cleanup)' }],
    });
  });

  it('TK-02 (the server decides per request): when-asked: a handler that never calls runAsTask answers synchronously even with the extension', async () => {
    const release = deferred();
    release.resolve();
    const client = await connect(confirmServer(release.promise));
    const first = await client.request(
      'tools/call',
      modernWith(TASKS_AND_ELICITATION, { name: 'confirm_delete' }),
    );
    const retry = await client.request(
      'tools/call',
      modernWith(TASKS_AND_ELICITATION, {
        name: 'confirm_delete',
        inputResponses: { confirm: { action: 'decline' } },
        requestState: first.result?.requestState as string,
      }),
    );
    assert.deepEqual(completeResult(retry), { content: [{ type: 'text', text: 'kept everything' }] });
  });

  it('TK-02 (no task without the extension): when-asked without the extension: runAsTask() resolves false and the call completes synchronously', async () => {
    const release = deferred();
    release.resolve();
    const client = await connect(confirmServer(release.promise));
    const caps = { elicitation: {} };
    const first = await client.request('tools/call', modernWith(caps, { name: 'confirm_delete' }));
    const retry = await client.request(
      'tools/call',
      modernWith(caps, {
        name: 'confirm_delete',
        inputResponses: { confirm: { action: 'accept', content: { ok: true } } },
        requestState: first.result?.requestState as string,
      }),
    );
    assert.deepEqual(completeResult(retry), { content: [{ type: 'text', text: 'deleted synchronously' }] });
  });
});

describe('tasks: notifications/tasks on subscriptions/listen', () => {
  it('TK-12: listen with taskIds from a request without the extension gets -32021', async () => {
    const server = testServer(SETTINGS);
    server.tool({ name: 'job', task: 'optional', handler: () => 'x' });
    const client = await connect(server);
    assert.deepEqual(
      await client.request('subscriptions/listen', modern({ notifications: { taskIds: ['abc'] } }), {
        id: 'l1',
      }),
      { jsonrpc: '2.0', id: 'l1', error: MISSING_TASKS },
    );
  });

  it("SU-04: the acknowledgement lists the task ids; SU-02: other tasks' changes are not sent", async () => {
    const server = testServer(SETTINGS);
    const releases = [deferred(), deferred()];
    let next = 0;
    server.tool({
      name: 'job',
      task: 'optional',
      handler: async () => {
        const mine = releases[next++];
        await mine?.promise;
        return 'done';
      },
    });
    const client = await connect(server);
    const watched = await startTask(client, 'job');
    const other = await startTask(client, 'job');
    assert.deepEqual(
      await openListen(client, 7, { taskIds: [watched.taskId, 'not-a-task'], toolsListChanged: true }, TASKS),
      { toolsListChanged: true, taskIds: [watched.taskId, 'not-a-task'] },
    );
    releases[1]?.resolve();
    releases[0]?.resolve();
    const note = await waitForTaskStatus(client, 7, watched.taskId, 'completed');
    assert.equal(note.params?.taskId, watched.taskId);
    await client.flush();
    assert.ok(
      !client
        .notifications()
        .some((m) => isNotification('notifications/tasks')(m) && m.params?.taskId === other.taskId),
      'nothing about the task the stream did not name',
    );
  });

  it('SU-02: a listen stream without taskIds gets no notifications/tasks', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'job',
      task: 'optional',
      handler: async () => {
        await release.promise;
        return 'done';
      },
    });
    const client = await connect(server);
    await openListen(client, 'plain', { toolsListChanged: true }, TASKS);
    const task = await startTask(client, 'job');
    await openListen(client, 'watch', { taskIds: [task.taskId] }, TASKS);
    release.resolve();
    await waitForTaskStatus(client, 'watch', task.taskId, 'completed');
    await client.flush();
    assert.ok(!client.notifications().some(isTagged('notifications/tasks', 'plain')));
  });

  it('TK-13: a task sends no notifications/progress or notifications/message, even when the call asked for them', async () => {
    const server = testServer(SETTINGS);
    const release = deferred();
    server.tool({
      name: 'test_tool_with_task',
      task: 'optional',
      handler: async (_args, ctx) => {
        ctx.progress(1, 3, 'starting');
        ctx.log('info', 'starting');
        await release.promise;
        ctx.progress(3, 3, 'done');
        ctx.log('info', 'done');
        return 'done';
      },
    });
    const client = await connect(server);
    const response = await client.request(
      'tools/call',
      modern(
        { name: 'test_tool_with_task' },
        {
          'io.modelcontextprotocol/clientCapabilities': TASKS,
          'io.modelcontextprotocol/logLevel': 'debug',
          progressToken: 'p1',
        },
      ),
    );
    const taskId = response.result?.taskId as string;
    startedTasks.push({ client, taskId });
    await openListen(client, 'w', { taskIds: [taskId] }, TASKS);
    release.resolve();
    await waitForTaskStatus(client, 'w', taskId, 'completed');
    await client.flush();
    const chatter = client
      .notifications()
      .filter((m) => m.method === 'notifications/progress' || m.method === 'notifications/message');
    assert.deepEqual(chatter, []);
  });
});

describe('tasks: the memory store is bounded', () => {
  const state = (taskId: string, status: TaskState['status']): TaskState => ({
    taskId,
    status,
    createdAt: new Date().toISOString(),
    lastUpdatedAt: new Date().toISOString(),
    ttlMs: null,
    pollIntervalMs: 500,
  });

  it('tasks ext. (servers MAY purge finished tasks): MemoryTaskStore({ maxTasks: 2 }) evicts the oldest finished task, never a running one, and refuses when all run', async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    try {
      await store.create(state('running-oldest', 'working'));
      await store.create(state('finished', 'completed'));
      await store.create(state('newest', 'input_required'));
      assert.equal((await store.get('running-oldest'))?.status, 'working');
      assert.equal(await store.get('finished'), undefined);
      assert.equal((await store.get('newest'))?.status, 'input_required');
      await assert.rejects(store.create(state('one-too-many', 'working')), {
        message: 'too many tasks in progress (limit 2)',
      });
      assert.equal(store.size, 2);
    } finally {
      store.close();
    }
  });

  it('tasks ext. -32603 for internal errors: through the server, a third task is refused (-32603) while two run, and accepted once one has finished (which is evicted)', async () => {
    const store = new MemoryTaskStore({ maxTasks: 2 });
    const server = testServer({ ...SETTINGS, taskStore: store });
    const releases = new Map<string, { resolve: () => void }>();
    const ran: string[] = [];
    server.tool({
      name: 'job',
      task: 'optional',
      inputSchema: z.object({ key: z.string() }),
      handler: async ({ key }) => {
        ran.push(key);
        const release = deferred();
        releases.set(key, release);
        await release.promise;
        return key;
      },
    });
    try {
      const client = await connect(server);
      const a = await startTask(client, 'job', { key: 'a' });
      const b = await startTask(client, 'job', { key: 'b' });
      assert.deepEqual(
        errorOf(
          await client.request('tools/call', modernWith(TASKS, { name: 'job', arguments: { key: 'c' } })),
        ),
        { code: -32603, message: 'Could not create a task: too many tasks in progress (limit 2)' },
      );
      await client.flush();
      assert.deepEqual(ran, ['a', 'b'], 'the refused call never ran');
      await openListen(client, 'w', { taskIds: [a.taskId] }, TASKS);
      releases.get('a')?.resolve();
      await waitForTaskStatus(client, 'w', a.taskId, 'completed');
      await startTask(client, 'job', { key: 'c' });
      assert.equal(errorOf(await tasksRequest(client, 'tasks/get', { taskId: a.taskId })).code, -32602);
      assert.equal((await getTask(client, b.taskId)).status, 'working');
    } finally {
      store.close();
    }
  });
});
