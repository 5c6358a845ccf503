// Legacy Streamable HTTP POSTs: initialize opens a session; everything else needs its Mcp-Session-Id.

import { ErrorCode, splitBatch, type Classified, type RequestId } from '../../../jsonrpc/index.js';
import {
  Method,
  type Caller,
  type MessageExtra,
  type SendOptions,
  type TransportFacts,
} from '../../../protocol/index.js';
import type { LiveNode } from '../../../protocol/live-list.js';
import type { Logger } from '../../../server/index.js';
import type { HttpContext } from '../context.js';
import { sameCaller } from '../edge.js';
import type { HttpExchange, OutgoingHeaders } from '../exchange.js';
import { ChannelExtra } from '../channel-extra.js';
import { ReplyChannel, type Outlet, type ReplyChannelConfig } from '../reply-channel.js';
import { legacyStatus, sendError } from '../respond.js';
import { SSE_HEADERS, SseWriter } from '../sse.js';
import { EventStream } from './event-stream.js';
import { LegacySession } from './session.js';
import type { SessionRegistry } from './session-registry.js';

/**
 * The session a request names: 400 without the header, 404 when unknown or ended (the client re-initializes), and
 * 404 too when another caller opened it: the same answer, so a session id reveals nothing about other callers.
 */
export function requireSession(
  sessions: SessionRegistry,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  id: RequestId | undefined,
  caller: Caller,
): LegacySession | undefined {
  const sessionId = exchange.header('mcp-session-id')?.trim();
  if (sessionId === undefined) {
    sendError(
      exchange,
      400,
      headers,
      id,
      ErrorCode.InvalidRequest,
      'Bad Request: the Mcp-Session-Id header is required; send initialize first to get a session',
    );
    return undefined;
  }
  const session = sessions.get(sessionId);
  if (!(session instanceof LegacySession) || session.ended || !sameCaller(session.caller, caller)) {
    sendError(
      exchange,
      404,
      headers,
      id,
      ErrorCode.InvalidRequest,
      'Session not found: it expired or was ended; send initialize again without Mcp-Session-Id',
    );
    return undefined;
  }
  return session;
}

/**
 * A session's connection reports a request the client cancelled: its POST ends without an answer. The extra it was
 * handed with knows its channel (a field, not a WeakMap keyed by the extra: one entry per request in a long-lived
 * table is what protocol/live-list.ts warns about).
 */
const endUnanswered = (extra: MessageExtra): void => {
  if (extra instanceof LegacyExtra) extra.channel.endUnanswered();
};

/** What every message of one legacy POST carries besides its reply: the caller and the transport facts. */
class Edge {
  // A class, not an object literal: `transport` reaches the request's exchange (see LegacyReply below).
  constructor(
    readonly auth: Caller,
    readonly transport: TransportFacts,
  ) {}
}

/** Answers one request (or batch) of a session through its own reply channel; `deliver` hands it to the session. */
function answer(
  context: HttpContext,
  exchange: HttpExchange,
  session: LegacySession,
  edge: Edge,
  deliver: (extra: MessageExtra) => void,
  requestId: RequestId | undefined,
  headers: OutgoingHeaders,
  onFinal?: (options: SendOptions) => void,
): void {
  const reply = new LegacyReply(context, exchange, headers, requestId, session);
  const channel = new ReplyChannel(reply);
  reply.place = context.channels.add(channel);
  reply.sessionPlace = session.begin(channel);
  const extra = new LegacyExtra(channel, edge, onFinal);
  if (requestId !== undefined && session.polling) {
    const retryMs = context.sessions?.options.retryMs ?? 1000;
    extra.closeStream = () => {
      const outlet = channel.open();
      if (outlet instanceof EventStream) outlet.release(retryMs);
    };
  }
  deliver(extra);
  channel.received();
}

// The two objects below live as long as their request and reach all of it: classes, not object literals, for the
// reason given in ../modern.ts (a pretenured literal keeps its request alive through young collections).

/** The legacy wire's side of a request's ReplyChannel: its SSE stream is the session's, resumable. */
class LegacyReply implements ReplyChannelConfig {
  readonly onClientGone = 'keep';
  readonly logger: Logger;
  /** Its places among the context's open channels and the session's requests, once added. */
  place: LiveNode<ReplyChannel> | undefined;
  sessionPlace: LiveNode<{ abort(reason: string): void }> | undefined;

