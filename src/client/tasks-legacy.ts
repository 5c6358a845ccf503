// Task-augmented tool calls of 2025-11-25 (experimental tasks): tools/call with params.task answers a
// CreateTaskResult; the status is followed with tasks/get at the server's pollInterval (woken early by
// notifications/tasks/status), and once the task needs input or has ended, tasks/result delivers the server's
// requests and then the result. The progress token of the call stays valid for the task's whole life.

import { randomUUID } from 'node:crypto';
import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { Method, Notification } from '../protocol/index.js';
import { finish, type CallToolOutcome, type ToolCaller } from './call-result.js';
import type { Progress } from './channel.js';
import { ProtocolError } from './errors.js';
import type { ClientRequestOptions } from './session.js';
import {
  abandon,
  followSignal,
  pause,
  statusReporter,
  taskCancelled,
  type TaskFollowing,
  type Wake,
} from './tasks.js';
import type { KnownTool } from './tools.js';

const TASK_STATUS = 'notifications/tasks/status';
const TASKS_RESULT = 'tasks/result';

/** Whether a legacy server takes task-augmented tools/call (its tasks.requests.tools.call capability). */
export function offersToolTasks(capabilities: { tasks?: unknown }): boolean {
  const tasks = capabilities.tasks;
  return (
    isJsonObject(tasks) &&
    isJsonObject(tasks.requests) &&
    isJsonObject(tasks.requests.tools) &&
    tasks.requests.tools.call !== undefined
  );
}

export interface LegacyTaskCall extends TaskFollowing {
  onProgress?: (progress: Progress) => void;
  /** The task lifetime to ask for (the server may choose another). */
  ttlMs?: number;
}

/** Sends the call with `task` and follows the task it creates to its result. */
export async function callAsLegacyTask(
  client: ToolCaller,
  name: string,
  args: JsonObject,
  known: KnownTool | undefined,
  call: LegacyTaskCall,
  requestOptions: ClientRequestOptions,
): Promise<CallToolOutcome> {
  // Our own token (not the request id): progress goes on after tools/call is answered, for as long as the task runs.
  const token = `toolwire-task-${randomUUID()}`;
  const onProgress = call.onProgress;
  const stopProgress =
    onProgress === undefined
      ? undefined
      : client.onNotification(Notification.Progress, (params) => {
          if (params?.progressToken !== token || typeof params.progress !== 'number') return;
          const progress: Progress = { progress: params.progress };
          if (typeof params.total === 'number') progress.total = params.total;
          if (typeof params.message === 'string') progress.message = params.message;
          onProgress(progress);
        });
  try {
    const params: JsonObject = {
      name,
      arguments: args,
      task: call.ttlMs === undefined ? {} : { ttl: call.ttlMs },
      ...(onProgress !== undefined && { _meta: { progressToken: token } }),
    };
    const { onProgress: _channelProgress, ...plain } = requestOptions;
    const created = await client.request(Method.ToolsCall, params, plain);
    if (isJsonObject(created.task) && typeof created.task.taskId === 'string') {
      return await followLegacyTask(client, name, known, created.task, call);
    }
    // A server may run a task-augmented call normally (it need not honour the task): its result stands.
    if (Array.isArray(created.content)) return await finish(client, name, known, created);
    throw new ProtocolError(`tools/call of "${name}" as a task answered neither a task nor a tool result`);
  } finally {
    stopProgress?.();
  }
}

async function followLegacyTask(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  created: JsonObject,
  following: TaskFollowing,
): Promise<CallToolOutcome> {
  const taskId = created.taskId as string; // checked by the caller
  const { signal, deadline } = followSignal(following);
  const report = statusReporter(taskId, following.onTaskStatus);
  const wake: Wake = {};
  let task = created;
  const stop = client.onNotification(TASK_STATUS, (params) => {
    if (params?.taskId !== taskId) return;
    task = params;
    report(task);
    wake.now?.();
  });
  try {
    for (;;) {
      report(task);
      switch (task.status) {
        case 'working':
          await pause(task.pollInterval, signal, wake);
          if (task.status === 'working') task = await client.request(Method.TasksGet, { taskId }, { signal });
          continue;
        case 'input_required': // tasks/result carries the server's requests (answered by the handlers), then the end
        case 'completed':
        case 'failed': {
          // Blocks until the task ends; the task's own deadline bounds it, not the per-request limit.
          const input = { handlers: following.handlers, signal };
          const result = await client.request(TASKS_RESULT, { taskId }, { signal, timeoutMs: 0, input });
          return { ...(await finish(client, name, known, result)), taskId };
        }
        case 'cancelled':
          throw taskCancelled(taskId, name);
        default:
          throw new ProtocolError(`task ${taskId} has an unknown status ${JSON.stringify(task.status)}`);
      }
    }
  } catch (error) {
    if (signal.aborted) throw await abandon(client, taskId, name, following, deadline);
    throw error;
  } finally {
    stop();
  }
}
