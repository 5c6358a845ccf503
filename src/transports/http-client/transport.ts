// The client side of Streamable HTTP: one POST per message, JSON or SSE answers, sessions and resumable streams;
// a server that refuses a POST of initialize is tried with the 2024-11-05 HTTP+SSE transport (sse-fallback.ts).

import type { RequestId } from '../../jsonrpc/index.js';
import { TransportError, type MessageExtra, type SendOptions, type Transport } from '../../protocol/index.js';
import { LiveList } from '../../protocol/live-list.js';
import { discardBody, readBody, snippet } from './body.js';
import { describe, httpError, networkError } from './failures.js';
import { readJsonAnswer } from './json-answer.js';
import { isResponseTo } from './json-rpc-body.js';
import {
  isVisibleAscii,
  mediaType,
  resolveOptions,
  type HttpClientTransportOptions,
  type ResolvedOptions,
} from './options.js';
import { readSse } from './read-sse.js';
import {
  GET_HEADERS,
  POST_HEADERS,
  deleteSession,
  requestHeaders,
  type HeaderPairs,
} from './request-headers.js';
import { reconnectDelay, sleep } from './reconnect.js';
import type { SseEvent } from './sse-parser.js';
import type { SseClientTransport } from './sse-transport.js';
import { fallsBack, openFallback } from './sse-fallback.js';

/** Error bodies that cannot be JSON-RPC are only read this far: enough for a snippet. */
const ERROR_BODY_BYTES = 4096;

/** One SSE stream, followed across reconnections until it has delivered what it is for. */
interface Followed {
  signal: AbortSignal;
  /** The standalone GET stream: no response is awaited and any end is followed by a new GET. */
  standalone: boolean;
  /** The request whose response completes the stream. */
  requestId: RequestId | undefined;
  lastEventId: string | undefined;
  retryMs: number | undefined;
  answered: boolean;
  /** Headers of the original request that reconnection GETs repeat (its MCP-Protocol-Version). */
  headers: Record<string, string> | undefined;
}

export class HttpClientTransport implements Transport {
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onrequesterror?: (requestId: RequestId, error: TransportError) => void;
  /** On the modern wire a request is cancelled by aborting its POST (SendOptions.signal), not by a notification. */
  readonly closesStreamToCancel = true;

  readonly #url: URL;
  readonly #given: HttpClientTransportOptions;
  readonly #options: ResolvedOptions;
  /** Set when the server turned out to speak only HTTP+SSE (2024-11-05): every message goes through it. */
  #sse: SseClientTransport | undefined;
  /** Aborted by close(): ends every POST, GET and reconnection wait. */
  readonly #lifetime = new AbortController();
  /** The signals of POSTs in flight that linked their caller's signal (#post); close() aborts them. */
  readonly #linked = new Set<AbortController>();
  /** POSTs and the like still running (a LiveList, not a Set: see protocol/live-list.ts). */
  readonly #pending = new LiveList<Promise<void>>();
  #started = false;
  #closed = false;
  #closing: Promise<void> | undefined;
  #sessionId: string | undefined;
  /** A session the server ended: a late response from it must not bring its id back. */
  #endedSessionId: string | undefined;
  #protocolVersion: string | undefined;
  #eventStreamOpen = false;

