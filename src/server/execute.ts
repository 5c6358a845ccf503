// Running one handler (tool, prompt or resource) under its signal and time limit, with input requests on either era.

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { Cancellation, onTransportAbort, type InputRequest } from '../protocol/index.js';
import { ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { ModernInputBroker, type InputBroker } from './input.js';
import type { RequestScope } from './request-scope.js';
import { carriedStates, handlerResponses, openState } from './middleware-input.js';
import { argumentsDigest, principalDigest } from './request-state.js';
import { taskOwner } from './tasks/task-manager.js';

/** How a handler run ended. */
export type Execution =
  | { kind: 'value'; value: unknown }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'input_required'; result: object }
  | { kind: 'cancelled' }
  | { kind: 'timed_out'; timeoutMs: number }
  | { kind: 'task'; result: object };

/** How a handler that may become a task (tasks extension) runs. */
export interface TaskOptions {
  /** Create the task before the handler starts (else when it calls ctx.runAsTask()). */
  immediately: boolean;
  /** Time limit once running as a task. */
  timeoutMs: number;
  /** Turns how the handler ended into the task's result (or throws an RpcError: the task fails). */
  settle(execution: Execution): Promise<object>;
}

export interface ExecuteOptions {
  /** What a requestState is bound to besides the arguments: "tool:<name>", "prompt:<name>", "resource:<uri>". */
  binding: string;
  args: unknown;
  timeoutMs: number;
  run: (ctx: ToolContext) => unknown;
  /** Present when this call may run as a task (the client declared the extension and the tool supports it). */
  task?: TaskOptions;
}

/**
 * ExecuteOptions as a class, which is how the handlers pass them. An object literal here would be an allocation site
 * V8 may pretenure once it has seen its objects outlive a young collection; an old one would keep `run`, and with it
 * the whole request, alive through every young collection until a full one (see protocol/live-list.ts).
 */
export class RunSpec implements ExecuteOptions {
  readonly binding: string;
  readonly args: unknown;
  readonly timeoutMs: number;
  readonly run: (ctx: ToolContext) => unknown;
  readonly task?: TaskOptions;

  constructor(
    binding: string,
    args: unknown,
    timeoutMs: number,
    run: (ctx: ToolContext) => unknown,
    task?: TaskOptions,
  ) {
    this.binding = binding;
    this.args = args;
    this.timeoutMs = timeoutMs;
    this.run = run;
    if (task !== undefined) this.task = task;
  }
}

/** A legacy broker: each input request becomes a JSON-RPC request to the client over the connection. */
class LegacyInputBroker implements InputBroker {
  readonly #scope: RequestScope;
  constructor(scope: RequestScope) {
    this.#scope = scope;
  }
  async request(
    requests: Record<string, InputRequest>,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const { clientCapabilities } = this.#scope.envelope;
    const entries = Object.entries(requests);
    for (const [, request] of entries) {
      const capability =
        request.method === 'elicitation/create'
          ? 'elicitation'
          : request.method === 'roots/list'
            ? 'roots'
            : 'sampling';
      if (clientCapabilities[capability] === undefined) {
        throw new ToolError(
          `This request needs the client capability "${capability}", which this client did not declare`,
        );
      }
    }
    const answers = await Promise.all(
      entries.map(([, request]) =>
        this.#scope.connection.request(
          this.#scope,
          request.method,
          request.params as JsonObject | undefined,
          signal,
        ),
      ),
    );
    const result: Record<string, unknown> = {};
    entries.forEach(([key], index) => (result[key] = answers[index]));
    return result;
  }
}

const ABORTED = Symbol('aborted');
const ESCALATED = Symbol('escalated');

const onTimeout = (cancellation: Cancellation): void => cancellation.abort(new Error('timed out'));

/** Resolves when the run is aborted: the handler's promise races against it. */
const whenAborted = (cancellation: Cancellation): Promise<typeof ABORTED> =>
  new Promise((resolve) => cancellation.onAbort(() => resolve(ABORTED)));

