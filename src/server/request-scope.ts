// One incoming request while it is being handled: its facts, where its messages go, and how it ends.
// Handlers get this scope; middleware gets a read-only view of it (request-view.ts).

import {
  ErrorCode,
  encodeError,
  encodeNotification,
  RpcError,
  type JsonObject,
  type RequestId,
} from '../jsonrpc/index.js';
import {
  MetaKey,
  Notification,
  levelPasses,
  type Caller,
  type EmbeddedResource,
  type LoggingLevel,
  type MessageExtra,
  type RequestEnvelope,
  type ResourceLink,
  type SendOptions,
  type TransportFacts,
} from '../protocol/index.js';
import type { ContextSource, ToolContext } from './context.js';
import { Denial, newReference } from './errors.js';
import type { LegacySession } from './legacy-session.js';
import { embeddedFor, linkFor, readResolved, type ResolvedResource } from './resources.js';
import type { PromptRecord } from './prompts.js';
import type { ServerServices } from './services.js';
import type { Target } from './targets.js';
import type { ToolRecord } from './tool-registry.js';

export type Era = 'modern' | 'legacy';

/** What a request needs of the connection it came over (ServerConnection implements it). */
export interface ConnectionLink {
  readonly closed: boolean;
  /** The channel, when a message's extra does not say (stdio, memory). */
  readonly transport: TransportFacts;
  /** The legacy session, once `initialize` opened one. */
  legacy: LegacySession | undefined;
  /** Sends a message on the connection's own channel (stdio, a legacy session's stream). */
  send(message: string, options?: SendOptions): void;
  /** From here on a notifications/cancelled finds this request. */
  track(scope: RequestScope): void;
  untrack(scope: RequestScope): void;
  /** A request to the client (legacy wire only) that belongs to `scope`; resolves with its result. */
  request(
    scope: RequestScope,
    method: string,
    params: JsonObject | undefined,
    signal: AbortSignal,
  ): Promise<unknown>;
}

/** What a request names, resolved before middleware runs (undefined when it names nothing the caller may see). */
export type Resolved =
  | { readonly kind: 'tool'; readonly record: ToolRecord }
  | { readonly kind: 'prompt'; readonly record: PromptRecord }
  | { readonly kind: 'resource'; readonly resource: ResolvedResource };

/**
 * Where every message about an incoming message goes: its own reply channel when the transport gave one (an HTTP
 * POST, a batch), else the connection. The one place replies are routed.
 */
export function deliver(
  connection: Pick<ConnectionLink, 'send'>,
  extra: MessageExtra | undefined,
  message: string,
  options: SendOptions,
): void {
  const reply = extra?.reply;
  if (reply !== undefined) reply(message, options);
  else connection.send(message, options);
}

/** Log notifications one request may send before the rest are dropped (the spec asks servers to rate-limit logs). */
const MAX_LOGS_PER_REQUEST = 1000;

export class RequestScope implements ContextSource {
  readonly services: ServerServices;
  readonly connection: ConnectionLink;
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly era: Era;
  readonly envelope: RequestEnvelope;
  readonly extra: MessageExtra | undefined;
  readonly caller: Caller;
  /** What the request names (tools/call, prompts/get, resources/read), resolved for this caller. */
  resolved: Resolved | undefined;
  /** Set while a handler that can be cancelled runs. */
  controller: { abort(reason: unknown): void } | undefined;
  /** The client cancelled, or the response can no longer be delivered: nothing more is sent. */
  cancelled = false;
  /** The final response went out. */
  done = false;
  /** Called when the request is cancelled (long-lived requests such as subscriptions/listen end on it). */
  onCancel: ((scope: RequestScope) => void) | undefined;
  /** `_meta` members middleware added to the result. */
  resultMeta: JsonObject | undefined;
  /** Aborted with the request (made only when a middleware reads the view's signal). */
  viewAbort: AbortController | undefined;
  #logs = 0;

  constructor(
    services: ServerServices,
    connection: ConnectionLink,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    era: Era,
    envelope: RequestEnvelope,
    extra: MessageExtra | undefined,
    caller: Caller,
  ) {
    this.services = services;
    this.connection = connection;
    this.id = id;
    this.method = method;
    this.params = params;
    this.era = era;
    this.envelope = envelope;
    this.extra = extra;
    this.caller = caller;
  }

