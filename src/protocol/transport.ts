// The transport contract: the smallest surface a byte or message channel needs to carry MCP.

import type { RequestId } from '../jsonrpc/index.js';
import type { Caller, TransportFacts } from './caller.js';
import type { AbortHook } from './cancellation.js';

/** Hints that let a transport route a message to the right stream (HTTP) or ignore them (stdio, memory). */
export interface SendOptions {
  /** The incoming request this message belongs to (its response, progress, logs, server→client requests). */
  relatedRequestId?: RequestId;
  /** True when this message is the final response to `relatedRequestId` (or an error answering an unreadable message). */
  final?: boolean;
  /** When the final response is a JSON-RPC error: its code (HTTP maps it to a status without parsing). */
  errorCode?: number;
  /** The request was refused before any handler ran (its envelope, id or a limit): HTTP answers such errors 400. */
  rejected?: boolean;
  /**
   * Server side, HTTP: the status to answer a final error with, when a policy decided it (401, 403, 429), and headers
   * to add (WWW-Authenticate, Retry-After). Ignored once the response is a stream, and by other transports.
   */
  httpStatus?: number;
  httpHeaders?: Readonly<Record<string, string>>;
  /** Client side: the id of the request this message is (so a transport can report delivery failures for it). */
  requestId?: RequestId;
  /** Client side, HTTP: headers for this message's POST (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*). */
  headers?: Readonly<Record<string, string>>;
  /** Client side, HTTP: aborting ends this request's POST and its response stream (the modern wire's cancellation). */
  signal?: AbortSignal;
}

/** Facts about one incoming message that only the transport knows. */
export interface MessageExtra {
  /** Aborts when the transport can no longer deliver the answer (for example a closed HTTP response). */
  signal?: AbortSignal;
  /** The same as `signal`, without the cost of an AbortSignal per message; used instead of it when present. */
  abort?: AbortHook;
  /** Who is calling, as the transport edge established it (an HTTP authenticate hook, stdio/memory options). */
  auth?: Caller;
  /** The channel the message came over (remote address and headers on HTTP). */
  transport?: TransportFacts;
  /**
   * Server side, HTTP: the pipeline calls this once, synchronously while it receives a request it will run, with
   * the request's time limit in ms (what the request runs decides it: a tool's timeoutMs plus a margin, Infinity for
   * subscriptions/listen). The transport enforces that limit instead of a number of its own.
   */
  timeLimit?: (ms: number) => void;
  /**
   * Where messages about this incoming request go, when not to the transport's own send: HTTP gives each POST
   * its own response stream, a batch collects its responses into one array.
   */
  reply?: (message: string, options: SendOptions) => void;
  /**
   * Legacy Streamable HTTP only: ends the SSE connection of this request without ending the request; the client
   * reconnects with Last-Event-ID and gets the rest (2025-11-25 polling). Absent on other transports.
   */
  closeStream?: () => void;
  /** Client side, HTTP: the status of the response that carried this message. */
  httpStatus?: number;
  /** Client side, HTTP: the response's Retry-After, in ms (a 429 or 503 answer that asks the client to wait). */
  retryAfterMs?: number;
  /**
   * Client side, HTTP: the request whose response stream carried this message. A server→client request that came
   * this way belongs to that request (the call whose input handlers answer it).
   */
  relatedRequestId?: RequestId;
}

/**
 * A bidirectional channel of JSON-RPC messages. Outgoing messages are already-encoded JSON text (encode once);
 * incoming ones are delivered as text (the protocol core parses them) or as already-parsed values.
 */
export interface Transport {
  start(): Promise<void>;
  send(message: string, options?: SendOptions): void;
  close(): Promise<void>;
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  /**
   * Client side: a request could not be delivered or answered at the transport level (an HTTP status without a
   * JSON-RPC body, a network error, a stream that ended without the response). The client fails that request.
   */
  onrequesterror?: (requestId: RequestId, error: TransportError) => void;
  /** Client side: true when the modern wire cancels a request by closing its stream (HTTP), not by notification. */
  readonly closesStreamToCancel?: boolean;
  /** Client side, legacy HTTP: the negotiated version, sent as MCP-Protocol-Version on every later request. */
  setProtocolVersion?(version: string): void;
  /** Client side, legacy HTTP: opens the standalone stream for server-initiated messages (after initialization). */
  openEventStream?(): void;
}

/** Whether a failure may pass if the same request is sent again, and when (what the client's retries go by). */
export interface TransientFacts {
  /** A dropped or refused connection, or HTTP 429/502/503/504: the server may answer the same request later. */
  transient?: boolean;
  /** The server's Retry-After, in ms. */
  retryAfterMs?: number;
}

/** A transport-level failure of one request, with what the transport saw. */
export class TransportError extends Error {
  readonly status: number | undefined;
  readonly body: string | undefined;
  readonly transient: boolean;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, status?: number, body?: string, facts: TransientFacts = {}) {
    super(message);
    this.name = 'TransportError';
    this.status = status;
    this.body = body;
    this.transient = facts.transient === true;
    this.retryAfterMs = facts.retryAfterMs;
  }
}
