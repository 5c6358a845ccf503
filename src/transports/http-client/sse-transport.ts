// The client side of the deprecated HTTP+SSE transport (2024-11-05): a GET stream whose first event names the
// endpoint to POST messages to; every server message arrives on that one stream.

import type { RequestId } from '../../jsonrpc/index.js';
import { TransportError, type MessageExtra, type SendOptions, type Transport } from '../../protocol/index.js';
import { discardBody, readBody } from './body.js';
import { httpError, networkError } from './failures.js';
import {
  mediaType,
  resolveOptions,
  type HttpClientTransportOptions,
  type ResolvedOptions,
} from './options.js';
import { readSse } from './read-sse.js';
import { GET_HEADERS, requestHeaders, type HeaderPairs } from './request-headers.js';
import type { SseEvent } from './sse-parser.js';

/** How long the server has to send its endpoint event after the GET was answered. */
export const DEFAULT_ENDPOINT_TIMEOUT_MS = 10_000;
/** Error bodies of POSTs are only read this far: enough for a snippet. */
const ERROR_BODY_BYTES = 4096;
/** The legacy transport's POSTs: a JSON body, the answer on the event stream. */
const JSON_BODY: HeaderPairs = [['content-type', 'application/json']];

export interface SseClientTransportOptions extends HttpClientTransportOptions {
  /** How long to wait for the `endpoint` event. Default 10,000 ms. */
  endpointTimeoutMs?: number;
}

export class SseClientTransport implements Transport {
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  onrequesterror?: (requestId: RequestId, error: TransportError) => void;

  readonly #url: URL;
  readonly #options: ResolvedOptions;
  readonly #endpointTimeoutMs: number;
  /** Aborted by close(): ends the GET stream and every POST. */
  readonly #lifetime = new AbortController();
  #endpoint: URL | undefined;
  #started = false;
  #timedOut = false;
  #closing: Promise<void> | undefined;

  constructor(url: string | URL, options: SseClientTransportOptions = {}) {
    this.#url = new URL(url);
    if (this.#url.protocol !== 'http:' && this.#url.protocol !== 'https:') {
      throw new TypeError(`SseClientTransport: the URL must be http or https, got "${this.#url.protocol}"`);
    }
    this.#options = resolveOptions(options);
    this.#endpointTimeoutMs = options.endpointTimeoutMs ?? DEFAULT_ENDPOINT_TIMEOUT_MS;
  }

  /** Where messages are POSTed (known once start() resolved). */
  get endpoint(): URL | undefined {
    return this.#endpoint;
  }

