// The client's JSON-RPC plumbing over one transport: ids, pending requests, time limits, cancellation, progress,
// notifications, and requests the server sends (legacy wire).

import {
  classify,
  encodeError,
  encodeNotification,
  encodeResult,
  parseJson,
  splitBatch,
  type JsonObject,
  type JsonRpcRequest,
  type RequestId,
  type SingleMessage,
} from '../jsonrpc/index.js';
import {
  Notification,
  type MessageExtra,
  type SendOptions,
  type Transport,
  type TransportError,
} from '../protocol/index.js';
import {
  ConnectionClosedError,
  McpError,
  ProtocolError,
  RequestAbortedError,
  RequestTimeoutError,
} from './errors.js';
import { inputOwnerOf, type InputOwner } from './input-owner.js';
import { Pending, type Progress, type RequestOptions } from './pending-request.js';
import { retryDelay, transientFailure } from './retry.js';

export type { InputOwner } from './input-owner.js';

export type { Progress, RequestOptions } from './pending-request.js';

/** A request the server sent; `owner` is the request of ours it belongs to, when that is known (inputOwnerOf). */
export type ServerRequestHandler = (
  request: JsonRpcRequest,
  owner: InputOwner | undefined,
) => Promise<JsonObject>;
export type NotificationListener = (method: string, params: JsonObject | undefined) => void;

export interface ChannelLogger {
  warn(message: string): void;
}

export class Channel {
  readonly #transport: Transport;
  readonly #pending = new Map<RequestId, Pending>();
  /** Requests given up on (timed out, cancelled): their late answers are dropped quietly. Bounded, oldest first. */
  readonly #abandoned = new Set<RequestId>();
  readonly #logger: ChannelLogger;
  #nextId = 0;
  #closed = false;
  #closeReason: string | undefined;
  onnotification: NotificationListener | undefined;
  onrequest: ServerRequestHandler | undefined;
  onclose: (() => void) | undefined;

  constructor(transport: Transport, logger: ChannelLogger) {
    this.#transport = transport;
    this.#logger = logger;
    transport.onmessage = (message, extra) => this.#receive(message, extra);
    transport.onclose = () => this.#closedByTransport();
    transport.onerror = (error) => this.#logger.warn(`transport: ${error.message}`);
    transport.onrequesterror = (id, error) => this.#requestFailed(id, error);
  }

  get transport(): Transport {
    return this.#transport;
  }

  get closed(): boolean {
    return this.#closed;
  }

