// Following a tool call that became a task: its status (polled at the server's interval, or pushed), its result,
// and its cancellation when the caller gives up. The tasks extension (2026-07-28) lives here; the 2025-11-25 form,
// which is not wire-compatible, in tasks-legacy.ts.

import { isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { Method } from '../protocol/index.js';
import { finish, type CallToolOutcome, type ToolCaller } from './call-result.js';
import { McpError, ProtocolError, RequestAbortedError, RequestTimeoutError } from './errors.js';
import { answerAll, type InputHandlers } from './input.js';
import type { KnownTool } from './tools.js';

/** A task's state as the caller is told of it (CallOptions.onTaskStatus). */
export interface TaskStatus {
  taskId: string;
  status: string;
  statusMessage?: string;
}

export interface TaskFollowing {
  signal?: AbortSignal;
  /** The whole task's time limit, from its creation to its result. */
  maxTotalTimeoutMs: number;
  onTaskStatus?: (task: TaskStatus) => void;
  /** The call's own input handlers (else the client's). */
  handlers?: InputHandlers;
}

/** Polling bounds: a server's pollInterval is honoured within them (an absurd one neither spins nor stalls us). */
const MIN_POLL_MS = 50;
const MAX_POLL_MS = 30_000;
const DEFAULT_POLL_MS = 1000;
/** tasks/cancel of a task given up on waits this long at most: the caller is leaving. */
const CANCEL_TIMEOUT_MS = 5000;

/** The caller's signal combined with the task's own deadline. */
export function followSignal(following: TaskFollowing): { signal: AbortSignal; deadline: AbortSignal } {
  const deadline = AbortSignal.timeout(following.maxTotalTimeoutMs);
  const signal = following.signal === undefined ? deadline : AbortSignal.any([following.signal, deadline]);
  return { signal, deadline };
}

/** Where a pause can be ended early (a pushed status): `now` is set while one is under way. */
export interface Wake {
  now?: (() => void) | undefined;
}

/** Waits a poll interval; resolves early when `wake` is called, rejects when `signal` aborts. */
export function pause(ms: unknown, signal: AbortSignal, wake: Wake): Promise<void> {
  const delay = typeof ms === 'number' && Number.isFinite(ms) ? ms : DEFAULT_POLL_MS;
  return new Promise((resolve, reject) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', aborted);
      wake.now = undefined;
      resolve();
    };
    const aborted = (): void => {
      clearTimeout(timer);
      wake.now = undefined;
      reject(new RequestAbortedError('waiting for the task'));
    };
    if (signal.aborted) return aborted();
    const timer = setTimeout(done, Math.min(Math.max(delay, MIN_POLL_MS), MAX_POLL_MS));
    signal.addEventListener('abort', aborted, { once: true });
    wake.now = done;
  });
}

/** Tells the caller of each change of status or status message (not of every identical poll answer). */
export function statusReporter(
  taskId: string,
  listener: TaskFollowing['onTaskStatus'],
): (task: JsonObject) => void {
  let last = '';
  return (task) => {
    if (listener === undefined || typeof task.status !== 'string') return;
    const status: TaskStatus = { taskId, status: task.status };
    if (typeof task.statusMessage === 'string') status.statusMessage = task.statusMessage;
    const key = `${status.status}\u0000${status.statusMessage ?? ''}`;
    if (key === last) return;
    last = key;
    listener(status);
  };
}

/**
 * The caller gave up (its signal, or the task's deadline): the server is told with tasks/cancel (never
 * notifications/cancelled, which tasks do not use), and the error says which it was.
 */
export async function abandon(
  client: ToolCaller,
  taskId: string,
  name: string,
  following: TaskFollowing,
  deadline: AbortSignal,
): Promise<Error> {
  await client
    .request(Method.TasksCancel, { taskId }, { timeoutMs: CANCEL_TIMEOUT_MS, idempotent: true })
    .catch(() => undefined);
  const what = `task ${taskId} of tool "${name}"`;
  return deadline.aborted && following.signal?.aborted !== true
    ? new RequestTimeoutError(what, following.maxTotalTimeoutMs)
    : new RequestAbortedError(what);
}

export const taskCancelled = (taskId: string, name: string): RequestAbortedError =>
  new RequestAbortedError(`task ${taskId} of tool "${name}"`);

/**
 * The tasks extension (modern wire): polls tasks/get as often as the server suggests until the task ends, and
 * answers its input requests on the way with tasks/update (each key once).
 */
export async function followTask(
  client: ToolCaller,
  name: string,
  known: KnownTool | undefined,
  created: JsonObject,
  following: TaskFollowing,
): Promise<CallToolOutcome> {
  const taskId = created.taskId as string; // checked by the caller
  const { signal, deadline } = followSignal(following);
  const report = statusReporter(taskId, following.onTaskStatus);
  const answered = new Set<string>();
  let task = created;
  try {
    for (;;) {
      report(task);
      switch (task.status) {
        case 'completed':
          if (!isJsonObject(task.result))
            throw new ProtocolError(`task ${taskId} completed without a result`);
          return { ...(await finish(client, name, known, task.result)), taskId };
        case 'failed': {
          const error = isJsonObject(task.error) ? task.error : { code: -32603, message: 'the task failed' };
          throw new McpError({ code: Number(error.code), message: String(error.message), data: error.data });
        }
        case 'cancelled':
          throw taskCancelled(taskId, name);
        case 'input_required': {
          const pending = isJsonObject(task.inputRequests) ? task.inputRequests : {};
          const fresh = Object.fromEntries(Object.entries(pending).filter(([key]) => !answered.has(key)));
          if (Object.keys(fresh).length > 0) {
            const handlers = following.handlers ?? client.options.handlers;
            const responses = await answerAll(handlers, client.serverInfo, fresh, signal);
            for (const key of Object.keys(responses)) answered.add(key);
            await client.request(Method.TasksUpdate, { taskId, inputResponses: responses }, { signal });
            break; // ask for the state at once: the answers may have moved it on
          }
          await pause(task.pollIntervalMs, signal, {});
          break;
        }
        case 'working':
          await pause(task.pollIntervalMs, signal, {});
          break;
        default:
          throw new ProtocolError(`task ${taskId} has an unknown status ${JSON.stringify(task.status)}`);
      }
      task = await client.request(Method.TasksGet, { taskId }, { signal });
    }
  } catch (error) {
    if (signal.aborted) throw await abandon(client, taskId, name, following, deadline);
    throw error;
  }
}