  constructor(url: string | URL, options: HttpClientTransportOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:') {
      throw new TypeError(`HttpClientTransport: the URL must be http or https, got "${this.#url.protocol}"`);
    }
    this.#options = resolveOptions(options);
    this.#given = options;
  }

  /** 'sse' once the server answered initialize with the 2024-11-05 HTTP+SSE transport (the fallback). */
  get mode(): 'streamable-http' | 'sse' {
    return this.#sse === undefined ? 'streamable-http' : 'sse';
  }

  /** The legacy session id the server issued (Mcp-Session-Id), until it ends or the transport closes. */
  get sessionId(): string | undefined {
    return this.#sessionId;
  }

  get protocolVersion(): string | undefined {
    return this.#protocolVersion;
  }

  async start(): Promise<void> {
    if (this.#closed) throw new Error('transport closed');
    if (this.#started) throw new Error('HttpClientTransport already started');
    this.#started = true;
  }

  send(message: string, options: SendOptions = {}): void {
    if (!this.#started) throw new Error('HttpClientTransport not started');
    if (this.#closed) throw new Error('transport closed');
    if (this.#sse !== undefined) this.#sse.send(message, options);
    else this.#track(this.#post(message, options));
  }

  setProtocolVersion(version: string): void {
    if (!isVisibleAscii(version))
      throw new TypeError(`not a valid protocol version header value: "${version}"`);
    this.#protocolVersion = version;
  }

  /** Opens the standalone GET stream for server-initiated messages; a no-op while one is open. */
  openEventStream(): void {
    if (!this.#started || this.#closed || this.#eventStreamOpen || this.#sse !== undefined) return;
    this.#eventStreamOpen = true;
    const stream: Followed = {
      signal: this.#lifetime.signal,
      standalone: true,
      requestId: undefined,
      lastEventId: undefined,
      retryMs: undefined,
      answered: false,
      headers: undefined,
    };
    this.#track(this.#follow(stream, undefined).finally(() => (this.#eventStreamOpen = false)));
  }

  /** Aborts every request and stream, ends the session (DELETE) if there is one, then fires onclose. Idempotent. */
  close(): Promise<void> {
    this.#closed = true;
    this.#closing ??= this.#shutdown();
    return this.#closing;
  }

  /**
   * A POST whose caller gave a signal gets one of its own, aborted by either that signal or close(). Not
   * AbortSignal.any: its weakly held links cost more than the rest of a request's abort handling together.
   */
  async #post(message: string, options: SendOptions): Promise<void> {
    const given = options.signal;
    if (given === undefined) return this.#exchange(message, options, this.#lifetime.signal);
    if (given.aborted || this.#closed) return;
    const link = new AbortController();
    const onAbort = (): void => link.abort(given.reason);
    given.addEventListener('abort', onAbort, { once: true });
    this.#linked.add(link);
    try {
      await this.#exchange(message, options, link.signal);
    } finally {
      given.removeEventListener('abort', onAbort);
      this.#linked.delete(link);
    }
  }

  async #exchange(message: string, options: SendOptions, signal: AbortSignal): Promise<void> {
    const { requestId } = options;
    if (signal.aborted) return;
    const sessionSent = this.#sessionId;
    let response: Response;
    try {
      const headers = this.#headers(POST_HEADERS, options.headers);
      // Never followed (manual: the 3xx is an error naming where it points): a redirect would carry the body and
      // every configured header (an X-API-Key, a cookie; fetch drops only Authorization) to wherever it points.
      response = await this.#options.fetch(this.#url, {
        method: 'POST',
        headers,
        body: message,
        signal,
        redirect: 'manual',
      });
    } catch (error) {
      if (!signal.aborted) this.#fail(requestId, networkError('POST failed', error));
      return;
    }
    this.#noteSession(response);
    if (
      sessionSent === undefined &&
      this.#given.sseFallback !== false &&
      fallsBack(response.status, message)
    ) {
      await this.#fallBack(response, message, options);
      return;
    }
    if (response.status === 404 && sessionSent !== undefined) {
      await this.#sessionEnded(response, sessionSent, requestId, signal);
      return;
    }
    if (response.ok && mediaType(response.headers.get('content-type')) === 'text/event-stream') {
      const version = Object.entries(options.headers ?? {}).find(
        ([name]) => name.toLowerCase() === 'mcp-protocol-version',
      );
      await this.#follow(
        {
          signal,
          standalone: false,
          requestId,
          lastEventId: undefined,
          retryMs: undefined,
          answered: false,
          headers: version && { [version[0]]: version[1] },
        },
        response,
      );
      return;
    }
    if (response.status === 202 || response.status === 204) {
      await discardBody(response);
      return;
    }
    await this.#readJsonAnswer(response, requestId, signal);
  }

  /** 2024-11-05 servers answer a POST of initialize with 4xx: on to HTTP+SSE, or the request fails saying why. */
  async #fallBack(response: Response, message: string, options: SendOptions): Promise<void> {
    this.#sse = await openFallback(this.#url, this.#given, response, this.#lifetime.signal, {
      deliver: (sent, extra) => this.#deliver(sent, extra),
      report: (error) => this.#report(error),
      fail: (error) => this.#fail(options.requestId, error),
      failRequest: (id, error) => this.#fail(id, error),
      close: () => void this.close(),
      closed: () => this.#closed,
    });
    this.#sse?.send(message, options);
  }

  async #readJsonAnswer(
    response: Response,
    requestId: RequestId | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    const answer = await readJsonAnswer(response, requestId, signal, this.#options.maxResponseBytes);
    if (answer === undefined) return;
    if (answer.error !== undefined) this.#fail(requestId, answer.error);
    else for (const message of answer.messages) this.#deliver(message, answer.extra);
  }

  /**
   * Reads an SSE stream and, when it ends or breaks before its purpose is met, opens it again with GET and
   * Last-Event-ID after the server's `retry`. Gives up after maxAttempts consecutive attempts that brought nothing.
   */
  async #follow(stream: Followed, first: Response | undefined): Promise<void> {
    const { maxAttempts, maxDelayMs, maxResponseBytes } = this.#options;
    let response = first;
    let idle = 0;
    for (;;) {
      let problem = '';
      if (response === undefined) {
        const next = await this.#openStream(stream);
        if (next === undefined) return;
        if (typeof next === 'string') problem = next;
        else response = next;
      }
      if (response !== undefined) {
        const status = response.status;
        const read = await readSse(response, {
          maxEventBytes: maxResponseBytes,
          signal: stream.signal,
          onEvent: (event) => this.#onStreamEvent(stream, event, status),
          onRetry: (ms) => (stream.retryMs = ms),
        });
        response = undefined;
        if (read.outcome === 'aborted' || read.outcome === 'stopped' || stream.answered) return;
        if (read.outcome === 'too-large') {
          const error = new TransportError(`an SSE event exceeds the ${maxResponseBytes}-byte limit`, status);
          this.#streamFailed(stream, error);
          return;
        }
        // A notification or response that got a stream: nothing is awaited, so nothing is resumed.
        if (!stream.standalone && stream.requestId === undefined) return;
        if (read.events > 0) idle = 0;
        const which = stream.standalone ? 'the event stream' : 'the response stream';
        problem = read.outcome === 'dropped' ? `${which} broke (${describe(read.error)})` : `${which} ended`;
        if (!stream.standalone && stream.lastEventId === undefined) {
          // Without an event id there is nothing to resume from (the modern wire never resumes).
          const facts = { transient: read.outcome === 'dropped' };
          this.#fail(
            stream.requestId,
            new TransportError(`${problem} before the response arrived`, status, undefined, facts),
          );
          return;
        }
      }
      idle++;
      if (idle > maxAttempts) {
        const attempts = `${maxAttempts} reconnection attempt${maxAttempts === 1 ? '' : 's'}`;
        this.#streamFailed(stream, new TransportError(`${problem}; gave up after ${attempts}`));
        return;
      }
      if (!(await sleep(reconnectDelay(idle, stream.retryMs, maxDelayMs), stream.signal))) return;
    }
  }

  /** GETs the stream (again). Returns the SSE response, a reason to try again later, or undefined to stop. */
  async #openStream(stream: Followed): Promise<Response | string | undefined> {
    const { signal } = stream;
    const sessionSent = this.#sessionId;
    let response: Response;
    try {
      const headers = this.#headers(GET_HEADERS, stream.headers);
      if (stream.lastEventId !== undefined) headers['last-event-id'] = stream.lastEventId;
      response = await this.#options.fetch(this.#url, { method: 'GET', headers, signal, redirect: 'manual' });
    } catch (error) {
      return signal.aborted ? undefined : `the GET for the event stream failed (${describe(error)})`;
    }
    this.#noteSession(response);
    const status = response.status;
    if (response.ok && mediaType(response.headers.get('content-type')) === 'text/event-stream')
      return response;
    if (status === 404 && sessionSent !== undefined) {
      await this.#sessionEnded(response, sessionSent, stream.requestId, signal);
      return undefined;
    }
    if (status === 429 || status >= 500) {
      await discardBody(response);
      return `the GET for the event stream answered HTTP ${status}`;
    }
    if (status === 405 && stream.standalone) {
      // The server offers no standalone stream: nothing is wrong, there is just nothing to listen to.
      await discardBody(response);
      return undefined;
    }
    const body = await readBody(response, ERROR_BODY_BYTES, signal).catch(() => ({ text: '' }));
    if (!signal.aborted) this.#streamFailed(stream, httpError('GET', response, body.text));
    return undefined;
  }

  /** Delivers one event's message; returns true when it is the response the stream was waiting for. */
  #onStreamEvent(stream: Followed, event: SseEvent, status: number): boolean {
    // An empty `id:` clears the last event id: nothing is resumable from there.
    if (event.id !== undefined) stream.lastEventId = event.id === '' ? undefined : event.id;
    if (event.data === '') return false;
    const extra: MessageExtra =
      stream.requestId === undefined
        ? { httpStatus: status }
        : { httpStatus: status, relatedRequestId: stream.requestId };
    this.#deliver(event.data, extra);
    if (stream.requestId !== undefined && isResponseTo(event.data, stream.requestId)) stream.answered = true;
    return stream.answered;
  }

  async #sessionEnded(
    response: Response,
    sent: string,
    requestId: RequestId | undefined,
    signal: AbortSignal,
  ): Promise<void> {
    // Forgotten first, so that the client's new initialize goes out without it (spec: 404 → initialize again).
    if (this.#sessionId === sent) this.#sessionId = undefined;
    this.#endedSessionId = sent;
    const body = await readBody(response, ERROR_BODY_BYTES, signal).catch(() => ({ text: '' }));
    if (signal.aborted) return;
    const cut = snippet(body.text);
    const error = new TransportError('the server ended the session (HTTP 404); initialize again', 404, cut);
    this.#fail(requestId, error);
  }

  async #shutdown(): Promise<void> {
    const closed = new Error('transport closed');
    this.#lifetime.abort(closed);
    for (const link of this.#linked) link.abort(closed);
    await Promise.allSettled(this.#pending.items());
    await this.#sse?.close();
    if (this.#sessionId !== undefined) {
      const headers = this.#headers([]);
      this.#sessionId = undefined;
      const failure = await deleteSession(this.#options.fetch, this.#url, headers);
      if (failure !== undefined) this.#report(failure);
    }
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  /** The request's headers (request-headers.ts), then the session's and the protocol version's. */
  #headers(fixed: HeaderPairs, extra?: Readonly<Record<string, string>>): Record<string, string> {
    const headers = requestHeaders(this.#options.baseHeaders, fixed, extra);
    if (this.#sessionId !== undefined) headers['mcp-session-id'] = this.#sessionId;
    if (this.#protocolVersion !== undefined && headers['mcp-protocol-version'] === undefined) {
      headers['mcp-protocol-version'] = this.#protocolVersion;
    }
    return headers;
  }

  /** The first session id wins; later ones (other origins behind a proxy, a late answer) are ignored. */
  #noteSession(response: Response): void {
    if (this.#sessionId !== undefined || this.#closed) return;
    const id = response.headers.get('mcp-session-id');
    if (id !== null && id !== this.#endedSessionId && isVisibleAscii(id)) this.#sessionId = id;
  }

  #deliver(message: string, extra: MessageExtra): void {
    if (this.#closed) return;
    try {
      this.onmessage?.(message, extra);
    } catch (error) {
      this.#report(error);
    }
  }

  #streamFailed(stream: Followed, error: TransportError): void {
    if (stream.standalone) {
      if (!this.#closed) this.#report(error);
    } else this.#fail(stream.requestId, error);
  }

  /** A request failed at the transport level: the client fails it; without an id it is a transport error. */
  #fail(requestId: RequestId | undefined, error: TransportError): void {
    if (this.#closed) return;
    if (requestId !== undefined && this.onrequesterror !== undefined) {
      try {
        this.onrequesterror(requestId, error);
      } catch (thrown) {
        this.#report(thrown);
      }
    } else this.#report(error);
  }

  #track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => this.#report(error));
    const place = this.#pending.add(tracked);
    void tracked.finally(() => this.#pending.remove(place));
  }

  #report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