  /** Sends a request and waits for its result; a JSON-RPC error becomes McpError. */
  request(method: string, params: JsonObject, options: RequestOptions): Promise<JsonObject> {
    if (this.#closed) return Promise.reject(new ConnectionClosedError(this.#closeReason));
    const id = ++this.#nextId;
    options.onId?.(id);
    if (options.onProgress !== undefined) {
      params = {
        ...params,
        _meta: { ...((params._meta as JsonObject | undefined) ?? {}), progressToken: id },
      };
    }
    return new Promise<JsonObject>((resolve, reject) => {
      const signal = options.signal;
      if (signal?.aborted) {
        reject(new RequestAbortedError(method));
        return;
      }
      const pending = new Pending(
        method,
        resolve,
        reject,
        options,
        JSON.stringify({ jsonrpc: '2.0', id, method, params }),
      );
      this.#pending.set(id, pending);
      this.#arm(id, pending, options.timeoutMs);
      if (signal !== undefined) {
        pending.watch(signal, () =>
          this.#cancel(id, new RequestAbortedError(method), 'cancelled by the caller'),
        );
      }
      this.#transmit(id, pending);
    });
  }

  #transmit(id: RequestId, pending: Pending): void {
    const sendOptions: SendOptions = { requestId: id };
    if (pending.options.headers !== undefined) sendOptions.headers = pending.options.headers;
    if (pending.stream !== undefined) sendOptions.signal = pending.stream.signal;
    try {
      this.#transport.send(pending.text, sendOptions);
    } catch (error) {
      this.#settle(id)?.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  /**
   * Sends a failed request again later, when its policy allows and the failure is transient. True when a retry is
   * scheduled. The time limit keeps running across attempts: one clock per request.
   */
  #retryLater(id: RequestId, pending: Pending, error: Error): boolean {
    const policy = pending.options.retry;
    const transient = transientFailure(error);
    if (policy === undefined || transient === undefined || this.#closed) return false;
    if (pending.attempt >= policy.maxAttempts) return false;
    const delayMs = retryDelay(policy, pending.attempt + 1, transient.retryAfterMs);
    if (delayMs === undefined) return false;
    pending.attempt++;
    try {
      policy.onRetry?.({
        method: pending.method,
        attempt: pending.attempt,
        maxAttempts: policy.maxAttempts,
        delayMs,
        reason: error.message,
      });
    } catch (thrown) {
      this.#logger.warn(`onRetry threw: ${(thrown as Error).message}`);
    }
    pending.retryTimer = setTimeout(() => {
      pending.retryTimer = undefined;
      if (this.#pending.get(id) === pending && !this.#closed) this.#transmit(id, pending);
    }, delayMs); // not unref'd: during the wait nothing else may keep the process alive for the answer
    return true;
  }

  notify(method: string, params?: JsonObject, headers?: Record<string, string>): void {
    if (this.#closed) return;
    this.#transport.send(encodeNotification(method, params), headers === undefined ? {} : { headers });
  }

  /** Arms the time limit: fires after `delayMs`; the error names `limitMs` (the limit the caller set). */
  #arm(id: RequestId, pending: Pending, delayMs: number, limitMs = delayMs): void {
    if (delayMs <= 0) return;
    pending.timer = setTimeout(
      () => this.#cancel(id, new RequestTimeoutError(pending.method, limitMs), 'timed out'),
      delayMs,
    );
    pending.timer.unref?.();
  }

  #settle(id: RequestId): Pending | undefined {
    const pending = this.#pending.get(id);
    if (pending === undefined) return undefined;
    this.#pending.delete(id);
    if (pending.timer !== undefined) clearTimeout(pending.timer);
    if (pending.retryTimer !== undefined) clearTimeout(pending.retryTimer);
    return pending;
  }

  /** Gives up on a request and tells the server the way the wire wants it. */
  #cancel(id: RequestId, error: Error, reason: string): void {
    const pending = this.#settle(id);
    if (pending === undefined) return;
    this.#abandoned.add(id);
    if (this.#abandoned.size > 1024)
      this.#abandoned.delete(this.#abandoned.values().next().value as RequestId);
    if (pending.stream !== undefined) pending.stream.abort(error);
    else if (!this.#closed) {
      try {
        this.#transport.send(encodeNotification(Notification.Cancelled, { requestId: id, reason }));
      } catch {
        // the transport is going away; nothing more to tell
      }
    }
    pending.reject(error);
  }

  #requestFailed(id: RequestId, error: TransportError): void {
    const pending = this.#pending.get(id);
    if (pending !== undefined && this.#retryLater(id, pending, error)) return;
    this.#settle(id)?.reject(error);
  }

  #receive(raw: unknown, extra?: MessageExtra): void {
    let value: unknown = raw;
    if (typeof raw === 'string') {
      try {
        value = parseJson(raw);
      } catch {
        this.#protocolViolation(
          `the server sent something that is not JSON: ${JSON.stringify(raw.slice(0, 200))}`,
        );
        return;
      }
    }
    const message = classify(value);
    switch (message.kind) {
      case 'batch':
        this.#receiveBatch(message.items, extra);
        return;
      case 'invalid':
        this.#protocolViolation(`the server sent an invalid JSON-RPC message: ${message.error.message}`);
        return;
      default:
        this.#dispatch(message, extra);
    }
  }