/** Earlier answers (from requestState) plus this round's inputResponses (less those middleware asked for). */
function gatherAnswers(scope: RequestScope, binding: string, args: unknown): Record<string, unknown> {
  const responses = scope.params?.inputResponses;
  if (responses !== undefined && !isJsonObject(responses)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: inputResponses must be an object keyed by input request',
    );
  }
  const payload = openState(scope, binding, args);
  const earlier = payload?.a ?? {};
  return responses === undefined ? earlier : { ...earlier, ...handlerResponses(responses, payload) };
}

export async function execute(scope: RequestScope, options: ExecuteOptions): Promise<Execution> {
  const modernBroker =
    scope.era === 'modern'
      ? new ModernInputBroker(
          gatherAnswers(scope, options.binding, options.args),
          scope.envelope.clientCapabilities,
        )
      : undefined;
  const broker: InputBroker = modernBroker ?? new LegacyInputBroker(scope);
  const controller = new Cancellation();
  scope.controller = controller;
  onTransportAbort(scope.extra, (reason) => scope.cancel(reason));
  const timer = setTimeout(onTimeout, options.timeoutMs, controller);
  // Becoming a task: `escalation` wins the race below; `started` settles once the task is stored and the handler's
  // input broker is the task's (runAsTask() waits for it; an "immediately" task only starts its handler then).
  let escalate: (() => Promise<void>) | undefined;
  let started: { promise: Promise<void>; resolve(): void; reject(error: unknown): void } | undefined;
  let escalation: Promise<typeof ESCALATED> | undefined;
  if (options.task !== undefined) {
    started = deferred();
    const gate = started;
    escalation = new Promise<typeof ESCALATED>((resolve) => {
      escalate = () => {
        resolve(ESCALATED);
        return gate.promise;
      };
    });
  }
  const ctx = new ToolContext(scope, controller, broker, escalate);
  const immediately = options.task?.immediately === true && started !== undefined;
  if (immediately) void escalate?.().catch(() => undefined);
  scope.connection.track(scope);
  const running = immediately
    ? (started as { promise: Promise<void> }).promise.then(() => options.run(ctx))
    : runNow(options.run, ctx);
  let outcome: unknown;
  let thrown: unknown;
  let threw = false;
  try {
    outcome = await firstOf(running, controller, escalation);
  } catch (error) {
    thrown = error;
    threw = true;
  } finally {
    clearTimeout(timer);
    scope.connection.untrack(scope);
  }
  if (outcome === ESCALATED && options.task !== undefined && !scope.cancelled) {
    try {
      const execution = await startTask(scope, ctx, controller, running, modernBroker, options.task);
      started?.resolve();
      return execution;
    } catch (error) {
      started?.reject(error);
      throw error;
    }
  }
  ctx.finish();
  if (scope.cancelled) return { kind: 'cancelled' };
  if (outcome === ABORTED) return { kind: 'timed_out', timeoutMs: options.timeoutMs };
  if (modernBroker !== undefined && modernBroker.missing !== undefined) {
    if (thrown instanceof RpcError) throw thrown;
    return {
      kind: 'input_required',
      result: {
        resultType: 'input_required',
        inputRequests: modernBroker.missing,
        requestState: scope.services.requestState.seal(
          options.binding,
          argumentsDigest(options.args),
          principalDigest(scope.caller),
          modernBroker.used,
          carriedStates(openState(scope, options.binding, options.args)),
        ),
      },
    };
  }
  return threw ? { kind: 'thrown', error: thrown } : { kind: 'value', value: outcome };
}

/** The handler's outcome, ABORTED, or ESCALATED, whichever comes first (one promise: this runs on every call). */
function firstOf(
  running: Promise<unknown>,
  cancellation: Cancellation,
  escalation: Promise<typeof ESCALATED> | undefined,
): Promise<unknown> {
  return new Promise((resolve, reject) => {
    running.then(resolve, reject);
    cancellation.onAbort(() => resolve(ABORTED));
    if (escalation !== undefined) void escalation.then(resolve);
  });
}

