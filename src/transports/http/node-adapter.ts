// The node:http adapter: the fast path. It reads IncomingMessage and writes ServerResponse directly, with no
// web Request/Response objects in between.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { McpServer } from '../../server/index.js';
import { BodyMeter, UNLIMITED_BODY, declaredLength, type BodyLimits } from './body-budget.js';
import { HttpCore } from './core.js';
import {
  MAX_SSE_BACKLOG_BYTES,
  type BodyResult,
  type HttpExchange,
  type OutgoingHeaders,
  type SseSink,
} from './exchange.js';
import { resolveHttpOptions, type HttpOptions } from './options.js';

const NO_NAMES: readonly string[] = Object.freeze([]);
const TOO_LARGE: BodyResult = { ok: false, reason: 'too-large' };
const ABORTED: BodyResult = { ok: false, reason: 'aborted' };

/** @internal Exported for tests: one node:http request and response as the core sees them. */
export class NodeExchange implements HttpExchange {
  readonly method: string;
  readonly path: string;
  readonly #search: string | undefined;
  readonly #req: IncomingMessage;
  readonly #res: ServerResponse;
  readonly #bodyLimits: BodyLimits;
  #started = false;
  #gone = false;
  #listeners: Array<() => void> | undefined = [];
  /** While the body is being read: where it goes when the client leaves first. */
  #bodyAborted: (() => void) | undefined;

  constructor(req: IncomingMessage, res: ServerResponse, bodyLimits: BodyLimits = UNLIMITED_BODY) {
    this.#req = req;
    this.#res = res;
    this.#bodyLimits = bodyLimits;
    this.method = req.method ?? 'GET';
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    this.path = q < 0 ? url : url.slice(0, q);
    this.#search = q < 0 ? undefined : url.slice(q + 1);
    res.on('close', this.#onResponseClose);
  }

  // One listener per request, as a field (not a closure per call): 'close' fires once per response.
  readonly #onResponseClose = (): void => {
    const aborted = this.#bodyAborted;
    if (aborted !== undefined) aborted();
    const listeners = this.#listeners;
    this.#listeners = undefined; // let go of what they reach (see respond())
    if (this.#res.writableFinished || listeners === undefined) return;
    this.#gone = true;
    for (const listener of listeners) listener();
  };

  get protocol(): string {
    // Read only for an Origin check: most requests never ask.
    return (this.#req.socket as Partial<TLSSocket>).encrypted === true ? 'https:' : 'http:'; // a TLS socket says so
  }

  get remoteAddress(): string | undefined {
    return this.#req.socket.remoteAddress;
  }

  get connection(): object {
    return this.#req.socket;
  }

  query(name: string): string | undefined {
    return this.#search === undefined
      ? undefined
      : (new URLSearchParams(this.#search).get(name) ?? undefined);
  }

  queryNames(): readonly string[] {
    return this.#search === undefined ? NO_NAMES : [...new URLSearchParams(this.#search).keys()];
  }

  header(name: string): string | undefined {
    const value = this.#req.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  }

  readBody(maxBytes: number): Promise<BodyResult> {
    const req = this.#req;
    const declared = declaredLength(req.headers['content-length']);
    if (declared !== undefined && declared > maxBytes) return Promise.resolve(TOO_LARGE);
    const meter = new BodyMeter(this.#bodyLimits, declared, this.remoteAddress);
    // Refused before a byte is read: the budget (or this address's share) cannot hold what the client declared.
    if (meter.refused !== undefined) return Promise.resolve({ ok: false, reason: meter.refused });
    return new Promise((resolve) => {
      let first: Buffer | undefined;
      let chunks: Buffer[] | undefined;
      let size = 0;
      let settled = false;
      const finish = (result: BodyResult): void => {
        if (settled) return;
        settled = true;
        meter.settle();
        this.#bodyAborted = undefined;
        // Every listener goes: node:http may have allocated this IncomingMessage in the old generation, and a
        // listener left on it would keep this request reachable (and copied by every young collection) until the
        // next full collection (see protocol/live-list.ts).
        req.off('data', onData);
        req.off('end', onEnd);
        req.off('error', onError);
        // Refused mid-body: stop reading; the answer goes out with Connection: close.
        if (!result.ok) req.pause();
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        size += chunk.length;
        if (size > maxBytes) {
          finish(TOO_LARGE);
          return;
        }
        const refused = meter.charge(chunk.length);
        if (refused !== undefined) finish({ ok: false, reason: refused });
        else if (first === undefined) first = chunk;
        else (chunks ??= [first]).push(chunk);
      };
      meter.start((reason) => finish({ ok: false, reason }));
      req.on('data', onData);
      // 'end' once the body is complete, 'error' if the stream fails; a client that leaves first is seen through the
      // response's 'close' (#bodyAborted), which every request gets. finish() takes only the first of them.
      const onEnd = (): void => {
        const body = chunks !== undefined ? Buffer.concat(chunks, size) : first;
        first = chunks = undefined;
        finish({ ok: true, text: body === undefined ? '' : body.toString('utf8') });
      };
      const onError = (): void => finish(ABORTED);
      req.on('end', onEnd);
      req.on('error', onError);
      this.#bodyAborted = () => finish(ABORTED);
    });
  }

  onClose(listener: () => void): void {
    if (this.#gone) queueMicrotask(listener);
    else this.#listeners?.push(listener); // none once answered whole: nothing is left to cancel
  }

  respond(status: number, headers: OutgoingHeaders, body?: string): void {
    const res = this.#res;
    if (this.#started || res.destroyed) return;
    this.#started = true;
    // A known length instead of chunked framing, given to writeHead with the rest: a header set before writeHead
    // (setHeader) sends Node down its slower merging path.
    if (body !== undefined) headers['content-length'] = String(Buffer.byteLength(body));
    res.writeHead(status, headers);
    res.end(body);
    // Answered: a client leaving now has nothing to cancel. The listeners reach the request's state, and the response
    // that would call them (which node:http may have allocated in the old generation) lives on until its 'close'.
    this.#listeners = undefined;
  }

  stream(status: number, headers: OutgoingHeaders): SseSink {
    const res = this.#res;
    if (!this.#started && !res.destroyed) {
      this.#started = true;
      res.writeHead(status, headers);
      res.flushHeaders();
    }
    return {
      write: (chunk) => {
        if (res.writableEnded || res.destroyed) return;
        if (res.writableLength > MAX_SSE_BACKLOG_BYTES)
          res.destroy(); // a reader this slow is treated as gone
        else res.write(chunk);
      },
      end: () => {
        if (!res.writableEnded && !res.destroyed) res.end();
      },
    };
  }
}

/** A node:http request listener around an existing core (listenHttp and tests share the core). */
export const nodeListener =
  (core: HttpCore) =>
  (req: IncomingMessage, res: ServerResponse): void => {
    void core.handle(new NodeExchange(req, res, core.context.bodyLimits));
  };

/**
 * A node:http request listener serving `server` (mount it on any http.Server or compatible framework). It bounds
 * bodies and their clocks itself; the header and keep-alive timeouts and the connection caps live on the server,
 * so pass that server to hardenNodeServer with the same options.
 */
export function createNodeHandler(
  server: McpServer,
  options?: HttpOptions,
): (req: IncomingMessage, res: ServerResponse) => void {
  return nodeListener(new HttpCore(server, resolveHttpOptions(server, options)));
}
