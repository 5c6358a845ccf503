// What middleware sees of a request and how it answers: a read-only view and a few verbs, never the internals.

import type { JsonObject, RequestId } from '../jsonrpc/index.js';
import {
  onTransportAbort,
  type Caller,
  type ClientCapabilities,
  type Implementation,
  type InputRequest,
  type TransportFacts,
} from '../protocol/index.js';
import { Denial, type DenialOptions } from './errors.js';
import { askClient, middlewareState, requireInput } from './middleware-input.js';
import type { Era, RequestScope } from './request-scope.js';
import type { Target } from './targets.js';

/**
 * What a request handler produces: a result object, a result already serialised (lists), or nothing when the
 * handler has answered itself (scope.respond) or the request was cancelled. Nothing otherwise is answered -32603.
 */
export type Outcome = object | string | undefined;
export type RequestHandler = (scope: RequestScope) => Outcome | Promise<Outcome>;

/** Runs the rest of the chain (later middleware, then the handler) and gives back its outcome. */
export type Next = () => Promise<Outcome>;

/**
 * Policy middleware, around every request of every era and transport (`initialize` and `ping` included), outermost
 * first. Continue with `return next()`; refuse with `request.deny(…)`; replace the outcome by returning another
 * result; add response `_meta` with `request.addResultMeta(…)`.
 */
export type Middleware = (request: RequestView, next: Next) => Outcome | Promise<Outcome>;

/** A JSON value nobody may change through this reference. */
export type ReadonlyJson<T> = T extends (infer U)[]
  ? readonly ReadonlyJson<U>[]
  : T extends object
    ? { readonly [K in keyof T]: ReadonlyJson<T[K]> }
    : T;

export interface RequestView {
  readonly id: RequestId;
  readonly method: string;
  readonly params: ReadonlyJson<JsonObject> | undefined;
  /** "modern" (2026-07-28, stateless) or "legacy" (an initialize session, `initialize` and a ping before it). */
  readonly era: Era;
  /** The revision the request speaks; undefined for a ping before initialize. For initialize: the one negotiated. */
  readonly protocolVersion: string | undefined;
  /** The request's `_meta`, as the client sent it. */
  readonly meta: ReadonlyJson<JsonObject> | undefined;
  readonly clientInfo: Readonly<Implementation> | undefined;
  readonly clientCapabilities: ReadonlyJson<ClientCapabilities>;
  /** Who is calling, as the transport edge established it. */
  readonly caller: Caller;
  /** The channel: "stdio", "memory" or "http" (with the remote address and a header reader). */
  readonly transport: TransportFacts;
  /** Aborts when the client cancels, its response can no longer be delivered, or the server shuts down. */
  readonly signal: AbortSignal;
  /**
   * What tools/call, prompts/get and resources/read name, resolved for this caller before any middleware runs;
   * undefined for other methods and for names the caller cannot see (the handler answers those as unknown).
   */
  readonly target: Target | undefined;
  /** Refuses the request: throws the Denial the pipeline answers with (and, on HTTP, its status and headers). */
  deny(code: number, message: string, options?: DenialOptions): never;
  /** Adds members to the result's `_meta` (ignored when the request ends in an error). */
  addResultMeta(meta: JsonObject): void;
  /**
   * Modern tools/call only: an InputRequiredResult to return as the outcome, asking the client for `inputRequests`
   * and sealing `state` for the middleware named `owner` into the requestState (beside the handler's own answers,
   * bound like them to the tool, its arguments and the caller). The retry's answers to these keys never reach the
   * handler. Throws -32021 when the client did not declare what a request needs.
   */
  requireInput(owner: string, inputRequests: Record<string, InputRequest>, state: JsonObject): object;
  /** Modern tools/call only: the state `owner` sealed on an earlier round, verified (a tampered one throws -32602). */
  inputState(owner: string): JsonObject | undefined;
  /**
   * Legacy sessions only: sends the input requests to the client (server→client requests related to this one) and
   * resolves with the answers; rejects when the request's signal aborts or the client lacks the capability.
   */
  askClient(inputRequests: Record<string, InputRequest>): Promise<Record<string, unknown>>;
}

const NO_CAPABILITIES: ClientCapabilities = Object.freeze({});

/** The view over one scope; made only when middleware is installed. */
export class ScopeView implements RequestView {
  readonly #scope: RequestScope;

  constructor(scope: RequestScope) {
    this.#scope = scope;
  }

  get id(): RequestId {
    return this.#scope.id;
  }
  get method(): string {
    return this.#scope.method;
  }
  get params(): ReadonlyJson<JsonObject> | undefined {
    return this.#scope.params;
  }
  get era(): Era {
    return this.#scope.era;
  }
  get protocolVersion(): string | undefined {
    const version = this.#scope.envelope.protocolVersion;
    return version === '' ? undefined : version;
  }
  get meta(): ReadonlyJson<JsonObject> | undefined {
    return this.#scope.meta;
  }
  get clientInfo(): Readonly<Implementation> | undefined {
    return this.#scope.envelope.clientInfo;
  }
  get clientCapabilities(): ReadonlyJson<ClientCapabilities> {
    return this.#scope.envelope.clientCapabilities ?? NO_CAPABILITIES;
  }
  get caller(): Caller {
    return this.#scope.caller;
  }
  get transport(): TransportFacts {
    return this.#scope.extra?.transport ?? this.#scope.connection.transport;
  }
  get target(): Target | undefined {
    return this.#scope.target;
  }
  get signal(): AbortSignal {
    const scope = this.#scope;
    if (scope.viewAbort === undefined) {
      const controller = new AbortController();
      scope.viewAbort = controller;
      if (scope.cancelled) controller.abort(new Error('cancelled'));
      else onTransportAbort(scope.extra, (reason) => controller.abort(reason));
    }
    return scope.viewAbort.signal;
  }

  deny(code: number, message: string, options?: DenialOptions): never {
    throw new Denial(code, message, options);
  }

  addResultMeta(meta: JsonObject): void {
    const scope = this.#scope;
    scope.resultMeta = scope.resultMeta === undefined ? { ...meta } : { ...scope.resultMeta, ...meta };
  }

  requireInput(owner: string, inputRequests: Record<string, InputRequest>, state: JsonObject): object {
    return requireInput(this.#scope, owner, inputRequests, state);
  }

  inputState(owner: string): JsonObject | undefined {
    return middlewareState(this.#scope, owner);
  }

  askClient(inputRequests: Record<string, InputRequest>): Promise<Record<string, unknown>> {
    return askClient(this.#scope, inputRequests, this.signal);
  }
}
