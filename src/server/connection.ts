// One client connection (a stdio process, an in-memory pair, a legacy HTTP session, or the stateless HTTP path):
// decoding, batches, ids in flight and requests to the client. Each request is run by the pipeline (intake.ts).

import type { RpcError } from '../jsonrpc/index.js';
import {
  ErrorCode,
  classify,
  encodeError,
  encodeNotification,
  encodeRequest,
  parseJson,
  splitBatch,
  type Batch,
  type Classified,
  type JsonObject,
  type JsonRpcRequest,
  type JsonRpcResponse,
  type RequestId,
} from '../jsonrpc/index.js';
import {
  LOCAL_CALLER,
  MEMORY_TRANSPORT,
  Method,
  Notification,
  revisionAllowsBatches,
  type Caller,
  type MessageExtra,
  type SendOptions,
  type Transport,
  type TransportFacts,
} from '../protocol/index.js';
import { BatchReply } from './batch-reply.js';
import { ToolError, type Logger } from './errors.js';
import type { Intake, IntakeLink } from './intake.js';
import type { LegacySession } from './legacy-session.js';
import { deliver, type RequestScope } from './request-scope.js';

export type { LegacySession } from './legacy-session.js';

interface PendingRequest {
  resolve(result: unknown): void;
  reject(error: Error): void;
  method: string;
}

/** Requests this server may have outstanding towards one client at once (legacy elicitation, sampling, roots). */
const MAX_OUTGOING = 256;

export interface ConnectionOptions {
  /** Accept `initialize` and hold a legacy session (false for the stateless HTTP path). Default true. */
  legacy?: boolean;
  /**
   * The connection carries requests of many clients (the stateless HTTP path): their ids are not unique across
   * clients, so requests are not tracked by id; each one is cancelled through its own `extra.signal`. Default false.
   */
  shared?: boolean;
  /** Who is calling when a message's transport does not say (MessageExtra.auth). Default: the local user. */
  caller?: Caller;
  /** The channel when a message's transport does not say. Default: in-memory. */
  transport?: TransportFacts;
}

/** What a connection is given by its server: the pipeline, the limits, and who to tell when it closes. */
export interface ConnectionHost {
  readonly intake: Intake;
  readonly logger: Logger;
  readonly maxInFlight: number;
  readonly maxJsonDepth: number;
  /** Called once, when the connection closes (the server forgets it and ends its subscriptions). */
  closed(connection: ServerConnection): void;
}

/**
 * A request in flight as the id map holds it, cleared when the request ends: V8 keeps each table a Map outgrows
 * reachable from the next one, with what it held (see protocol/live-list.ts), so a table left behind then holds
 * this small box and not the request.
 */
class InFlight {
  constructor(public scope: RequestScope | undefined) {}
}

export class ServerConnection implements IntakeLink {
  readonly #host: ConnectionHost;
  readonly #transport: Transport | undefined;
  readonly #shared: boolean;
  readonly allowsLegacy: boolean;
  readonly caller: Caller;
  readonly transport: TransportFacts;
  readonly #inflight = new Map<RequestId, InFlight>();
  readonly #outgoing = new Map<RequestId, PendingRequest>();
  #nextOutgoingId = 0;
  #closed = false;
  legacy: LegacySession | undefined;
  /** Called once when the connection closes. */
  onclose: (() => void) | undefined;
  /**
   * Called when a request the client cancelled will never be answered (for a batch: once every request in it was
   * cancelled), with the MessageExtra it came with, so that the transport can end what waits for the answer (a legacy
   * HTTP POST would otherwise stay open until its time limit).
   */
  onunanswered: ((extra: MessageExtra) => void) | undefined;