  constructor(
    readonly context: HttpContext,
    readonly exchange: HttpExchange,
    readonly headers: OutgoingHeaders,
    readonly requestId: RequestId | undefined,
    readonly session: LegacySession,
  ) {
    this.logger = context.options.logger;
  }

  statusOf(sent: SendOptions): number {
    return legacyStatus(sent.errorCode, sent.relatedRequestId);
  }

  openOutlet(): Outlet {
    const { exchange } = this;
    const writer = new SseWriter(
      exchange.stream(200, { ...this.headers, ...SSE_HEADERS }),
      this.context.options.keepAliveMs,
    );
    const stream = this.session.openStream(writer);
    exchange.onClose(() => {
      stream.detach(writer);
      writer.end();
    });
    return stream;
  }

  onFinish(): void {
    if (this.place !== undefined) this.context.channels.remove(this.place);
    if (this.sessionPlace !== undefined) this.session.done(this.sessionPlace);
  }
}

/** What a session's connection learns of a request: a ChannelExtra whose final reply also runs `onFinal`. */
class LegacyExtra extends ChannelExtra {
  closeStream?: () => void;
  readonly #onFinal: ((options: SendOptions) => void) | undefined;

  constructor(channel: ReplyChannel, edge: Edge, onFinal: ((options: SendOptions) => void) | undefined) {
    super(channel, edge.auth, edge.transport);
    this.#onFinal = onFinal;
  }

  override readonly reply = (message: string, sent: SendOptions): void => {
    this.channel.reply(message, sent);
    if (sent.final === true) this.#onFinal?.(sent);
  };
}

function initialize(
  context: HttpContext,
  sessions: SessionRegistry,
  exchange: HttpExchange,
  message: Extract<Classified, { kind: 'request' }>,
  headers: OutgoingHeaders,
  edge: Edge,
): void {
  const request = message.message;
  // Past a cap the longest-idle session makes room; 503 only when every candidate is busy.
  const refusal = sessions.makeRoom(exchange.remoteAddress);
  if (refusal !== undefined) {
    sendError(
      exchange,
      503,
      { ...headers, 'retry-after': String(context.options.retryAfterSeconds) },
      request.id,
      ErrorCode.InternalError,
      refusal,
    );
    return;
  }
  const session = new LegacySession(
    sessions.newId(),
    context.server,
    sessions.options.maxEventsPerStream,
    (ended) => sessions.remove(ended),
    edge.auth,
  );
  session.connection.onunanswered = endUnanswered;
  sessions.add(session, exchange.remoteAddress);
  answer(
    context,
    exchange,
    session,
    edge,
    (extra) => session.connection.receiveMessage(message, extra),
    request.id,
    { ...headers, 'mcp-session-id': session.id },
    (sent) => {
      if (sent.errorCode !== undefined) session.end(); // a failed handshake leaves no session behind
    },
  );
}

export function handleLegacyPost(
  context: HttpContext,
  sessions: SessionRegistry,
  exchange: HttpExchange,
  message: Exclude<Classified, { kind: 'invalid' }>,
  headers: OutgoingHeaders,
  caller: Caller,
  transport: TransportFacts,
): void {
  const edge = new Edge(caller, transport);
  if (message.kind === 'request' && message.message.method === Method.Initialize) {
    initialize(context, sessions, exchange, message, headers, edge);
    return;
  }
  const requestId = message.kind === 'request' ? message.message.id : undefined;
  const session = requireSession(sessions, exchange, headers, requestId, caller);
  if (session === undefined) return;
  session.touch();
  const { connection } = session;
  switch (message.kind) {
    case 'request':
      answer(
        context,
        exchange,
        session,
        edge,
        (extra) => connection.receiveMessage(message, extra),
        requestId,
        headers,
      );
      return;
    case 'batch': {
      // Split and judged once here; the connection dispatches these same items (a string item stays a string).
      const batch = splitBatch(message.items);
      if (connection.answersBatch(batch)) {
        answer(
          context,
          exchange,
          session,
          edge,
          (extra) => connection.receiveBatch(batch, extra),
          undefined,
          headers,
        );
        return;
      }
      connection.receiveBatch(batch, edge);
      exchange.respond(202, headers);
      return;
    }
    case 'notification':
    case 'response':
      connection.receiveMessage(message, edge);
      exchange.respond(202, headers);
      return;
  }
}
