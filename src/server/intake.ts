// The request pipeline: every request of every era and transport, `initialize` and a ping before it included,
// goes intake → caller → route (and the target it names) → header mirror → time limit → middleware → handler → encode.
// Connections hand requests here; nothing else runs them.

import {
  ErrorCode,
  encodeError,
  encodeResultText,
  isJsonObject,
  type JsonObject,
  type JsonRpcRequest,
  RpcError,
} from '../jsonrpc/index.js';
import {
  Method,
  hasModernMeta,
  legacyProgressToken,
  negotiateLegacyRevision,
  readModernEnvelope,
  type Caller,
  type ClientCapabilities,
  type Implementation,
  type MessageExtra,
  type RequestEnvelope,
} from '../protocol/index.js';
import { checkMirroredHeaders, type HeaderSource } from './mirror-headers.js';
import { RequestScope, deliver, type ConnectionLink, type Era } from './request-scope.js';
import { ScopeView, type Middleware, type Outcome, type RequestHandler } from './request-view.js';
import type { ServerServices } from './services.js';

/** What the pipeline needs of a connection beyond what a request needs. */
export interface IntakeLink extends ConnectionLink {
  /** Whether `initialize` may open a legacy session here (not on the stateless HTTP path). */
  readonly allowsLegacy: boolean;
  /** The caller when the transport names none (stdio and memory connections: the local user by default). */
  readonly caller: Caller;
}

/**
 * A request's time limit beyond what it runs: the tool's (prompt's, resource's) own timeout fires first and is
 * answered as that call's "timed out" result; the transport's limit only catches what does not end by itself.
 */
export const TIME_LIMIT_MARGIN_MS = 5_000;

const REMOVED_ON_MODERN: ReadonlySet<string> = new Set([
  Method.Initialize,
  Method.Ping,
  Method.LoggingSetLevel,
  Method.ResourcesSubscribe,
  Method.ResourcesUnsubscribe,
  'tasks/result',
  'tasks/list',
]);

/** A ping before initialize speaks no revision yet. */
const NO_SESSION_ENVELOPE: RequestEnvelope = Object.freeze({
  protocolVersion: '',
  clientCapabilities: Object.freeze({}),
  clientInfo: undefined,
  logLevel: undefined,
  progressToken: undefined,
});

/** The legacy handshake's own envelope: what the client says of itself, and the revision it will get. */
function initializeEnvelope(params: JsonObject | undefined): RequestEnvelope {
  const capabilities = isJsonObject(params?.capabilities) ? (params.capabilities as ClientCapabilities) : {};
  const info = params?.clientInfo;
  return {
    protocolVersion: negotiateLegacyRevision(params?.protocolVersion),
    clientCapabilities: capabilities,
    clientInfo:
      isJsonObject(info) && typeof info.name === 'string' ? (info as unknown as Implementation) : undefined,
    logLevel: undefined,
    progressToken: undefined,
  };
}

export class Intake {
  readonly #services: ServerServices;
  readonly #modern = new Map<string, RequestHandler>();
  readonly #legacy = new Map<string, RequestHandler>();
  readonly #middleware: Middleware[] = [];

  constructor(services: ServerServices) {
    this.#services = services;
  }

  /** Installs a handler for a method on one or both eras. */
  handle(method: string, handler: RequestHandler, eras: { modern?: boolean; legacy?: boolean } = {}): void {
    if (eras.modern !== false) this.#modern.set(method, handler);
    if (eras.legacy !== false) this.#legacy.set(method, handler);
  }

  use(middleware: Middleware): void {
    if (typeof middleware !== 'function') {
      throw new TypeError('middleware must be a function (request, next) => outcome');
    }
    this.#middleware.push(middleware);
  }

