// The web-standard adapter: fetch(Request) → Response, for Hono, Deno, Bun and Workers. SSE answers are a
// Response whose body is a ReadableStream the core keeps writing to.

import type { McpServer } from '../../server/index.js';
import { HttpCore } from './core.js';
import {
  MAX_SSE_BACKLOG_BYTES,
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
  readonly #request: Request;
  readonly #url: URL;
  #resolve!: (response: Response) => void;
  #started = false;
  #gone = false;
  #listeners: Array<() => void> = [];

  constructor(request: Request) {
    this.#request = request;
    this.#url = new URL(request.url);
    this.method = request.method.toUpperCase();
    this.path = this.#url.pathname;
    this.response = new Promise((resolve) => (this.#resolve = resolve));
    if (request.signal?.aborted) this.#gone = true;
    else request.signal?.addEventListener('abort', () => this.#leave(), { once: true });
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
    const declared = this.#request.headers.get('content-length');
    if (declared !== null && Number(declared) > maxBytes) return { ok: false, reason: 'too-large' };
    const body = this.#request.body;
    if (body === null) return { ok: true, text: '' };
    const reader = body.getReader();
    const decoder = new TextDecoder();
    let size = 0;
    let text = '';
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch {
        return { ok: false, reason: 'aborted' };
      }
      if (chunk.done) break;
      size += chunk.value.byteLength;
      if (size > maxBytes) {
        reader.cancel().catch(() => undefined); // stop reading
        return { ok: false, reason: 'too-large' };
      }
      text += decoder.decode(chunk.value, { stream: true });
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
    const exchange = new FetchExchange(request);
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
