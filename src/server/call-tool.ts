// The tools/call pipeline: look up, validate arguments, run the handler under its signal and time limit,
// normalise and validate the output. Policy middleware wraps this whole step (see server.ts).

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import type { CallToolResult, InputRequest } from '../protocol/index.js';
import { formatIssues, type ValidationResult } from '../schema/index.js';
import { ToolContext } from './context.js';
import { ToolError, newReference } from './errors.js';
import { InputRequiredSignal, ModernInputBroker, type InputBroker } from './input.js';
import type { RequestScope } from './request-scope.js';
import { argumentsDigest } from './request-state.js';
import type { ToolRecord } from './tool-registry.js';
import { errorResult, fitToRevision, normaliseReturn } from './tool-result.js';

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
          `This tool needs the client capability "${capability}", which this client did not declare`,
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

const TIMED_OUT = Symbol('timed out');
const ABORTED = Symbol('aborted');

function onTimeout(scope: RequestScope): void {
  scope.controller?.abort(TIMED_OUT);
}

/** Resolves when the signal aborts: the handler's promise races against it. */
const whenAborted = (signal: AbortSignal): Promise<typeof ABORTED> =>
  new Promise((resolve) => signal.addEventListener('abort', () => resolve(ABORTED), { once: true }));

async function validateArguments(record: ToolRecord, args: unknown): Promise<ValidationResult<unknown>> {
  const outcome = record.input.validate(args);
  return outcome instanceof Promise ? await outcome : outcome;
}

/** Reads name and arguments; anything structurally wrong is a protocol error (-32602). */
function readCallParams(scope: RequestScope): { record: ToolRecord; args: JsonObject } {
  const params = scope.params;
  const name = params?.name;
  if (typeof name !== 'string') {
    throw new RpcError(ErrorCode.InvalidParams, 'Invalid params: tools/call needs params.name (a string)');
  }
  const args = params?.arguments ?? {};
  if (!isJsonObject(args)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: params.arguments of tool "${name}" must be an object`,
    );
  }
  const record = scope.server.tools.get(name);
  if (record === undefined) {
    throw new RpcError(ErrorCode.InvalidParams, `Unknown tool: "${name}"`, { name });
  }
  return { record, args };
}

/** Earlier answers (from requestState) plus this round's inputResponses. */
function gatherAnswers(scope: RequestScope, name: string, args: JsonObject): Record<string, unknown> {
  const params = scope.params as JsonObject;
  const responses = params.inputResponses;
  if (responses !== undefined && !isJsonObject(responses)) {
    throw new RpcError(
      ErrorCode.InvalidParams,
      'Invalid params: inputResponses must be an object keyed by input request',
    );
  }
  const token = params.requestState;
  const earlier =
    token === undefined ? {} : scope.server.requestState.open(token, name, argumentsDigest(args)).a;
  return responses === undefined ? earlier : { ...earlier, ...responses };
}

export async function callTool(scope: RequestScope): Promise<object | undefined> {
  const { record, args } = readCallParams(scope);
  const server = scope.server;
  const modern = scope.era === 'modern';
  const broker: InputBroker = modern
    ? new ModernInputBroker(gatherAnswers(scope, record.name, args), scope.envelope.clientCapabilities)
    : new LegacyInputBroker(scope);

  const checked = await validateArguments(record, args);
  if (!checked.ok) {
    const message = formatIssues(checked.issues, `Invalid arguments for tool "${record.name}"`);
    if (server.inputErrors === 'protocol') throw new RpcError(ErrorCode.InvalidParams, message);
    return fitToRevision(errorResult(message), scope.envelope.protocolVersion);
  }

  const controller = new AbortController();
  scope.controller = controller;
  const external = scope.extra?.signal;
  if (external !== undefined) {
    if (external.aborted) scope.cancel(external.reason);
    else external.addEventListener('abort', () => scope.cancel(external.reason), { once: true });
  }
  const timeoutMs = record.config.timeoutMs ?? server.defaultTimeoutMs;
  const timer = setTimeout(onTimeout, timeoutMs, scope);
  const ctx = new ToolContext(scope, controller.signal, broker);
  scope.connection.track(scope);
  let outcome: unknown;
  let thrown: unknown;
  try {
    const running = Promise.resolve().then(() => record.config.handler(checked.value as never, ctx));
    outcome = await Promise.race([running, whenAborted(controller.signal)]);
  } catch (error) {
    thrown = error;
  } finally {
    clearTimeout(timer);
    scope.connection.untrack(scope);
  }
  if (scope.cancelled) {
    ctx.finish();
    return undefined; // the client cancelled or went away: no reply
  }
  if (outcome === ABORTED) {
    ctx.finish();
    return fitToRevision(
      errorResult(`Tool "${record.name}" timed out after ${timeoutMs} ms`),
      scope.envelope.protocolVersion,
    );
  }

  if (broker instanceof ModernInputBroker && broker.missing !== undefined) {
    if (thrown instanceof RpcError) throw thrown;
    ctx.finish();
    return {
      resultType: 'input_required',
      inputRequests: broker.missing,
      requestState: server.requestState.seal(record.name, argumentsDigest(args), broker.used),
    };
  }
  ctx.finish();
  if (thrown !== undefined)
    return fitToRevision(thrownResult(scope, record, thrown), scope.envelope.protocolVersion);

  const result = normaliseReturn(outcome, record.output !== undefined);
  if (record.output !== undefined && result.isError !== true) {
    const mismatch = await checkOutput(record, result);
    if (mismatch !== undefined) {
      const reference = newReference();
      server.logger.error(
        `tool "${record.name}" returned output that does not match its outputSchema (reference ${reference}): ${mismatch}`,
      );
      return fitToRevision(
        errorResult(
          `Tool "${record.name}" produced output that does not match its declared outputSchema; this is a bug in the server (reference ${reference})`,
        ),
        scope.envelope.protocolVersion,
      );
    }
  }
  return modern ? result : fitToRevision(result, scope.envelope.protocolVersion);
}

function thrownResult(scope: RequestScope, record: ToolRecord, error: unknown): CallToolResult {
  if (error instanceof RpcError) throw error;
  if (error instanceof ToolError) return errorResult(error.message);
  if (error instanceof InputRequiredSignal) {
    // Only reachable on the legacy wire if a handler fabricated the signal itself.
    return errorResult(`Tool "${record.name}" asked for input the client cannot give on this connection`);
  }
  const reference = newReference();
  scope.server.logger.error(`tool "${record.name}" threw (reference ${reference})`, error);
  return errorResult(`Tool "${record.name}" failed with an internal error (reference ${reference})`);
}

async function checkOutput(record: ToolRecord, result: CallToolResult): Promise<string | undefined> {
  if (result.structuredContent === undefined) return 'the result has no structuredContent';
  const outcome = record.output?.validate(result.structuredContent);
  const checked = outcome instanceof Promise ? await outcome : outcome;
  if (checked === undefined || checked.ok) return undefined;
  return formatIssues(checked.issues, `Output of tool "${record.name}" does not match its outputSchema`);
}