  /** Opens the GET stream and resolves once the server named its endpoint; rejects with why it could not. */
  async start(): Promise<void> {
    if (this.#started) throw new Error('SseClientTransport already started');
    this.#started = true;
    const signal = this.#lifetime.signal;
    // One limit for the GET and the endpoint event; on expiry the stream is ended, not only the wait.
    const timer = setTimeout(() => {
      this.#timedOut = true;
      this.#lifetime.abort(new Error('no endpoint event in time'));
    }, this.#endpointTimeoutMs);
    timer.unref?.();
    try {
      let response: Response;
      try {
        const headers = requestHeaders(this.#options.baseHeaders, GET_HEADERS);
        response = await this.#options.fetch(this.#url, { method: 'GET', headers, signal });
      } catch (error) {
        throw this.#timedOut
          ? this.#noEndpoint(`no endpoint event within ${this.#endpointTimeoutMs} ms`)
          : networkError('the GET for the HTTP+SSE event stream failed', error);
      }
      if (!response.ok || mediaType(response.headers.get('content-type')) !== 'text/event-stream') {
        const body = await readBody(response, ERROR_BODY_BYTES, signal).catch(() => ({ text: '' }));
        if (!response.ok) throw httpError('GET', response, body.text);
        const type = response.headers.get('content-type') ?? 'no content type';
        throw this.#noEndpoint(`the GET answered ${type}, not an SSE stream`);
      }
      await new Promise<void>((resolve, reject) => {
        void this.#read(response, (error) => (error === undefined ? resolve() : reject(error)));
      });
    } catch (error) {
      this.#lifetime.abort(error);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /** Reads the stream to its end: first the endpoint event (settling start), then messages. Its end is the close. */
  async #read(response: Response, settle: (error?: Error) => void): Promise<void> {
    let problem: Error | undefined;
    const read = await readSse(response, {
      maxEventBytes: this.#options.maxResponseBytes,
      signal: this.#lifetime.signal,
      onEvent: (event) => {
        if (this.#endpoint === undefined) {
          problem = this.#takeEndpoint(event);
          settle(problem);
          return problem !== undefined;
        }
        if (event.data !== '' && (event.event === '' || event.event === 'message')) {
          this.#deliver(event.data, { httpStatus: response.status });
        }
        return false;
      },
      onRetry: () => undefined, // the 2024-11-05 stream cannot be resumed: its end is the session's end
    });
    if (this.#endpoint === undefined && problem === undefined) {
      const why = this.#timedOut
        ? `no endpoint event within ${this.#endpointTimeoutMs} ms`
        : read.outcome === 'too-large'
          ? 'its first event is too large'
          : 'the stream ended before an endpoint event';
      settle(this.#noEndpoint(why));
      return;
    } else if (read.outcome === 'too-large' && !this.#lifetime.signal.aborted) {
      this.#report(
        new TransportError(`an SSE event exceeds the ${this.#options.maxResponseBytes}-byte limit`),
      );
    } else if (read.outcome === 'dropped') {
      this.#report(networkError('the HTTP+SSE event stream broke', read.error));
    }
    void this.close();
  }

  /** The first event must be `endpoint`, naming a URL on the stream's own origin (a token never goes elsewhere). */
  #takeEndpoint(event: SseEvent): Error | undefined {
    if (event.event !== 'endpoint') {
      return this.#noEndpoint(`its first event is ${event.event === '' ? 'a message' : `"${event.event}"`}`);
    }
    let endpoint: URL;
    try {
      endpoint = new URL(event.data.trim(), this.#url);
    } catch {
      return new TransportError(
        `the endpoint event is not a URL: ${JSON.stringify(event.data.slice(0, 200))}`,
      );
    }
    if (endpoint.origin !== this.#url.origin) {
      return new TransportError(
        `the server named an endpoint on another origin (${endpoint.origin}, not ${this.#url.origin}); refused`,
      );
    }
    this.#endpoint = endpoint;
    return undefined;
  }

  #noEndpoint(why: string): TransportError {
    return new TransportError(`${this.#url.href} is not an HTTP+SSE (2024-11-05) endpoint: ${why}`);
  }

  send(message: string, options: SendOptions = {}): void {
    const endpoint = this.#endpoint;
    if (endpoint === undefined) throw new Error('SseClientTransport not started');
    if (this.#lifetime.signal.aborted) throw new Error('transport closed');
    void this.#post(endpoint, message, options.requestId).catch((error: unknown) => this.#report(error));
  }

  async #post(endpoint: URL, message: string, requestId: RequestId | undefined): Promise<void> {
    const signal = this.#lifetime.signal;
    let response: Response;
    try {
      const headers = requestHeaders(this.#options.baseHeaders, JSON_BODY);
      // A redirect would carry the body, and any Authorization header, to wherever it points.
      response = await this.#options.fetch(endpoint, {
        method: 'POST',
        headers,
        body: message,
        signal,
        redirect: 'error',
      });
    } catch (error) {
      if (!signal.aborted) this.#fail(requestId, networkError('POST to the HTTP+SSE endpoint failed', error));
      return;
    }
    if (response.ok) {
      await discardBody(response); // the answer comes on the stream
      return;
    }
    const body = await readBody(response, ERROR_BODY_BYTES, signal).catch(() => ({ text: '' }));
    if (!signal.aborted) this.#fail(requestId, httpError('POST', response, body.text));
  }

  /** Ends the stream (the server ends the session with it), then fires onclose. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.#lifetime.abort(new Error('transport closed'));
      try {
        this.onclose?.();
      } catch (error) {
        this.#report(error);
      }
    })();
    return this.#closing;
  }

  #deliver(message: string, extra: MessageExtra): void {
    if (this.#lifetime.signal.aborted) return;
    try {
      this.onmessage?.(message, extra);
    } catch (error) {
      this.#report(error);
    }
  }

  #fail(requestId: RequestId | undefined, error: TransportError): void {
    if (requestId !== undefined && this.onrequesterror !== undefined) this.onrequesterror(requestId, error);
    else this.#report(error);
  }

  #report(error: unknown): void {
    this.onerror?.(error instanceof Error ? error : new Error(String(error)));
  }
}
