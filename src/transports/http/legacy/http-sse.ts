// The deprecated HTTP+SSE transport of 2024-11-05: GET <path>/sse opens a stream whose first event names the
// POST endpoint (<path>/messages?sessionId=…); every server message then travels on that one stream.

import { ErrorCode } from '../../../jsonrpc/index.js';
import type {
  Caller,
  MessageExtra,
  SendOptions,
  Transport,
  TransportFacts,
} from '../../../protocol/index.js';
import type { McpServer, ServerConnection } from '../../../server/index.js';
import type { HttpContext } from '../context.js';
import { sameCaller } from '../edge.js';
import type { HttpExchange, OutgoingHeaders } from '../exchange.js';
import { sendError } from '../respond.js';
import { accepts } from '../security.js';
import { SSE_HEADERS, SseWriter } from '../sse.js';
import type { ManagedSession, SessionRegistry } from './session-registry.js';

export class SseSession implements Transport, ManagedSession {
  readonly id: string;
  /** Who opened the stream: only this caller may post to the session. */
  readonly caller: Caller;
  readonly connection: ServerConnection;
  readonly #writer: SseWriter;
  readonly #onEnded: (session: SseSession) => void;
  #ended = false;
  #lastSeen = Date.now();
  onmessage?: NonNullable<Transport['onmessage']>;
  onerror?: NonNullable<Transport['onerror']>;
  onclose?: NonNullable<Transport['onclose']>;

  constructor(
    id: string,
    server: McpServer,
    writer: SseWriter,
    onEnded: (session: SseSession) => void,
    caller: Caller,
  ) {
    this.id = id;
    this.caller = caller;
    this.#writer = writer;
    this.#onEnded = onEnded;
    this.connection = server.createConnection(this, { legacy: true });
    this.connection.onclose = () => this.#cleanUp();
  }

  async start(): Promise<void> {}

  send(message: string, _options?: SendOptions): void {
    this.#writer.write(`event: message\ndata: ${message}\n\n`);
  }

  async close(): Promise<void> {
    this.end();
  }

  /** Lives exactly as long as its stream: never idle while connected, ended when the client leaves. */
  isIdle(): boolean {
    return false;
  }

  get busy(): boolean {
    return this.connection.inflightCount > 0;
  }

  /** Always: the session is its stream. */
  get streaming(): boolean {
    return true;
  }

  get lastSeen(): number {
    return this.#lastSeen;
  }

  /** A message was posted to it. */
  touch(): void {
    this.#lastSeen = Date.now();
  }

  end(): void {
    this.connection.close();
    this.#cleanUp();
  }

  #cleanUp(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#writer.end();
    this.#onEnded(this);
  }
}

export function openSseSession(
  context: HttpContext,
  sessions: SessionRegistry,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  caller: Caller,
): void {
  if (!accepts(exchange.header('accept') ?? 'text/event-stream', 'text/event-stream')) {
    sendError(
      exchange,
      406,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      'Not Acceptable: this endpoint answers with text/event-stream',
    );
    return;
  }
  const refusal = sessions.makeRoom(exchange.remoteAddress);
  if (refusal !== undefined) {
    sendError(
      exchange,
      503,
      { ...headers, 'retry-after': String(context.options.retryAfterSeconds) },
      undefined,
      ErrorCode.InternalError,
      refusal,
    );
    return;
  }
  const writer = new SseWriter(
    exchange.stream(200, { ...headers, ...SSE_HEADERS }),
    context.options.keepAliveMs,
  );
  const session = new SseSession(
    sessions.newId(),
    context.server,
    writer,
    (ended) => sessions.remove(ended),
    caller,
  );
  sessions.add(session, exchange.remoteAddress);
  exchange.onClose(() => session.end());
  writer.write(`event: endpoint\ndata: ${context.options.path}/messages?sessionId=${session.id}\n\n`);
}

/**
 * POST <path>/messages?sessionId=…: the message is handled; whatever it causes goes on the session's stream. A
 * session another caller opened is "not found", like one that does not exist.
 */
export function postSseMessage(
  sessions: SessionRegistry,
  exchange: HttpExchange,
  value: unknown,
  headers: OutgoingHeaders,
  caller: Caller,
  transport: TransportFacts,
): void {
  const session = sessions.get(exchange.query('sessionId'));
  if (!(session instanceof SseSession) || !sameCaller(session.caller, caller)) {
    sendError(
      exchange,
      404,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      'Session not found: open a new stream with GET first',
    );
    return;
  }
  session.touch();
  // No reply and no time limit of its own: answers go on the session's stream, and the tool's own limit applies.
  const extra: MessageExtra = { auth: caller, transport };
  session.connection.receive(value, extra);
  exchange.respond(202, headers);
}