  get meta(): JsonObject | undefined {
    return this.params?._meta as JsonObject | undefined;
  }

  get target(): Target | undefined {
    const resolved = this.resolved;
    if (resolved === undefined) return undefined;
    return resolved.kind === 'resource' ? resolved.resource.record.target : resolved.record.target;
  }

  get progressIntervalMs(): number {
    return this.services.progressIntervalMs;
  }

  /** A notification about this request (progress, log, subscription event). */
  notify(message: string): void {
    if (this.done || this.cancelled) return;
    deliver(this.connection, this.extra, message, { relatedRequestId: this.id });
  }

  /** A request to the client that belongs to this request (legacy elicitation, sampling, roots). */
  sendRelated(message: string): void {
    deliver(this.connection, this.extra, message, { relatedRequestId: this.id });
  }

  /** The final response, already encoded. Sent at most once, and never after cancellation. */
  respond(
    message: string,
    errorCode?: number,
    refusal?: Pick<SendOptions, 'rejected' | 'httpStatus' | 'httpHeaders'>,
  ): void {
    if (this.done || this.cancelled) return;
    this.done = true;
    const options: SendOptions =
      errorCode === undefined
        ? { relatedRequestId: this.id, final: true }
        : { relatedRequestId: this.id, final: true, errorCode, ...refusal };
    deliver(this.connection, this.extra, message, options);
  }

  /** Turns anything thrown while handling into an error response; internals stay in the log. */
  fail(error: unknown): void {
    if (error instanceof Denial) {
      this.respond(encodeError(this.id, error.code, error.message, error.data), error.code, {
        ...(error.httpStatus !== undefined && { httpStatus: error.httpStatus }),
        ...(error.httpHeaders !== undefined && { httpHeaders: error.httpHeaders }),
      });
      return;
    }
    if (error instanceof RpcError) {
      this.respond(encodeError(this.id, error.code, error.message, error.data), error.code);
      return;
    }
    const reference = newReference();
    this.services.logger.error(`${this.method} failed (reference ${reference})`, error);
    this.respond(
      encodeError(this.id, ErrorCode.InternalError, `Internal error (reference ${reference})`),
      ErrorCode.InternalError,
    );
  }

  cancel(reason: unknown): void {
    if (this.cancelled || this.done) return;
    this.cancelled = true;
    this.controller?.abort(reason);
    this.viewAbort?.abort(reason);
    this.onCancel?.(this);
  }

  log(level: LoggingLevel, data: unknown, logger?: string): void {
    const threshold = this.era === 'modern' ? this.envelope.logLevel : this.connection.legacy?.logLevel;
    if (threshold === undefined || !levelPasses(level, threshold)) return;
    if (++this.#logs > MAX_LOGS_PER_REQUEST) return;
    const params: JsonObject = { level, data };
    if (logger !== undefined) params.logger = logger;
    this.notify(encodeNotification(Notification.Message, params));
  }

  /** The resource `uri` resolves to for this request's caller (an unseen one does not resolve). */
  resolveResource(uri: string): ResolvedResource | undefined {
    const visibility = this.services.visibility;
    return this.services.resources.resolve(
      uri,
      visibility.active ? this.caller : undefined,
      visibility.resourceLookup,
    );
  }

  async embedResource(uri: string, context: ToolContext): Promise<EmbeddedResource> {
    const resolved = this.resolveResource(uri);
    if (resolved === undefined) throw new Error(`embedResource(): no registered resource matches "${uri}"`);
    const contents = await readResolved(resolved, uri, context);
    const first = contents[0];
    if (first === undefined) throw new Error(`embedResource(): resource "${uri}" has no contents`);
    return embeddedFor(first);
  }

  linkResource(uri: string): ResourceLink {
    const resolved = this.resolveResource(uri);
    if (resolved === undefined) throw new Error(`linkResource(): no registered resource matches "${uri}"`);
    return linkFor(resolved, uri);
  }
}

/** The `_meta` that tags a notification or result with the subscription it belongs to. */
export const subscriptionMeta = (id: RequestId): JsonObject => ({ [MetaKey.SubscriptionId]: id });