  /** One request, from the connection it came over to its answer. */
  request(link: IntakeLink, request: JsonRpcRequest, extra: MessageExtra | undefined): void {
    const { id, method, params } = request;
    // 1. Era and envelope: modern _meta, the legacy handshake, a legacy session, or a ping before initialize.
    let envelope: RequestEnvelope;
    let era: Era;
    try {
      if (hasModernMeta(params)) {
        envelope = readModernEnvelope(params);
        era = 'modern';
      } else if (method === Method.Initialize && link.allowsLegacy) {
        envelope = initializeEnvelope(params);
        era = 'legacy';
      } else if (link.legacy !== undefined) {
        const session = link.legacy;
        envelope = {
          protocolVersion: session.revision,
          clientCapabilities: session.clientCapabilities,
          clientInfo: session.clientInfo,
          logLevel: session.logLevel,
          progressToken: legacyProgressToken(params),
        };
        era = 'legacy';
      } else if (method === Method.Ping) {
        envelope = NO_SESSION_ENVELOPE; // legacy clients may ping before initializing
        era = 'legacy';
      } else {
        envelope = readModernEnvelope(params); // throws the envelope error that explains what is missing
        era = 'modern';
      }
    } catch (error) {
      const rpc = error as RpcError; // readModernEnvelope throws only RpcError
      deliver(link, extra, encodeError(id, rpc.code, rpc.message, rpc.data), {
        relatedRequestId: id,
        final: true,
        errorCode: rpc.code,
        rejected: true,
      });
      return;
    }
    // 2. The caller: what the transport edge established, else the connection's own.
    const scope = new RequestScope(
      this.#services,
      link,
      id,
      method,
      params,
      era,
      envelope,
      extra,
      extra?.auth ?? link.caller,
    );
    // 3. Resolve what the request names, for this caller.
    const services = this.#services;
    try {
      this.#resolve(scope);
    } catch (error) {
      scope.fail(error); // a visibility rule that throws: -32603 with a reference, the details in the log
      return;
    }
    // 4. The modern HTTP wire mirrors the body in headers (Mcp-Name, Mcp-Param-*): checked against the target.
    const facts = era === 'modern' ? extra?.transport : undefined;
    if (facts?.header !== undefined) {
      try {
        checkMirroredHeaders(
          facts as HeaderSource,
          method,
          params,
          scope.resolved?.kind === 'tool' ? scope.resolved.record.mcpHeaders : undefined,
        );
      } catch (error) {
        if (!(error instanceof RpcError)) {
          scope.fail(error);
          return;
        }
        scope.respond(encodeError(id, error.code, error.message, error.data), error.code, { rejected: true });
        return;
      }
    }
    // A method this server does not have: after the header mirror, which checks what the client sent whatever it names.
    const handler = (era === 'modern' ? this.#modern : this.#legacy).get(method);
    if (handler === undefined) {
      scope.respond(
        encodeError(id, ErrorCode.MethodNotFound, this.#notFound(scope)),
        ErrorCode.MethodNotFound,
      );
      return;
    }
    // 5. One clock: the request's limit follows from what it runs, and the transport enforces it.
    const timeLimit = extra?.timeLimit;
    if (timeLimit !== undefined) {
      timeLimit(
        method === Method.SubscriptionsListen
          ? Infinity
          : (scope.target?.timeoutMs ?? services.defaultTimeoutMs) + TIME_LIMIT_MARGIN_MS,
      );
    }
    // 6. Middleware, then the handler; 7. encode and answer.
    let outcome: Outcome | Promise<Outcome>;
    try {
      outcome = this.#middleware.length === 0 ? handler(scope) : this.#chain(scope, handler);
    } catch (error) {
      scope.fail(error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (value) => this.#finish(scope, value),
        (error: unknown) => scope.fail(error),
      );
    } else this.#finish(scope, outcome);
  }

  /** tools/call, prompts/get and resources/read: what they name, as this caller may see it (else nothing). */
  #resolve(scope: RequestScope): void {
    const services = this.#services;
    const visibility = services.visibility;
    const params = scope.params;
    switch (scope.method) {
      case Method.ToolsCall: {
        const name = params?.name;
        const record =
          typeof name === 'string' ? services.tools.getFor(name, scope.caller, visibility.tools) : undefined;
        if (record !== undefined) scope.resolved = { kind: 'tool', record };
        break;
      }
      case Method.PromptsGet: {
        const name = params?.name;
        const record =
          typeof name === 'string'
            ? services.prompts.getFor(name, scope.caller, visibility.prompts)
            : undefined;
        if (record !== undefined) scope.resolved = { kind: 'prompt', record };
        break;
      }
      case Method.ResourcesRead: {
        const uri = params?.uri;
        const resource = typeof uri === 'string' ? scope.resolveResource(uri) : undefined;
        if (resource !== undefined) scope.resolved = { kind: 'resource', resource };
        break;
      }
    }
  }

  #chain(scope: RequestScope, handler: RequestHandler): Promise<Outcome> {
    // While policy decides (an approval may take minutes), a notifications/cancelled must find the request.
    scope.connection.track(scope);
    return this.#step(0, scope, new ScopeView(scope), handler);
  }

  /**
   * Runs middleware `index` (or, past the last, the handler) now, in this turn: a step that answers synchronously
   * costs no microtask hop (four of them per call with the policy layer on were 2 % of its profile). A throw becomes
   * a rejection, so every step answers a promise, as Next promises.
   */
  #step(index: number, scope: RequestScope, view: ScopeView, handler: RequestHandler): Promise<Outcome> {
    const current = this.#middleware[index];
    let outcome: Outcome | Promise<Outcome>;
    try {
      if (current === undefined) {
        // The handler tracks the request itself from here (call-tool, execute, listen).
        scope.connection.untrack(scope);
        outcome = handler(scope);
      } else {
        let called = false;
        outcome = current(view, () => {
          if (called) return Promise.reject(new Error('middleware called next() twice'));
          called = true;
          return this.#step(index + 1, scope, view, handler);
        });
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return outcome instanceof Promise ? outcome : Promise.resolve(outcome);
  }

  #finish(scope: RequestScope, outcome: Outcome): void {
    if (outcome === undefined) {
      // Nothing means the handler answered itself (scope.respond) or the request was cancelled. Anything else is a
      // handler bug, and a request must still get its answer: a stdio client would wait forever, a batch never end.
      if (!scope.done && !scope.cancelled && !scope.connection.closed) {
        scope.fail(
          new Error(
            `the handler of ${scope.method} returned nothing and sent no response; return a result object ({} when there is nothing to say)`,
          ),
        );
      }
      return;
    }
    let result: object | string = outcome;
    const added = scope.resultMeta;
    if (added !== undefined) {
      // Middleware added _meta: the only time a serialised result is parsed again.
      const record = (typeof result === 'string' ? JSON.parse(result) : result) as Record<string, unknown>;
      const own = isJsonObject(record._meta) ? record._meta : undefined;
      result = { ...record, _meta: { ...own, ...added } };
    }
    if (typeof result === 'string') {
      scope.respond(encodeResultText(scope.id, result));
      return;
    }
    scope.respond(
      encodeResultText(
        scope.id,
        scope.era === 'modern' ? this.#services.modernResultJson(result) : JSON.stringify(result),
      ),
    );
  }

  #notFound(scope: RequestScope): string {
    if (scope.era === 'modern' && REMOVED_ON_MODERN.has(scope.method)) {
      return `Method not found: ${scope.method} is not part of protocol revision ${scope.envelope.protocolVersion}`;
    }
    return `Method not found: ${scope.method}`;
  }
}
