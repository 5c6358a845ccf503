// Running one handler (tool, prompt or resource) under its signal and time limit, with input requests on either era.

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { InputRequest } from '../protocol/index.js';
import { ToolContext } from './context.js';
import { ToolError } from './errors.js';
import { ModernInputBroker, type InputBroker } from './input.js';
import type { RequestScope } from './request-scope.js';
import { argumentsDigest } from './request-state.js';

/** How a handler run ended. */
export type Execution =
  | { kind: 'value'; value: unknown }
  | { kind: 'thrown'; error: unknown }
  | { kind: 'input_required'; result: object }
  | { kind: 'cancelled' }
  | { kind: 'timed_out'; timeoutMs: number };

export interface ExecuteOptions {
  /** What a requestState is bound to besides the arguments: "tool:<name>", "prompt:<name>", "resource:<uri>". */
  binding: string;
  args: unknown;
  timeoutMs: number;
  run: (ctx: ToolContext) => unknown;
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

const onTimeout = (controller: AbortController): void => controller.abort(new Error('timed out'));

/** Resolves when the signal aborts: the handler's promise races against it. */
const whenAborted = (signal: AbortSignal): Promise<typeof ABORTED> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(ABORTED), { once: true }));

/** Earlier answers (from requestState) plus this round's inputResponses. */
function gatherAnswers(scope: RequestScope, binding: string, args: unknown): Record<string, unknown> {
  const params = scope.params ?? {};
  const responses = params.inputResponses;
  if (responses !== undefined && !isJsonObject(responses)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: inputResponses must be an object keyed by input request',
    );
  }
  const token = params.requestState;
  const earlier =
    token === undefined ? {} : scope.server.requestState.open(token, binding, argumentsDigest(args)).a;
  return responses === undefined ? earlier : { ...earlier, ...responses };
}

export async function execute(scope: RequestScope, options: ExecuteOptions): Promise<Execution> {
  const broker =
    scope.era === 'modern'
      ? new ModernInputBroker(
          gatherAnswers(scope, options.binding, options.args),
          scope.envelope.clientCapabilities,
        )
      : new LegacyInputBroker(scope);
  const controller = new AbortController();
  scope.controller = controller;
  const external = scope.extra?.signal;
  if (external !== undefined) {
    if (external.aborted) scope.cancel(external.reason);
    else external.addEventListener('abort', () => scope.cancel(external.reason), { once: true });
  }
  const timer = setTimeout(onTimeout, options.timeoutMs, controller);
  const ctx = new ToolContext(scope, controller.signal, broker);
  scope.connection.track(scope);
  let outcome: unknown;
  let thrown: unknown;
  let threw = false;
  try {
    const running = Promise.resolve().then(() => options.run(ctx));
    outcome = await Promise.race([running, whenAborted(controller.signal)]);
  } catch (error) {
    thrown = error;
    threw = true;
  } finally {
    clearTimeout(timer);
    scope.connection.untrack(scope);
    ctx.finish();
  }
  if (scope.cancelled) return { kind: 'cancelled' };
  if (outcome === ABORTED) return { kind: 'timed_out', timeoutMs: options.timeoutMs };
  if (broker instanceof ModernInputBroker && broker.missing !== undefined) {
    if (thrown instanceof RpcError) throw thrown;
    return {
      kind: 'input_required',
      result: {
        resultType: 'input_required',
        inputRequests: broker.missing,
        requestState: scope.server.requestState.seal(
          options.binding,
          argumentsDigest(options.args),
          broker.used,
        ),
      },
    };
  }
  return threw ? { kind: 'thrown', error: thrown } : { kind: 'value', value: outcome };
}