  /**
   * A batch the server sent: each item is the value it is, judged once by splitBatch (a string item is never JSON
   * text to decode again, an array inside is invalid). The valid items are delivered in order, and an invalid one
   * is reported after them, so that a response next to it still settles its request.
   */
  #receiveBatch(items: readonly unknown[], extra: MessageExtra | undefined): void {
    let invalid: string | undefined;
    for (const item of splitBatch(items).items) {
      if (item.kind === 'invalid') invalid ??= item.error.message;
      else this.#dispatch(item, extra);
    }
    if (invalid !== undefined) {
      this.#protocolViolation(`the server sent an invalid JSON-RPC message in a batch: ${invalid}`);
    }
  }

  #dispatch(message: Exclude<SingleMessage, { kind: 'invalid' }>, extra: MessageExtra | undefined): void {
    switch (message.kind) {
      case 'response': {
        const response = message.message;
        if ('error' in response && response.id !== undefined && extra?.httpStatus !== undefined) {
          // A JSON-RPC error on a 429/503 answer ("not now") is retried like a transport failure, when allowed.
          const waiting = this.#pending.get(response.id);
          const error = new McpError(response.error, extra.httpStatus, extra.retryAfterMs);
          if (waiting !== undefined && this.#retryLater(response.id, waiting, error)) return;
        }
        const pending = response.id === undefined ? undefined : this.#settle(response.id);
        if (pending === undefined) {
          if (response.id !== undefined && this.#abandoned.delete(response.id)) return; // late: we gave up on it
          if ('error' in response && response.id === undefined) {
            this.#logger.warn(`server error without an id: ${response.error.code} ${response.error.message}`);
          } else this.#logger.warn(`ignored a response with unknown id ${JSON.stringify(response.id)}`);
          return;
        }
        if ('error' in response)
          pending.reject(new McpError(response.error, extra?.httpStatus, extra?.retryAfterMs));
        else pending.resolve(response.result);
        return;
      }
      case 'notification':
        this.#notification(message.message.method, message.message.params);
        return;
      case 'request':
        void this.#serverRequest(message.message, inputOwnerOf(this.#pending, extra?.relatedRequestId));
        return;
    }
  }

  /** A corrupted stream: every open request fails at once with the reason, rather than hanging until its time limit. */
  #protocolViolation(reason: string): void {
    if (this.#pending.size === 0) this.#logger.warn(reason); // otherwise the open requests carry the reason
    for (const id of [...this.#pending.keys()]) this.#settle(id)?.reject(new ProtocolError(reason));
  }

  #notification(method: string, params: JsonObject | undefined): void {
    if (method === Notification.Progress) {
      const token = params?.progressToken;
      const pending =
        typeof token === 'number' || typeof token === 'string' ? this.#pending.get(token) : undefined;
      if (pending === undefined) {
        this.onnotification?.(method, params); // a token of the caller's own (a task's progress, say)
        return;
      }
      if (pending.options.onProgress === undefined || typeof params?.progress !== 'number') return;
      const progress: Progress = { progress: params.progress };
      if (typeof params.total === 'number') progress.total = params.total;
      if (typeof params.message === 'string') progress.message = params.message;
      try {
        pending.options.onProgress(progress);
      } catch (error) {
        this.#logger.warn(`onProgress threw: ${(error as Error).message}`);
      }
      if (pending.options.resetTimeoutOnProgress === true && pending.timer !== undefined) {
        const maximum = pending.options.maxTotalTimeoutMs ?? Infinity;
        const untilMaximum = maximum - (Date.now() - pending.startedAt);
        clearTimeout(pending.timer);
        pending.timer = undefined;
        const id = token as RequestId; // the progress token is the request id
        if (untilMaximum <= 0)
          this.#cancel(id, new RequestTimeoutError(pending.method, maximum), 'timed out');
        else if (untilMaximum < pending.options.timeoutMs) this.#arm(id, pending, untilMaximum, maximum);
        else this.#arm(id, pending, pending.options.timeoutMs);
      }
      return;
    }
    this.onnotification?.(method, params);
  }

  async #serverRequest(request: JsonRpcRequest, owner: InputOwner | undefined): Promise<void> {
    let reply: string;
    try {
      if (this.onrequest === undefined)
        throw new McpError({ code: -32601, message: `Method not found: ${request.method}` });
      reply = encodeResult(request.id, await this.onrequest(request, owner));
    } catch (error) {
      const code = error instanceof McpError ? error.code : -32603;
      reply = encodeError(request.id, code, error instanceof Error ? error.message : 'request failed');
    }
    if (!this.#closed) this.#transport.send(reply);
  }

  #closedByTransport(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const id of [...this.#pending.keys()])
      this.#settle(id)?.reject(new ConnectionClosedError(this.#closeReason));
    this.onclose?.();
  }

  /** Closes the transport; open requests fail with ConnectionClosedError. */
  async close(reason?: string): Promise<void> {
    this.#closeReason = reason;
    await this.#transport.close();
    this.#closedByTransport();
  }
}
