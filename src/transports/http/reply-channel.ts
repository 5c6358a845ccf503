// Where the messages about one POSTed request go: a JSON body when the final response comes first, an SSE
// stream as soon as anything precedes it. It also owns the request's cancellation, and enforces the time limit the
// request pipeline sets through `extra.timeLimit` (what the request runs decides it, not the transport).

import { ErrorCode, encodeError, type RequestId } from '../../jsonrpc/index.js';
import { Cancellation, type SendOptions } from '../../protocol/index.js';
import type { Logger } from '../../server/index.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { hookHeaders } from './hook-call.js';
import { JSON_TYPE } from './respond.js';
import { SSE_HEADERS } from './sse.js';

/** A stream of events for one request: a plain SSE writer (modern) or a resumable event stream (legacy). */
export interface Outlet {
  event(message: string): void;
  end(): void;
}

export interface ReplyChannelConfig {
  exchange: HttpExchange;
  /** Headers every response of this request carries (CORS, Mcp-Session-Id). */
  headers: OutgoingHeaders;
  requestId: RequestId | undefined;
  /** Where the fallback limit of a request the pipeline did not limit is reported (at debug). */
  logger: Logger;
  statusOf(options: SendOptions): number;
  /** Opens the SSE response; called at most once. */
  openOutlet(): Outlet;
  /** 'cancel': a closed response cancels the request (modern). 'keep': the request carries on (legacy). */
  onClientGone: 'cancel' | 'keep';
  /** Called once, when nothing more will be sent. */
  onFinish(): void;
}

/**
 * The limit of a request the pipeline took without calling `extra.timeLimit`: that is a pipeline bug (every request
 * it runs gets a limit), and a request must still never hold its POST forever.
 */
export const FALLBACK_TIME_LIMIT_MS = 600_000;

export class ReplyChannel {
  readonly #config: ReplyChannelConfig;
  readonly #cancellation = new Cancellation();
  #timer: ReturnType<typeof setTimeout> | undefined;
  /** The limit set so far (the largest, for a batch); undefined until the pipeline sets one. */
  #limitMs: number | undefined;
  /** When the first limit was set: a larger one set later counts from there. */
  #limitedAt = 0;
  #outlet: Outlet | undefined;
  #finished = false;
  /** The client left before a response was started: there is nothing left to write to. */
  #gone = false;

  constructor(config: ReplyChannelConfig) {
    this.#config = config;
    config.exchange.onClose(() => this.#clientGone());
  }

  /**
   * The `timeLimit` of the request's MessageExtra: the request ends with -32603 "Request timed out" once `ms` have
   * passed (Infinity: never). The items of a 2025-03-26 batch share one POST and each set their own: the largest
   * wins, counted from the first.
   */
  readonly timeLimit = (ms: number): void => {
    if (this.#finished || Number.isNaN(ms) || ms < 0) return;
    const previous = this.#limitMs;
    if (previous !== undefined && ms <= previous) return;
    this.#limitMs = ms;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (ms === Infinity) return;
    const now = Date.now();
    if (previous === undefined) this.#limitedAt = now;
    this.#timer = setTimeout(() => this.#timeout(), Math.max(0, this.#limitedAt + ms - now));
    this.#timer.unref?.();
  };

  /**
   * The connection has taken the request (its receive call returned). One nobody limited and not answered yet gets
   * FALLBACK_TIME_LIMIT_MS, logged at debug: the pipeline limits every request it runs.
   */
  received(): void {
    if (this.#finished || this.#limitMs !== undefined) return;
    this.#config.logger.debug(
      `HTTP transport: a request was taken without a time limit (a request pipeline bug); it gets ${FALLBACK_TIME_LIMIT_MS} ms`,
    );
    this.timeLimit(FALLBACK_TIME_LIMIT_MS);
  }

  /** Aborts on timeout, on shutdown, and (modern) when the client closes the response. */
  get cancellation(): Cancellation {
    return this.#cancellation;
  }

  get finished(): boolean {
    return this.#finished;
  }

  /** The `reply` of the request's MessageExtra. */
  readonly reply = (message: string, options: SendOptions): void => {
    if (this.#finished) return;
    if (options.final === true) this.#finish(message, options);
    else this.open()?.event(message);
  };

  /** Switches to (or returns) the SSE response; undefined once there is no client to write to. */
  open(): Outlet | undefined {
    if (this.#finished || this.#gone) return undefined;
    this.#outlet ??= this.#config.openOutlet();
    return this.#outlet;
  }

  /**
   * The request will never be answered: the client cancelled it, and the spec has the server send no response. The
   * POST must still end, not wait for its time limit: an SSE response ends. A response not started yet becomes an
   * SSE stream with no event at all, ended at once: a POST holding requests MUST be answered with JSON or SSE
   * (2025-03-26 transports), so 202 is not allowed, and without an event id the client has nothing to resume.
   */
  endUnanswered(): void {
    if (this.#finished) return;
    this.#finished = true;
    clearTimeout(this.#timer);
    if (this.#outlet !== undefined) this.#outlet.end();
    else if (!this.#gone)
      this.#config.exchange.stream(200, { ...this.#config.headers, ...SSE_HEADERS }).end();
    this.#config.onFinish();
  }

  /** Ends the request from our side (shutdown): its signal aborts and its response ends. */
  abort(reason: string): void {
    if (this.#finished) return;
    this.#cancellation.abort(new Error(reason));
    const id = this.#config.requestId;
    this.#finish(encodeError(id, ErrorCode.InternalError, `Request ended: ${reason}`), {
      ...(id !== undefined && { relatedRequestId: id }),
      final: true,
      errorCode: ErrorCode.InternalError,
    });
  }

  #finish(message: string, options: SendOptions): void {
    this.#finished = true;
    clearTimeout(this.#timer);
    if (this.#outlet !== undefined) {
      this.#outlet.event(message);
      this.#outlet.end();
    } else if (!this.#gone) {
      const { exchange, headers } = this.#config;
      // A policy's refusal (a Denial) names its own status and headers: 401/403/429 with WWW-Authenticate, Retry-After.
      const asked = options.httpStatus === undefined ? undefined : hookHeaders(options.httpHeaders);
      if (asked !== undefined && typeof asked !== 'string') {
        exchange.respond(options.httpStatus as number, { ...headers, ...asked, ...JSON_TYPE }, message);
      } else exchange.respond(this.#config.statusOf(options), { ...headers, ...JSON_TYPE }, message);
    }
    this.#config.onFinish();
  }

  #timeout(): void {
    if (this.#finished) return;
    const ms = this.#limitMs;
    this.#cancellation.abort(new Error(`timed out after ${ms} ms`));
    const id = this.#config.requestId;
    this.#finish(encodeError(id, ErrorCode.InternalError, `Request timed out after ${ms} ms`), {
      ...(id !== undefined && { relatedRequestId: id }),
      final: true,
      errorCode: ErrorCode.InternalError,
    });
  }

  #clientGone(): void {
    if (this.#finished) return;
    if (this.#config.onClientGone === 'keep') {
      // Legacy: a disconnect is not a cancellation. A resumable outlet detaches its own writer.
      if (this.#outlet === undefined) this.#gone = true;
      return;
    }
    this.#finished = true;
    clearTimeout(this.#timer);
    this.#cancellation.abort(new Error('the client closed the response'));
    this.#outlet?.end();
    this.#config.onFinish();
  }
}
