// The small abstract HTTP request/response the transport core works on; the node and fetch adapters implement it.

/** Response headers, lower-case names. */
export type OutgoingHeaders = Record<string, string>;

/**
 * Bytes an SSE response may hold for a client that reads too slowly; past this the connection is dropped (the
 * request is then cancelled as if the client had left), so no reader can make the server buffer without bound.
 */
export const MAX_SSE_BACKLOG_BYTES = 8 * 1024 * 1024;

/** An open text/event-stream body. Writes after end() or after the client left are dropped. */
export interface SseSink {
  write(chunk: string): void;
  end(): void;
}

/**
 * Why a body was not read: over maxBodyBytes; no room in the shared body budget ('busy') or in the client address's
 * share of it ('address-busy'); too slow overall ('timeout') or silent too long ('stalled'); or the client left or
 * the stream failed.
 */
export type BodyFailure = 'too-large' | 'busy' | 'address-busy' | 'timeout' | 'stalled' | 'aborted';

export type BodyResult = { ok: true; text: string } | { ok: false; reason: BodyFailure };

/** One HTTP request and its response, as the core sees them. Exactly one of respond() or stream() is called. */
export interface HttpExchange {
  /** Upper-case method name. */
  readonly method: string;
  /** The path without the query string. */
  readonly path: string;
  /** "http:" or "https:", as the client sees this server (an Origin must match it). */
  readonly protocol: string;
  /**
   * The client's IP address, when the adapter knows it: node:http's peer address; for the fetch handler, what its
   * clientAddress option says (a Request alone carries none).
   */
  readonly remoteAddress: string | undefined;
  /**
   * What stands for the client's connection: the same object for every request it carries (node:http's socket),
   * absent when the adapter cannot tell (the fetch handler).
   */
  readonly connection?: object | undefined;
  /** One query parameter, or undefined. */
  query(name: string): string | undefined;
  /** Every query parameter name, decoded, in order (an empty array when there is no query string). */
  queryNames(): readonly string[];
  /** A request header by lower-case name; repeated headers joined with ", ". */
  header(name: string): string | undefined;
  /**
   * The body as UTF-8 text, read up to `maxBytes` and within the core's body budget and clocks (Content-Length
   * is checked against both before reading).
   */
  readBody(maxBytes: number): Promise<BodyResult>;
  /** Calls `listener` once if the client goes away before the response has ended. */
  onClose(listener: () => void): void;
  /** Sends a complete response. `headers` must be a fresh object: the exchange may add to it (Content-Length). */
  respond(status: number, headers: OutgoingHeaders, body?: string): void;
  /** Starts a streamed response and flushes its headers at once. */
  stream(status: number, headers: OutgoingHeaders): SseSink;
}
