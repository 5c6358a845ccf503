// The web-standard adapter: fetch(Request) → Response, for Hono, Deno, Bun and Workers. SSE answers are a
// Response whose body is a ReadableStream the core keeps writing to.

import type { McpServer } from '../../server/index.js';
import { BodyMeter, UNLIMITED_BODY, declaredLength, type BodyLimits } from './body-budget.js';
import { HttpCore } from './core.js';
import {
  MAX_SSE_BACKLOG_BYTES,
  type BodyFailure,
  type BodyResult,
  type HttpExchange,
  type OutgoingHeaders,
  type SseSink,
} from './exchange.js';
import { resolveHttpOptions, type HttpOptions } from './options.js';

const encoder = new TextEncoder();

class FetchExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly response: Promise<Response>;
  /** A Request carries no peer address; per-address limits do not apply here. */
  readonly remoteAddress = undefined;
  readonly #request: Request;
  readonly #url: URL;
  readonly #bodyLimits: BodyLimits;
  #resolve!: (response: Response) => void;
  #started = false;
  #gone = false;
  #listeners: Array<() => void> = [];

  constructor(request: Request, bodyLimits: BodyLimits = UNLIMITED_BODY) {
    this.#request = request;
    this.#bodyLimits = bodyLimits;
    this.#url = new URL(request.url);
    this.method = request.method.toUpperCase();
    this.path = this.#url.pathname;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    if (request.signal?.aborted) this.#gone = true;
    else request.signal?.addEventListener('abort', () => this.#leave(), { once: true });
  }

  get protocol(): string {
    return this.#url.protocol;
  }

  query(name: string): string | undefined {
    return this.#url.searchParams.get(name) ?? undefined;
  }

  header(name: string): string | undefined {
    const value = this.#request.headers.get(name);
    // Request objects built by runtimes often leave Host out of the headers; the URL still has it.
    if (value === null) return name === 'host' ? this.#url.host : undefined;
    return value;
  }

  async readBody(maxBytes: number): Promise<BodyResult> {
    const declared = declaredLength(this.#request.headers.get('content-length'));
    if (declared !== undefined && declared > maxBytes) return { ok: false, reason: 'too-large' };
    const body = this.#request.body;
    if (body === null) return { ok: true, text: '' };
    const meter = new BodyMeter(this.#bodyLimits, declared);
    if (!meter.admitted) {
      body.cancel().catch(() => undefined); // refused before a byte is read
      return { ok: false, reason: 'busy' };
    }
    const reader = body.getReader();
    let failure: BodyFailure | undefined;
    const stop = (reason: BodyFailure): void => {
      failure = reason;
      reader.cancel().catch(() => undefined); // a pending read() then resolves as done
    };
    meter.start(stop);
    const decoder = new TextDecoder();
    let size = 0;
    let text = '';
    try {
      for (;;) {
        let chunk: Awaited<ReturnType<typeof reader.read>>;
        try {
          chunk = await reader.read();
        } catch {
          return { ok: false, reason: failure ?? 'aborted' };
        }
        if (failure !== undefined) return { ok: false, reason: failure };
        if (chunk.done) break;
        size += chunk.value.byteLength;
        if (size > maxBytes) stop('too-large');
        else if (!meter.charge(chunk.value.byteLength)) stop('busy');
        else text += decoder.decode(chunk.value, { stream: true });
      }
    } finally {
      meter.settle();
    }
    return { ok: true, text: text + decoder.decode() };
  }

  onClose(listener: () => void): void {
    if (this.#gone) queueMicrotask(listener);
    else this.#listeners.push(listener);
  }

  respond(status: number, headers: OutgoingHeaders, body?: string): void {
    if (this.#started) return;
    this.#started = true;
    this.#resolve(new Response(body ?? null, { status, headers }));
  }

  stream(status: number, headers: OutgoingHeaders): SseSink {
    this.#started = true;
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    let ended = false;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (c) => {
          controller = c;
        },
        cancel: () => {
          ended = true;
          this.#leave();
        },
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 64 * 1024 }),
    ); // desiredSize counts bytes
    this.#resolve(new Response(body, { status, headers }));
    return {
      write: (chunk) => {
        if (ended) return;
        if ((controller.desiredSize ?? 0) < -MAX_SSE_BACKLOG_BYTES) {
          // A reader this slow is treated as gone: the stream fails and the request is cancelled.
          ended = true;
          controller.error(new Error('the client reads too slowly'));
          this.#leave();
          return;
        }
        controller.enqueue(encoder.encode(chunk));
      },
      end: () => {
        if (ended) return;
        ended = true;
        this.#listeners = []; // ended by us: no longer a disconnect
        controller.close();
      },
    };
  }

  #leave(): void {
    if (this.#gone) return;
    this.#gone = true;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }
}

/** Handles requests with an existing core (shared with tests). */
export const fetchListener =
  (core: HttpCore) =>
  (request: Request): Promise<Response> => {
    const exchange = new FetchExchange(request, core.context.bodyLimits);
    void core.handle(exchange);
    return exchange.response;
  };

/** A fetch handler serving `server`: `(request) => Promise<Response>`, for Hono, Deno, Bun and Workers. */
export function createFetchHandler(
  server: McpServer,
  options?: HttpOptions,
): (request: Request) => Promise<Response> {
  return fetchListener(new HttpCore(server, resolveHttpOptions(server, options)));
}