  constructor(host: ConnectionHost, transport: Transport | undefined, options: ConnectionOptions = {}) {
    this.#host = host;
    this.#transport = transport;
    this.allowsLegacy = options.legacy ?? true;
    this.#shared = options.shared ?? false;
    this.caller = options.caller ?? LOCAL_CALLER;
    this.transport = options.transport ?? MEMORY_TRANSPORT;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Requests being handled right now. */
  get inflightCount(): number {
    return this.#inflight.size;
  }

  send(message: string, options?: SendOptions): void {
    if (this.#closed || this.#transport === undefined) return;
    try {
      this.#transport.send(message, options);
    } catch (error) {
      this.#host.logger.debug('send failed', error);
    }
  }

  /**
   * Handles one incoming message from a transport: a string is JSON text (parsed here), anything else an
   * already-decoded JSON value. Only a transport's own message is ever text; the items of a batch never are.
   */
  receive(raw: unknown, extra?: MessageExtra): void {
    if (this.#closed) return;
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = parseJson(raw, this.#host.maxJsonDepth);
      } catch (error) {
        const rpc = error as RpcError; // parseJson throws only RpcError
        this.#reply(extra, encodeError(undefined, rpc.code, rpc.message), {
          final: true,
          errorCode: rpc.code,
        });
        return;
      }
    }
    this.receiveMessage(classify(value), extra);
  }

