// The tasks extension at run time: creating tasks durably, live handles (abort, pending input), status changes.

import { randomBytes } from 'node:crypto';
import {
  ErrorCode,
  RpcError,
  encodeNotification,
  isJsonObject,
  type JsonObject,
} from '../../jsonrpc/index.js';
import {
  MetaKey,
  clientSupports,
  requiredCapabilityFor,
  type Caller,
  type ClientCapabilities,
  type InputRequest,
} from '../../protocol/index.js';
import type { Logger } from '../errors.js';
import { checkInputResponse, type InputBroker } from '../input.js';
import { isTerminal, type TaskState, type TaskStore } from './task-store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/**
 * Who a task belongs to: the caller's subject within the way it was established, so that the same subject from two
 * authenticators (an API key named "alice", a token whose sub is "alice") are not one owner.
 */
export const taskOwner = (caller: Caller): string => `${caller.via}:${caller.subject}`;

/** True when a request declared the tasks extension in its clientCapabilities. */
export const declaresTasks = (capabilities: ClientCapabilities): boolean =>
  isJsonObject(capabilities.extensions) && capabilities.extensions[TASKS_EXTENSION] !== undefined;

export const missingTasksCapability = (): RpcError =>
  new RpcError(
    ErrorCode.MissingRequiredClientCapability,
    `Missing required client capability: declare the ${TASKS_EXTENSION} extension to use tasks`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );

interface PendingInput {
  request: InputRequest;
  resolve(answer: unknown): void;
}

interface LiveTask {
  controller: { abort(reason: unknown): void };
  capabilities: ClientCapabilities;
  /** Answers given so far (tasks/update, or the MRTR rounds before the task was created). */
  answers: Map<string, unknown>;
  pending: Map<string, PendingInput>;
}

export interface TaskSettings {
  ttlMs: number | null;
  pollIntervalMs: number;
}

/** Sends a task's new state to listeners; the server wires it to subscriptions/listen streams. */
export type TaskPublisher = (task: TaskState) => void;

export class TaskManager {
  readonly store: TaskStore;
  readonly #settings: TaskSettings;
  readonly #live = new Map<string, LiveTask>();
  readonly #publish: TaskPublisher;
  readonly #logger: Logger;

  constructor(store: TaskStore, settings: TaskSettings, publish: TaskPublisher, logger: Logger) {
    this.store = store;
    this.#settings = settings;
    this.#publish = publish;
    this.#logger = logger;
  }

