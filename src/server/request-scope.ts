// One incoming request while it is being handled: its facts, where its messages go, and how it ends.

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
  type LoggingLevel,
  type MessageExtra,
  type RequestEnvelope,
  type SendOptions,
} from '../protocol/index.js';
import type { ServerConnection } from './connection.js';
import { newReference } from './errors.js';
import type { NotificationSink } from './progress.js';
import type { McpServer } from './server.js';

export type Era = 'modern' | 'legacy';

/** Log notifications one request may send before the rest are dropped (the spec asks servers to rate-limit logs). */
const MAX_LOGS_PER_REQUEST = 1000;

export class RequestScope implements NotificationSink {
  readonly server: McpServer;
  readonly connection: ServerConnection;
  readonly id: RequestId;
  readonly method: string;
  readonly params: JsonObject | undefined;
  readonly era: Era;
  readonly envelope: RequestEnvelope;
  readonly extra: MessageExtra | undefined;
  /** Set while a handler that can be cancelled runs. */
  controller: { abort(reason: unknown): void } | undefined;
  /** The client cancelled, or the response can no longer be delivered: nothing more is sent. */
  cancelled = false;
  /** The final response went out. */
  done = false;
  /** Called when the request is cancelled (long-lived requests such as subscriptions/listen end on it). */
  onCancel: ((scope: RequestScope) => void) | undefined;
  #logs = 0;

  constructor(
    server: McpServer,
    connection: ServerConnection,
    id: RequestId,
    method: string,
    params: JsonObject | undefined,
    era: Era,
    envelope: RequestEnvelope,
    extra: MessageExtra | undefined,
  ) {
    this.server = server;
    this.connection = connection;
    this.id = id;
    this.method = method;
    this.params = params;
    this.era = era;
    this.envelope = envelope;
    this.extra = extra;
  }

  get meta(): JsonObject | undefined {
    return this.params?._meta as JsonObject | undefined;
  }

  #send(message: string, options: SendOptions): void {
    const reply = this.extra?.reply;
    if (reply !== undefined) reply(message, options);
    else this.connection.send(message, options);
  }

  /** A notification about this request (progress, log, subscription event). */
  notify(message: string): void {
    if (this.done || this.cancelled) return;
    this.#send(message, { relatedRequestId: this.id });
  }

  /** A request to the client that belongs to this request (legacy elicitation, sampling, roots). */
  sendRelated(message: string): void {
    this.#send(message, { relatedRequestId: this.id });
  }

  /** The final response, already encoded. Sent at most once, and never after cancellation. */
  respond(message: string, errorCode?: number): void {
    if (this.done || this.cancelled) return;
    this.done = true;
    this.#send(
      message,
      errorCode === undefined
        ? { relatedRequestId: this.id, final: true }
        : { relatedRequestId: this.id, final: true, errorCode },
    );
  }

  /** Turns anything thrown while handling into an error response; internals stay in the log. */
  fail(error: unknown): void {
    if (error instanceof RpcError) {
      this.respond(encodeError(this.id, error.code, error.message, error.data), error.code);
      return;
    }
    const reference = newReference();
    this.server.logger.error(`${this.method} failed (reference ${reference})`, error);
    this.respond(
      encodeError(this.id, ErrorCode.InternalError, `Internal error (reference ${reference})`),
      ErrorCode.InternalError,
    );
  }

  cancel(reason: unknown): void {
    if (this.cancelled || this.done) return;
    this.cancelled = true;
    this.controller?.abort(reason);
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
}

/** The `_meta` that tags a notification or result with the subscription it belongs to. */
export const subscriptionMeta = (id: RequestId): JsonObject => ({ [MetaKey.SubscriptionId]: id });