  /** Handles a message the transport has already classified (HTTP reads the body before it picks a path). */
  receiveMessage(message: Classified, extra?: MessageExtra): void {
    if (this.#closed) return;
    switch (message.kind) {
      case 'request':
        this.#request(message.message, extra);
        return;
      case 'notification':
        this.#notification(message.message.method, message.message.params);
        return;
      case 'response':
        this.#response(message.message);
        return;
      case 'batch':
        this.receiveBatch(splitBatch(message.items), extra);
        return;
      case 'invalid':
        this.#reply(extra, encodeError(message.id, message.error.code, message.error.message), {
          ...(message.id !== undefined && { relatedRequestId: message.id }),
          final: true,
          errorCode: message.error.code,
        });
        return;
    }
  }

  /** Whether a batch gets an answer here: a refusal outside 2025-03-26, else one entry per request or invalid item. */
  answersBatch(batch: Batch): boolean {
    return !revisionAllowsBatches(this.legacy?.revision) || batch.answers > 0;
  }

  /**
   * Handles a batch whose items were judged once, by splitBatch: each item is dispatched as the value it is, and
   * the answer is one array with an entry per request or invalid item (nothing when there is none).
   */
  receiveBatch(batch: Batch, extra?: MessageExtra): void {
    if (this.#closed) return;
    if (!revisionAllowsBatches(this.legacy?.revision)) {
      this.#reply(
        extra,
        encodeError(
          undefined,
          ErrorCode.InvalidRequest,
          'Invalid Request: JSON-RPC batches are only allowed on protocol revision 2025-03-26',
        ),
        { final: true, errorCode: ErrorCode.InvalidRequest },
      );
      return;
    }
    const reply = new BatchReply(
      batch.answers,
      extra,
      (message, options) => this.#reply(extra, message, options),
      () => this.#unanswered(extra),
    );
    for (const item of batch.items) {
      switch (item.kind) {
        case 'invalid':
          // Every entry of a batch answer has an id: null when the item's own could not be read (JSON-RPC 2.0 §6).
          reply.add(encodeError(item.id ?? null, item.error.code, item.error.message));
          break;
        case 'request':
          if (item.message.method === Method.Initialize) {
            reply.add(
              encodeError(
                item.message.id,
                ErrorCode.InvalidRequest,
                'Invalid Request: initialize must not be part of a batch',
              ),
            );
          } else this.#request(item.message, reply.extra);
          break;
        case 'notification':
          this.#notification(item.message.method, item.message.params);
          break;
        case 'response':
          this.#response(item.message);
          break;
      }
    }
  }

  #unanswered(extra: MessageExtra | undefined): void {
    if (extra !== undefined) this.onunanswered?.(extra);
  }

  #reply(extra: MessageExtra | undefined, message: string, options: SendOptions): void {
    deliver(this, extra, message, options);
  }

  #fail(extra: MessageExtra | undefined, id: RequestId, code: number, message: string, data?: unknown): void {
    this.#reply(extra, encodeError(id, code, message, data), {
      relatedRequestId: id,
      final: true,
      errorCode: code,
      rejected: true,
    });
  }

  #request(request: JsonRpcRequest, extra: MessageExtra | undefined): void {
    const id = request.id;
    // On a shared connection ids are the clients' own and may repeat across clients: they are not tracked.
    if (!this.#shared && this.#inflight.has(id)) {
      this.#fail(
        extra,
        id,
        ErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(id)} is already in use by a request in flight`,
      );
      return;
    }
    if (!this.#shared && this.#inflight.size >= this.#host.maxInFlight) {
      this.#fail(
        extra,
        id,
        ErrorCode.InternalError,
        `Too many requests in flight on this connection (limit ${this.#host.maxInFlight}); wait for some to finish`,
      );
      return;
    }
    this.#host.intake.request(this, request, extra);
  }

  /** Tracks a request whose handler runs asynchronously, so that it can be cancelled. */
  track(scope: RequestScope): void {
    if (!this.#shared) this.#inflight.set(scope.id, new InFlight(scope));
  }

  untrack(scope: RequestScope): void {
    const entry = this.#inflight.get(scope.id);
    if (entry?.scope !== scope) return;
    entry.scope = undefined;
    this.#inflight.delete(scope.id);
  }

  #notification(method: string, params: JsonObject | undefined): void {
    switch (method) {
      case Notification.Cancelled: {
        const target = params?.requestId;
        if (typeof target !== 'string' && typeof target !== 'number') return; // invalid cancellations are ignored
        const entry = this.#inflight.get(target);
        const scope = entry?.scope;
        if (entry === undefined || scope === undefined) return;
        const live = !scope.done && !scope.cancelled;
        scope.cancel(params?.reason ?? 'cancelled by the client');
        // A cancelled request is never answered: a batch holding it is answered without it.
        if (live) {
          const batch = BatchReply.of(scope.extra);
          if (batch !== undefined) batch.letGo();
          else this.#unanswered(scope.extra);
        }
        // The id is free again at once: the cancelled call sends nothing more, whenever its handler unwinds.
        entry.scope = undefined;
        this.#inflight.delete(target);
        return;
      }
      case Notification.Initialized:
        if (this.legacy !== undefined) this.legacy.initialized = true;
        return;
      default:
        // Other notifications (progress for our requests, roots/list_changed…) need no action here.
        return;
    }
  }

  #response(response: JsonRpcResponse): void {
    const id = response.id;
    if (id === undefined) return;
    const pending = this.#outgoing.get(id);
    if (pending === undefined) return; // an answer to nothing we asked (or to something we gave up on)
    this.#outgoing.delete(id);
    if ('error' in response) {
      pending.reject(
        new ToolError(`The client could not complete ${pending.method}: ${response.error.message}`),
      );
    } else pending.resolve(response.result);
  }

  /** Sends a request to the client (legacy wire only) and waits for its answer. */
  request(
    scope: RequestScope,
    method: string,
    params: JsonObject | undefined,
    signal: AbortSignal,
  ): Promise<unknown> {
    if (this.#closed) return Promise.reject(new ToolError('The client connection is closed'));
    if (this.#outgoing.size >= MAX_OUTGOING) {
      return Promise.reject(
        new ToolError(`Too many requests outstanding to the client (limit ${MAX_OUTGOING})`),
      );
    }
    const id = ++this.#nextOutgoingId;
    return new Promise<unknown>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.#outgoing.delete(id)) return;
        this.send(
          encodeNotification(Notification.Cancelled, { requestId: id, reason: 'the tool call ended' }),
        );
        reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
      };
      if (signal.aborted) {
        reject(new Error('aborted'));
        return;
      }
      signal.addEventListener('abort', onAbort, { once: true });
      this.#outgoing.set(id, {
        method,
        resolve: (result) => {
          signal.removeEventListener('abort', onAbort);
          resolve(result);
        },
        reject: (error) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      });
      scope.sendRelated(encodeRequest(id, method, params));
    });
  }

  /** Ends the connection: in-flight requests are aborted, outstanding requests to the client fail. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const scope of this.inflight()) scope.cancel(new Error('connection closed'));
    for (const entry of this.#inflight.values()) entry.scope = undefined;
    this.#inflight.clear();
    for (const pending of this.#outgoing.values())
      pending.reject(new ToolError('The client connection closed'));
    this.#outgoing.clear();
    this.#host.closed(this);
    this.onclose?.();
  }

  /** All requests in flight (the server ends subscriptions and aborts calls on shutdown). */
  inflight(): RequestScope[] {
    const scopes: RequestScope[] = [];
    for (const entry of this.#inflight.values()) if (entry.scope !== undefined) scopes.push(entry.scope);
    return scopes;
  }
}
