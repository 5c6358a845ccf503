// The modern (2026-07-28) POST: stateless, one shared connection, MCP-Protocol-Version and Mcp-Method checked
// against the body (Mcp-Name and Mcp-Param-* are the pipeline's: they depend on the tool called).

import { ErrorCode, RpcError, type Classified, type RequestId } from '../../jsonrpc/index.js';
import type { Caller, SendOptions, TransportFacts } from '../../protocol/index.js';
import type { LiveNode } from '../../protocol/live-list.js';
import type { Logger } from '../../server/index.js';
import { ChannelExtra } from './channel-extra.js';
import type { HttpContext } from './context.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { checkModernHeaders } from './mcp-headers.js';
import { ReplyChannel, type Outlet, type ReplyChannelConfig } from './reply-channel.js';
import { modernStatus, sendError } from './respond.js';
import { SSE_HEADERS, SseWriter, sseEvent } from './sse.js';

export function handleModernPost(
  context: HttpContext,
  exchange: HttpExchange,
  message: Exclude<Classified, { kind: 'invalid' }>,
  headers: OutgoingHeaders,
  caller: Caller,
  transport: TransportFacts,
): void {
  switch (message.kind) {
    case 'batch':
      sendError(
        exchange,
        400,
        headers,
        undefined,
        ErrorCode.InvalidRequest,
        'Invalid Request: protocol revision 2026-07-28 has no JSON-RPC batches; send one message per POST',
      );
      return;
    case 'response':
      sendError(
        exchange,
        400,
        headers,
        message.message.id,
        ErrorCode.InvalidRequest,
        'Invalid Request: clients do not POST responses on protocol revision 2026-07-28',
      );
      return;
    case 'notification':
      // No client notification means anything here (cancellation is closing the response), but it is accepted.
      exchange.respond(202, headers);
      return;
    case 'request':
      break;
  }
  const request = message.message;
  try {
    // The _meta envelope itself is read once, by the server connection; its errors come back marked `rejected`.
    // Mcp-Name and Mcp-Param-* depend on the tool: the request pipeline checks them (server/mirror-headers.ts).
    checkModernHeaders((name) => exchange.header(name), request);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    sendError(exchange, 400, headers, request.id, error.code, error.message, error.data);
    return;
  }
  if (context.modernConnection?.closed === true) {
    sendError(
      exchange,
      503,
      headers,
      request.id,
      ErrorCode.InternalError,
      'The server is shutting down; try again later',
    );
    return;
  }
  const connection = (context.modernConnection ??= context.server.createConnection(undefined, {
    legacy: false,
    shared: true,
  }));
  const reply = new ModernReply(context, exchange, headers, request.id);
  const channel = new ReplyChannel(reply);
  reply.place = context.channels.add(channel);
  // Already classified by handlePost: the connection does not judge the message a second time.
  connection.receiveMessage(message, new ChannelExtra(channel, caller, transport));
  channel.received();
}

// ModernReply lives as long as its request and reaches all of it: a class, not an object literal, for the reason
// given in channel-extra.ts. Methods instead of closures also make a request three closures cheaper.

/** The modern wire's side of a request's ReplyChannel. */
class ModernReply implements ReplyChannelConfig {
  readonly onClientGone = 'cancel';
  readonly logger: Logger;
  /** Its place among the context's open channels, once added. */
  place: LiveNode<ReplyChannel> | undefined;

  constructor(
    readonly context: HttpContext,
    readonly exchange: HttpExchange,
    readonly headers: OutgoingHeaders,
    readonly requestId: RequestId,
  ) {
    this.logger = context.options.logger;
  }

  statusOf(sent: SendOptions): number {
    return modernStatus(sent.errorCode, sent.rejected);
  }

  openOutlet(): Outlet {
    const writer = new SseWriter(
      this.exchange.stream(200, { ...this.headers, ...SSE_HEADERS }),
      this.context.options.keepAliveMs,
    );
    return { event: (text) => writer.write(sseEvent(text)), end: () => writer.end() };
  }

  onFinish(): void {
    if (this.place !== undefined) this.context.channels.remove(this.place);
  }
}