/** Starts the handler in this turn (it may throw synchronously or return a plain value): its outcome, as a promise. */
function runNow(run: (ctx: ToolContext) => unknown, ctx: ToolContext): Promise<unknown> {
  try {
    const value = run(ctx);
    return value instanceof Promise ? value : Promise.resolve(value);
  } catch (error) {
    return Promise.reject(error);
  }
}

function deferred(): { promise: Promise<void>; resolve(): void; reject(error: unknown): void } {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((ok, fail) => {
    resolve = ok;
    reject = fail;
  });
  promise.catch(() => undefined); // a rejection is also delivered to whoever awaits it
  return { promise, resolve, reject };
}

/**
 * The handler goes on as a task: the request is answered with CreateTaskResult once the task is stored, and
 * from then on only tasks/cancel or the task's own time limit abort it; input comes through tasks/update.
 */
async function startTask(
  scope: RequestScope,
  ctx: ToolContext,
  controller: Cancellation,
  running: Promise<unknown>,
  modernBroker: ModernInputBroker | undefined,
  task: TaskOptions,
): Promise<Execution> {
  scope.controller = undefined; // the request's own cancellation no longer reaches the handler
  ctx.finish(); // no progress or log notifications for tasks
  const manager = scope.services.tasks;
  const state = await manager.create(
    controller,
    scope.envelope.clientCapabilities,
    modernBroker?.available ?? {},
    taskOwner(scope.caller),
  );
  ctx.useBroker(manager.broker(state.taskId));
  const timer = setTimeout(onTimeout, task.timeoutMs, controller).unref(); // shutdown aborts tasks; the timer alone keeps nothing alive
  void Promise.race([running, whenAborted(controller)])
    .then(
      (value): Execution =>
        value === ABORTED
          ? controller.reason instanceof Error && controller.reason.message === 'timed out'
            ? { kind: 'timed_out', timeoutMs: task.timeoutMs }
            : { kind: 'cancelled' }
          : { kind: 'value', value },
      (error: unknown): Execution => ({ kind: 'thrown', error }),
    )
    .then(async (execution) => {
      clearTimeout(timer);
      if (execution.kind === 'cancelled') return;
      try {
        await manager.complete(state.taskId, (await task.settle(execution)) as JsonObject);
      } catch (error) {
        await manager.fail(state.taskId, error);
      }
    })
    .catch((error: unknown) =>
      scope.services.logger.error(`task ${state.taskId} could not be settled`, error),
    );
  const { owner: _owner, ...visible } = state;
  return { kind: 'task', result: { resultType: 'task', ...visible } };
}

/**
 * For handlers without an isError channel (prompts, resource reads): how the run ended, as JSON-RPC sees it.
 * `reply` is what to answer at once (nothing when cancelled, or an InputRequiredResult); `value` is for the caller
 * to shape; time-outs and errors become JSON-RPC errors (a ToolError keeps its message, anything else is neutral).
 */
export function protocolOutcome(
  execution: Execution,
  subject: string,
): { reply: object | undefined } | { value: unknown } {
  switch (execution.kind) {
    case 'cancelled':
      return { reply: undefined };
    case 'input_required':
      return { reply: execution.result };
    case 'timed_out':
      throw new RpcError(ErrorCode.InternalError, `${subject} timed out after ${execution.timeoutMs} ms`);
    case 'thrown': {
      const error = execution.error;
      if (error instanceof RpcError) throw error;
      if (error instanceof ToolError) throw new RpcError(ErrorCode.InternalError, error.message);
      throw error; // logged and answered neutrally by the dispatcher
    }
    case 'task':
      throw new RpcError(ErrorCode.InternalError, 'Internal error: only tools run as tasks');
    case 'value':
      return { value: execution.value };
  }
}
