// Middleware that asks for input on the modern wire (RequestView.requireInput): its state sealed into the same
// requestState as the handler's, bound the same way (tool, arguments, caller: B7), and its answers kept apart.

import { ErrorCode, RpcError, isJsonObject, type JsonObject } from '../jsonrpc/index.js';
import { clientSupports, requiredCapabilityFor, type InputRequest } from '../protocol/index.js';
import { ToolError } from './errors.js';
import { checkInputResponse } from './input.js';
import type { RequestScope } from './request-scope.js';
import {
  argumentsDigest,
  principalDigest,
  type MiddlewareState,
  type StatePayload,
} from './request-state.js';

/** The longest middleware name, and the most input requests one middleware may make at once. */
const MAX_OWNER_LENGTH = 64;
const MAX_MIDDLEWARE_REQUESTS = 16;

/** A requestState opened once per request (the middleware and the handler both read it). */
interface Opened {
  binding: string;
  digest: string;
  payload: StatePayload | undefined;
}

const opened = new WeakMap<RequestScope, Opened>();

/**
 * The verified requestState of this request for `binding` and `args`, or undefined when the request carries none;
 * a tampered, expired or foreign one throws the -32602 the client gets. Opened once per request.
 */
export function openState(scope: RequestScope, binding: string, args: unknown): StatePayload | undefined {
  const token = scope.params?.requestState;
  if (token === undefined) return undefined;
  const digest = argumentsDigest(args);
  const cached = opened.get(scope);
  if (cached !== undefined && cached.binding === binding && cached.digest === digest) return cached.payload;
  const payload = scope.services.requestState.open(token, binding, digest, principalDigest(scope.caller));
  opened.set(scope, { binding, digest, payload });
  return payload;
}

/** The handler's view of this round's inputResponses: without the answers to middleware's own requests. */
export function handlerResponses(
  responses: JsonObject,
  payload: StatePayload | undefined,
): Record<string, unknown> {
  const states = payload?.m;
  if (states === undefined) return responses;
  const own = { ...responses };
  for (const state of Object.values(states)) for (const key of state.k) delete own[key];
  return own;
}

/**
 * Middleware's states as the handler's next round carries them: their requests were answered on this round, so
 * from now on those keys are the handler's to use.
 */
export function carriedStates(
  payload: StatePayload | undefined,
): Record<string, MiddlewareState> | undefined {
  const states = payload?.m;
  if (states === undefined) return undefined;
  const carried: Record<string, MiddlewareState> = {};
  for (const [owner, state] of Object.entries(states)) carried[owner] = { s: state.s, k: [] };
  return carried;
}

/** What tools/call binds its state to: the same binding and arguments execute() uses for the handler. */
function toolCall(scope: RequestScope, use: string): { binding: string; args: unknown } {
  const resolved = scope.resolved;
  if (scope.era !== 'modern' || scope.method !== 'tools/call' || resolved?.kind !== 'tool') {
    throw new Error(`${use} works on tools/call of a visible tool on the modern wire (2026-07-28) only`);
  }
  const args = scope.params?.arguments;
  return { binding: `tool:${resolved.record.name}`, args: args === undefined ? {} : args };
}

function checkOwner(owner: unknown): asserts owner is string {
  if (typeof owner !== 'string' || owner.length === 0 || owner.length > MAX_OWNER_LENGTH) {
    throw new TypeError(`middleware name must be a string of 1-${MAX_OWNER_LENGTH} characters`);
  }
}

/** The state `owner` sealed on an earlier round of this call, verified; undefined when there is none. */
export function middlewareState(scope: RequestScope, owner: string): JsonObject | undefined {
  checkOwner(owner);
  if (scope.params?.requestState === undefined) return undefined;
  const { binding, args } = toolCall(scope, 'inputState()');
  const states = openState(scope, binding, args)?.m;
  return states !== undefined && Object.hasOwn(states, owner) ? states[owner]?.s : undefined;
}

/**
 * An InputRequiredResult for middleware to answer with: its input requests, and a requestState carrying `state`
 * (for `owner`) beside the answers the handler gathered so far and other middleware's states.
 */
export function requireInput(
  scope: RequestScope,
  owner: string,
  inputRequests: Record<string, InputRequest>,
  state: JsonObject,
): object {
  checkOwner(owner);
  const { binding, args } = toolCall(scope, 'requireInput()');
  if (!isJsonObject(state)) throw new TypeError('requireInput(): state must be a JSON object');
  const keys = Object.keys(inputRequests);
  if (keys.length === 0 || keys.length > MAX_MIDDLEWARE_REQUESTS) {
    throw new TypeError(`requireInput(): between 1 and ${MAX_MIDDLEWARE_REQUESTS} input requests`);
  }
  const capabilities = scope.envelope.clientCapabilities;
  for (const request of Object.values(inputRequests)) {
    if (!clientSupports(capabilities, request)) {
      throw new RpcError(
        ErrorCode.MissingRequiredClientCapability,
        `Missing required client capability: this request needs ${request.method}, which the request did not declare`,
        { requiredCapabilities: requiredCapabilityFor(request) },
      );
    }
  }
  const earlier = openState(scope, binding, args);
  const states: Record<string, MiddlewareState> = { ...earlier?.m, [owner]: { s: state, k: keys } };
  return {
    resultType: 'input_required',
    inputRequests,
    requestState: scope.services.requestState.seal(
      binding,
      argumentsDigest(args),
      principalDigest(scope.caller),
      earlier?.a ?? {},
      states,
    ),
  };
}

/**
 * Legacy sessions: each input request goes to the client as a request of its own (related to this one, on its
 * stream); resolves with the answers, checked like a handler's, and rejects when `signal` aborts first.
 */
export async function askClient(
  scope: RequestScope,
  inputRequests: Record<string, InputRequest>,
  signal: AbortSignal,
): Promise<Record<string, unknown>> {
  if (scope.era !== 'legacy' || scope.connection.legacy === undefined) {
    throw new Error('askClient() works on legacy sessions only; use requireInput() on the modern wire');
  }
  const entries = Object.entries(inputRequests);
  if (entries.length === 0 || entries.length > MAX_MIDDLEWARE_REQUESTS) {
    throw new TypeError(`askClient(): between 1 and ${MAX_MIDDLEWARE_REQUESTS} input requests`);
  }
  for (const [, request] of entries) {
    if (!clientSupports(scope.envelope.clientCapabilities, request)) {
      throw new ToolError(
        `This request needs a client capability (${request.method}) this client did not declare`,
      );
    }
  }
  const answers = await Promise.all(
    entries.map(([, request]) =>
      scope.connection.request(scope, request.method, request.params as JsonObject | undefined, signal),
    ),
  );
  const result: Record<string, unknown> = {};
  entries.forEach(([key, request], index) => {
    checkInputResponse(key, request, answers[index]);
    result[key] = answers[index];
  });
  return result;
}
