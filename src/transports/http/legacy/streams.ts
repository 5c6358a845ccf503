// Legacy GET (the standalone SSE stream, or resuming a stream with Last-Event-ID) and DELETE (ending a session).

import { ErrorCode } from '../../../jsonrpc/index.js';
import { isLegacyRevision, type Caller } from '../../../protocol/index.js';
import type { HttpContext } from '../context.js';
import type { HttpExchange, OutgoingHeaders } from '../exchange.js';
import { sendError } from '../respond.js';
import { accepts } from '../security.js';
import { SSE_HEADERS, SseWriter } from '../sse.js';
import { EventStream } from './event-stream.js';
import { requireSession } from './post.js';
import type { LegacySession } from './session.js';

/** GET and DELETE belong to legacy sessions only: without one (or with the legacy wire off) they are 405. */
function sessionFor(
  context: HttpContext,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  caller: Caller,
): LegacySession | undefined {
  const sessions = context.sessions;
  if (sessions === undefined || exchange.header('mcp-session-id') === undefined) {
    sendError(
      exchange,
      405,
      { ...headers, allow: 'POST' },
      undefined,
      ErrorCode.InvalidRequest,
      `Method Not Allowed: protocol revision 2026-07-28 uses POST only; ${exchange.method} is for legacy sessions (Mcp-Session-Id)`,
    );
    return undefined;
  }
  const version = exchange.header('mcp-protocol-version')?.trim();
  if (version !== undefined && !isLegacyRevision(version)) {
    sendError(
      exchange,
      400,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      `Bad Request: MCP-Protocol-Version ${JSON.stringify(version)} is not a revision with sessions`,
    );
    return undefined;
  }
  return requireSession(sessions, exchange, headers, undefined, caller);
}

export function handleLegacyGet(
  context: HttpContext,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  caller: Caller,
): void {
  const session = sessionFor(context, exchange, headers, caller);
  if (session === undefined) return;
  if (!accepts(exchange.header('accept'), 'text/event-stream')) {
    sendError(
      exchange,
      406,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      'Not Acceptable: a GET stream needs Accept: text/event-stream',
    );
    return;
  }
  const lastEventId = exchange.header('last-event-id')?.trim();
  let stream: EventStream | undefined;
  let after: number | undefined;
  if (lastEventId !== undefined) {
    const parsed = EventStream.parseId(lastEventId);
    stream = parsed === undefined ? undefined : session.stream(parsed.key);
    after = parsed?.seq;
    if (stream === undefined) {
      sendError(
        exchange,
        400,
        headers,
        undefined,
        ErrorCode.InvalidRequest,
        'Bad Request: Last-Event-ID does not name a stream of this session that can still be resumed',
      );
      return;
    }
  } else if (session.standalone.attached) {
    sendError(
      exchange,
      409,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      'Conflict: this session already has its GET stream open (resume it with Last-Event-ID instead)',
    );
    return;
  } else stream = session.standalone;
  session.touch();
  const writer = new SseWriter(
    exchange.stream(200, { ...headers, ...SSE_HEADERS }),
    context.options.keepAliveMs,
  );
  exchange.onClose(() => {
    stream.detach(writer);
    writer.end();
    session.touch();
  });
  stream.attach(writer, after);
}

export function handleLegacyDelete(
  context: HttpContext,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  caller: Caller,
): void {
  const session = sessionFor(context, exchange, headers, caller);
  if (session === undefined) return;
  session.end();
  exchange.respond(200, headers);
}