  /** Creates and stores a working task (durably, before it is reported) with its live handle. */
  async create(
    controller: { abort(reason: unknown): void },
    capabilities: ClientCapabilities,
    answers: Record<string, unknown>,
    owner: string | undefined,
  ): Promise<TaskState> {
    const now = new Date().toISOString();
    const task: TaskState = {
      taskId: randomBytes(16).toString('base64url'),
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: this.#settings.ttlMs,
      pollIntervalMs: this.#settings.pollIntervalMs,
    };
    if (owner !== undefined) task.owner = owner;
    try {
      await this.store.create(task);
    } catch (error) {
      throw new RpcError(ErrorCode.InternalError, `Could not create a task: ${(error as Error).message}`);
    }
    this.#live.set(task.taskId, {
      controller,
      capabilities,
      answers: new Map(Object.entries(answers)),
      pending: new Map(),
    });
    return task;
  }

  /** The task as its owner may see it; unknown, expired or someone else's → -32602. */
  async read(taskId: unknown, owner: string | undefined): Promise<TaskState> {
    if (typeof taskId !== 'string' || taskId.length === 0) {
      throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: taskId (a string) is required');
    }
    const task = await this.store.get(taskId);
    if (task === undefined || (task.owner !== undefined && task.owner !== owner)) {
      throw new RpcError(ErrorCode.InvalidParams, `Unknown task: "${taskId}" (it may have expired)`, {
        taskId,
      });
    }
    return task;
  }

  async #change(task: TaskState, patch: Partial<TaskState>): Promise<TaskState> {
    if (isTerminal(task.status)) return task; // terminal states never change
    const next: TaskState = { ...task, ...patch, lastUpdatedAt: new Date().toISOString() };
    if (next.status !== 'input_required') delete next.inputRequests;
    await this.store.put(next);
    if (isTerminal(next.status)) this.#live.delete(task.taskId);
    this.#publish(next);
    return next;
  }

  async complete(taskId: string, result: JsonObject): Promise<void> {
    const task = await this.store.get(taskId);
    if (task !== undefined) await this.#change(task, { status: 'completed', result });
  }

  async fail(taskId: string, error: unknown): Promise<void> {
    const task = await this.store.get(taskId);
    if (task === undefined) return;
    const rpc =
      error instanceof RpcError
        ? { code: error.code, message: error.message, ...(error.data !== undefined && { data: error.data }) }
        : { code: ErrorCode.InternalError, message: 'Internal error' };
    if (!(error instanceof RpcError)) this.#logger.error(`task ${taskId} failed`, error);
    await this.#change(task, { status: 'failed', error: rpc, statusMessage: rpc.message });
  }

  /** Cooperative: the handler's signal aborts and the task is cancelled; finished tasks are left as they are. */
  async cancel(task: TaskState): Promise<void> {
    if (isTerminal(task.status)) return;
    const live = this.#live.get(task.taskId);
    await this.#change(task, { status: 'cancelled', statusMessage: 'cancelled by the client' });
    live?.controller.abort(new Error('task cancelled'));
  }

  /** Shutdown: aborts every running task's handler (each then ends as its handler decides, or is left as it is). */
  abortAll(reason: Error): void {
    for (const live of this.#live.values()) live.controller.abort(reason);
  }

  /** Delivers answers; keys not outstanding are ignored; the task resumes once nothing is pending. */
  async update(task: TaskState, responses: unknown): Promise<void> {
    if (!isJsonObject(responses)) {
      throw new RpcError(
        ErrorCode.InvalidParams,
        'Invalid params: inputResponses must be an object keyed by input request',
      );
    }
    const live = this.#live.get(task.taskId);
    if (live === undefined || isTerminal(task.status)) return;
    // Check every outstanding answer before consuming any: a rejected update leaves the task as it was.
    const outstanding = Object.entries(responses).filter(([key]) => live.pending.has(key));
    for (const [key, value] of outstanding)
      checkInputResponse(key, (live.pending.get(key) as PendingInput).request, value);
    const answered: PendingInput[] = [];
    const values: unknown[] = [];
    for (const [key, value] of outstanding) {
      const pending = live.pending.get(key);
      if (pending === undefined) continue;
      answered.push(pending);
      values.push(value);
      live.pending.delete(key);
      live.answers.set(key, value);
    }
    if (answered.length === 0) return;
    const remaining = Object.fromEntries([...live.pending].map(([key, pending]) => [key, pending.request]));
    await this.#change(
      task,
      live.pending.size === 0
        ? { status: 'working' }
        : { status: 'input_required', inputRequests: remaining },
    );
    answered.forEach((pending, index) => pending.resolve(values[index]));
  }

  /** The input broker of a running task: answers come through tasks/update. */
  broker(taskId: string): InputBroker {
    return {
      request: async (requests) => {
        const live = this.#live.get(taskId);
        if (live === undefined) throw new Error('the task is no longer running');
        const waits: Promise<unknown>[] = [];
        const keys = Object.keys(requests);
        let asked = false;
        for (const key of keys) {
          const request = requests[key] as InputRequest;
          if (live.answers.has(key)) {
            waits.push(Promise.resolve(live.answers.get(key)));
            continue;
          }
          if (!clientSupports(live.capabilities, request)) {
            throw new RpcError(
              ErrorCode.MissingRequiredClientCapability,
              `Missing required client capability: this task needs ${request.method}, which the request did not declare`,
              { requiredCapabilities: requiredCapabilityFor(request) },
            );
          }
          waits.push(new Promise((resolve) => live.pending.set(key, { request, resolve })));
          asked = true;
        }
        if (asked) {
          const task = await this.store.get(taskId);
          const outstanding = Object.fromEntries(
            [...live.pending].map(([key, pending]) => [key, pending.request]),
          );
          if (task !== undefined)
            await this.#change(task, { status: 'input_required', inputRequests: outstanding });
        }
        const answers = await Promise.all(waits);
        return Object.fromEntries(keys.map((key, index) => [key, answers[index]]));
      },
    };
  }
}

/** The DetailedTask of tasks/get and notifications/tasks: the task fields, plus result/error/inputRequests. */
export function detailedTask(task: TaskState): JsonObject {
  const { owner: _owner, ...visible } = task;
  return visible as unknown as JsonObject; // TaskState is plain JSON
}

/** A notifications/tasks message for one listen subscription. */
export const taskNotification = (task: TaskState, subscriptionId: string | number): string =>
  encodeNotification('notifications/tasks', {
    ...detailedTask(task),
    _meta: { [MetaKey.SubscriptionId]: subscriptionId },
  });
