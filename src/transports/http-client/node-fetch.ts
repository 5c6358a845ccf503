// A fetch for the HTTP client transport on node:http(s) with keep-alive agents, for clients that make many calls
// (the gateway's upstreams): undici's fetch with its web streams cost ~300 µs of CPU per request on this machine,
// node:http with the same keep-alive ~60 µs. It answers what the transport reads of a Response (status, ok,
// statusText, headers.get, a body read through getReader or cancelled) and hands anything it does not do —
// a redirect, a body that is not text — to the global fetch, so the transport's behaviour is the same.

import * as http from 'node:http';
import * as https from 'node:https';
import { urlToHttpOptions } from 'node:url';

export interface NodeFetchOptions {
  /** Sockets per upstream origin at most (keep-alive, reused). Default 64. */
  maxSockets?: number;
}

type HeaderRecord = Record<string, string>;

/** Headers as node:http takes them. A plain record (what the transport passes) is used as it is: never changed. */
function headerRecord(headers: RequestInit['headers']): HeaderRecord {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) {
    const record: HeaderRecord = {};
    for (const [name, value] of headers) record[name] = value;
    return record;
  }
  return headers as HeaderRecord;
}

/** What node:http needs of a URL, worked out once per URL object (the transport sends every request to one). */
const parsedUrls = new WeakMap<URL, http.RequestOptions>();
function urlOptions(url: URL): http.RequestOptions {
  let options = parsedUrls.get(url);
  if (options === undefined) {
    options = urlToHttpOptions(url);
    parsedUrls.set(url, options);
  }
  return options;
}

type ReadResult = { done: true; value: undefined } | { done: false; value: Buffer };
const DONE: ReadResult = Object.freeze({ done: true, value: undefined });

/**
 * The body of a response as the transport reads it: a reader over the message's chunks (from its 'data' events; an
 * async iterator over the stream cost several µs per response more), or a cancel. A chunk nobody waits for pauses
 * the message, so an unread body stays in the socket, not here.
 */
class NodeBody {
  readonly #message: http.IncomingMessage;
  readonly #chunks: Buffer[] = [];
  #ended = false;
  #failure: Error | undefined;
  #waiting: { resolve: (result: ReadResult) => void; reject: (error: Error) => void } | undefined;
  #reading = false;

  constructor(message: http.IncomingMessage) {
    this.#message = message;
  }

  getReader(): {
    read(): Promise<ReadResult>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
  } {
    this.#start();
    return {
      read: () => this.#read(),
      cancel: () => this.cancel(),
      releaseLock: () => undefined,
    };
  }

  /** Stops reading: the socket is closed, not returned to the pool with a body left on it. */
  cancel(): Promise<void> {
    this.#message.destroy();
    return Promise.resolve();
  }

  #start(): void {
    if (this.#reading) return;
    this.#reading = true;
    const message = this.#message;
    message.on('data', (chunk: Buffer) => {
      const waiting = this.#waiting;
      if (waiting === undefined) {
        // Nobody is reading: hold this chunk and stop taking more until somebody does (the socket's own bound).
        this.#chunks.push(chunk);
        message.pause();
      } else {
        this.#waiting = undefined;
        waiting.resolve({ done: false, value: chunk });
      }
    });
    message.once('end', () => this.#settle(undefined));
    // A destroyed message (cancel, an abort, a dropped connection) closes without 'end'.
    message.once('close', () =>
      this.#settle(message.complete ? undefined : new Error('the response body was cut off')),
    );
    message.once('error', (error: Error) => this.#settle(error));
  }

  #settle(failure: Error | undefined): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#failure = failure;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    if (waiting === undefined) return;
    if (failure === undefined) waiting.resolve(DONE);
    else waiting.reject(failure);
  }

  #read(): Promise<ReadResult> {
    const chunk = this.#chunks.shift();
    if (chunk !== undefined) {
      if (this.#chunks.length === 0 && !this.#ended) this.#message.resume();
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.#ended)
      return this.#failure === undefined ? Promise.resolve(DONE) : Promise.reject(this.#failure);
    return new Promise<ReadResult>((resolve, reject) => (this.#waiting = { resolve, reject }));
  }
}

class NodeResponse {
  readonly status: number;
  readonly statusText: string;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null; has(name: string): boolean };
  readonly body: NodeBody | null;

  constructor(message: http.IncomingMessage, method: string) {
    const status = message.statusCode ?? 0;
    this.status = status;
    this.statusText = message.statusMessage ?? '';
    this.ok = status >= 200 && status <= 299;
    const raw = message.headers;
    const get = (name: string): string | null => {
      const value = raw[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
    };
    this.headers = { get, has: (name) => get(name) !== null };
    const empty = method === 'HEAD' || status === 204 || status === 304;
    if (empty) message.resume();
    this.body = empty ? null : new NodeBody(message);
  }

  async text(): Promise<string> {
    if (this.body === null) return '';
    const reader = this.body.getReader();
    const pieces: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done || value === undefined) break;
      pieces.push(value);
    }
    return Buffer.concat(pieces).toString('utf8');
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }
}

/**
 * A fetch on node:http and node:https with keep-alive agents of its own. Redirects, bodies other than text and
 * protocols other than http(s) go to the global fetch, so a caller sees fetch's behaviour for every request.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): typeof fetch {
  const maxSockets = options.maxSockets ?? 64;
  const agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets }),
    'https:': new https.Agent({ keepAlive: true, maxSockets }),
  };
  const nodeFetch = (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : undefined;
    const body = init.body;
    if (
      url === undefined ||
      (url.protocol !== 'http:' && url.protocol !== 'https:') ||
      (body !== undefined && body !== null && typeof body !== 'string')
    ) {
      return fetch(input, init);
    }
    const signal = init.signal ?? undefined;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init.headers);
    const request = url.protocol === 'https:' ? https.request : http.request;
    const agent = agents[url.protocol as 'http:' | 'https:'];
    return new Promise<Response>((resolve, reject) => {
      // The signal is watched here rather than handed to node:http, whose watch (a stream-end tracker per request)
      // cost more than the request's own headers. An abort destroys the request, and with it the response's body.
      const outgoing = request({ ...urlOptions(url), method, headers, agent }, (message) => {
        const status = message.statusCode ?? 0;
        if (
          status >= 300 &&
          status <= 399 &&
          message.headers.location !== undefined &&
          init.redirect !== 'manual'
        ) {
          // fetch's redirect rules (what follows, what is refused, which headers go) are fetch's to apply; 'manual'
          // answers the 3xx itself, as Node's fetch does (status and Location readable).
          message.resume();
          resolve(fetch(input, init));
          return;
        }
        // The transport reads only what NodeResponse has (src/transports/http-client: status, ok, statusText,
        // headers.get, body.getReader / cancel, text): a structural Response for it.
        resolve(new NodeResponse(message, method) as unknown as Response);
      });
      if (signal !== undefined) {
        const onAbort = (): void => void outgoing.destroy(signal.reason as Error);
        signal.addEventListener('abort', onAbort, { once: true });
        // Watched until the exchange is over: the response read whole, or the request failed or was destroyed.
        outgoing.once('close', () => signal.removeEventListener('abort', onAbort));
      }
      outgoing.once('error', (error) => reject(signal?.aborted === true ? signal.reason : error));
      outgoing.end(typeof body === 'string' ? body : undefined);
    });
  };
  return nodeFetch as typeof fetch;
}
