// The web-standard adapter: fetch(Request) → Response, for Hono, Deno, Bun and Workers. SSE answers are a
// Response whose body is a ReadableStream the core keeps writing to.

import { ErrorCode } from '../../jsonrpc/index.js';
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
import { sendError } from './respond.js';

const NO_NAMES: readonly string[] = Object.freeze([]);
const encoder = new TextEncoder();

class FetchExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly response: Promise<Response>;
  /** From the clientAddress option: a Request carries no peer address of its own. */
  readonly remoteAddress: string | undefined;
  readonly #request: Request;
  readonly #url: URL;
  readonly #bodyLimits: BodyLimits;
  #resolve!: (response: Response) => void;
  #started = false;
  #gone = false;
  #listeners: Array<() => void> = [];

  constructor(request: Request, bodyLimits: BodyLimits = UNLIMITED_BODY, remoteAddress?: string) {
    this.#request = request;
    this.#bodyLimits = bodyLimits;
    this.remoteAddress = remoteAddress;
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

  queryNames(): readonly string[] {
    return this.#url.search === '' ? NO_NAMES : [...this.#url.searchParams.keys()];
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
    const meter = new BodyMeter(this.#bodyLimits, declared, this.remoteAddress);
    if (meter.refused !== undefined) {
      body.cancel().catch(() => undefined); // refused before a byte is read
      return { ok: false, reason: meter.refused };
    }
    let reader: ReadableStreamDefaultReader<Uint8Array>;
    try {
      reader = body.getReader();
    } catch {
      meter.settle(); // a body someone else is reading already (locked): give its reservation back
      return { ok: false, reason: 'aborted' };
    }
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
        if (size > maxBytes) {
          stop('too-large');
          continue;
        }
        const refused = meter.charge(chunk.value.byteLength);
        if (refused !== undefined) stop(refused);
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

/**
 * Where the fetch handler learns the client's address: called once per request with the Request and whatever
 * else the runtime passed the handler (Hono's context, Deno's ServeHandlerInfo, Bun's server).
 */
export type ClientAddress<Args extends unknown[]> = (
  request: Request,
  ...platform: Args
) => string | undefined;

export interface FetchHandlerOptions<Args extends unknown[] = []> extends HttpOptions {
  /**
   * The client's IP address for this request, so that the per-address limits (legacy.maxSessionsPerAddress,
   * maxBufferedBodyBytesPerAddress) apply: a web Request carries none, and without this option they do not apply
   * (the global ones still do). Return undefined when it is not known. Addresses are grouped as for node:http:
   * all of loopback is one client, IPv6 counts per /64; any other string is a client of its own.
   *
   * Give it the address of the TCP peer, as the runtime reports it: with Hono, `getConnInfo(c).remote.address`
   * (from `@hono/node-server/conninfo`, `hono/deno`, `hono/bun`…); on Deno, `info.remoteAddr.hostname`; on Bun,
   * `server.requestIP(request)?.address`. Behind a reverse proxy that peer is the proxy, so every client shares its
   * limits, unless you derive the address from the forwarded header your own proxy sets: take the address your
   * proxy appended (the last entry of X-Forwarded-For when one proxy appends to it), never the first, which the
   * client writes. toolwire never reads X-Forwarded-For or Forwarded itself: trusting them by default would let
   * any client name itself anyone and escape every per-address limit. If this function throws, the request gets
   * 500 and the error goes to the log.
   *
   * @example
   * // Hono on Node.js (@hono/node-server): the second argument reaches clientAddress.
   * import { getConnInfo } from '@hono/node-server/conninfo';
   * import type { Context } from 'hono';
   * const mcp = createFetchHandler(server, {
   *   clientAddress: (_request, c: Context) => getConnInfo(c).remote.address,
   * });
   * app.all('/mcp', (c) => mcp(c.req.raw, c));
   */
  clientAddress?: ClientAddress<Args>;
}

/** Handles requests with an existing core (shared with tests). */
export const fetchListener =
  <Args extends unknown[] = []>(core: HttpCore, clientAddress?: ClientAddress<Args>) =>
  (request: Request, ...platform: Args): Promise<Response> => {
    let address: string | undefined;
    if (clientAddress !== undefined) {
      try {
        address = clientAddress(request, ...platform);
      } catch (error) {
        core.context.options.logger.error('HTTP transport: the clientAddress option threw', error);
        const failed = new FetchExchange(request);
        sendError(failed, 500, {}, undefined, ErrorCode.InternalError, 'Internal error');
        return failed.response;
      }
    }
    const exchange = new FetchExchange(request, core.context.bodyLimits, address);
    void core.handle(exchange);
    return exchange.response;
  };

/**
 * A fetch handler serving `server`: `(request, ...platform) => Promise<Response>`, for Hono, Deno, Bun and Workers.
 * Whatever follows the Request is passed on to options.clientAddress, and only there.
 */
export function createFetchHandler<Args extends unknown[] = []>(
  server: McpServer,
  options?: FetchHandlerOptions<Args>,
): (request: Request, ...platform: Args) => Promise<Response> {
  return fetchListener(new HttpCore(server, resolveHttpOptions(server, options)), options?.clientAddress);
}
