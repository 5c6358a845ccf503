// Asking the client for input (elicitation, sampling, roots): MRTR on the modern wire, server→client requests on legacy.

import { ErrorCode, RpcError, isJsonObject } from '../jsonrpc/index.js';
import {
  clientSupports,
  requiredCapabilityFor,
  type ClientCapabilities,
  type InputRequest,
} from '../protocol/index.js';

/** Rejection used inside a modern handler when an answer is not there yet; the pipeline turns it into input_required. */
export class InputRequiredSignal extends Error {
  constructor() {
    super('input required: the client will be asked and the call retried');
    this.name = 'InputRequiredSignal';
  }
}

/** Gets answers to input requests, however the era does it. */
export interface InputBroker {
  request(requests: Record<string, InputRequest>, signal: AbortSignal): Promise<Record<string, unknown>>;
}

/** Checks the shape of one answer against the kind of request it answers. */
export function checkInputResponse(key: string, request: InputRequest, response: unknown): void {
  const bad = (expected: string): RpcError =>
    new RpcError(
      ErrorCode.InvalidParams,
      `Invalid params: inputResponses["${key}"] is not a valid ${request.method} result (${expected})`,
    );
  if (!isJsonObject(response)) throw bad('expected an object');
  switch (request.method) {
    case 'elicitation/create':
      if (response.action !== 'accept' && response.action !== 'decline' && response.action !== 'cancel') {
        throw bad('action must be "accept", "decline" or "cancel"');
      }
      if (response.content !== undefined && !isJsonObject(response.content))
        throw bad('content must be an object');
      return;
    case 'sampling/createMessage':
      if (response.content === undefined || (response.role !== 'assistant' && response.role !== 'user')) {
        throw bad('role and content are required');
      }
      return;
    case 'roots/list':
      if (!Array.isArray(response.roots)) throw bad('roots must be an array');
      return;
  }
}

/**
 * The modern broker: answers come from the retry (inputResponses) and from earlier rounds (requestState).
 * Missing answers are collected, so several requests made together go out in one InputRequiredResult.
 */
export class ModernInputBroker implements InputBroker {
  readonly #available: Record<string, unknown>;
  readonly #capabilities: ClientCapabilities;
  /** Answers the handler actually used: carried into the next requestState. */
  readonly used: Record<string, unknown> = {};
  /** Requests still unanswered: sent as inputRequests. */
  missing: Record<string, InputRequest> | undefined;

  /** Every answer on hand: from earlier rounds and from this retry. */
  get available(): Record<string, unknown> {
    return this.#available;
  }

  constructor(available: Record<string, unknown>, capabilities: ClientCapabilities) {
    this.#available = available;
    this.#capabilities = capabilities;
  }

  request(requests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    const answers: Record<string, unknown> = {};
    let complete = true;
    for (const [key, request] of Object.entries(requests)) {
      if (Object.hasOwn(this.#available, key)) {
        const answer = this.#available[key];
        checkInputResponse(key, request, answer);
        answers[key] = answer;
        this.used[key] = answer;
        continue;
      }
      if (!clientSupports(this.#capabilities, request)) {
        return Promise.reject(
          new RpcError(
            ErrorCode.MissingRequiredClientCapability,
            `Missing required client capability: this request needs ${request.method}, which the request did not declare`,
            { requiredCapabilities: requiredCapabilityFor(request) },
          ),
        );
      }
      (this.missing ??= {})[key] = request;
      complete = false;
    }
    return complete ? Promise.resolve(answers) : Promise.reject(new InputRequiredSignal());
  }
}
