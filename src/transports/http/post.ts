// Every POST: media types, body size, JSON depth and shape are checked once; then the era decides the path.

import { ErrorCode, RpcError, classify, parseJson, type Classified } from '../../jsonrpc/index.js';
import { hasModernMeta, isLegacyRevision, type Caller, type TransportFacts } from '../../protocol/index.js';
import type { HttpContext } from './context.js';
import type { HttpExchange, OutgoingHeaders } from './exchange.js';
import { handleLegacyPost } from './legacy/post.js';
import { postSseMessage } from './legacy/http-sse.js';
import { handleModernPost } from './modern.js';
import { sendBodyRefusal, sendError } from './respond.js';
import { acceptsJsonAndSse, unsupportedMediaType } from './security.js';

/**
 * Modern when the body carries the modern _meta or the version header names a non-legacy revision (an unknown
 * version then gets the modern -32022 answer); legacy otherwise, when the legacy wire is on.
 */
function isModern(context: HttpContext, exchange: HttpExchange, message: Classified): boolean {
  if (context.sessions === undefined) return true;
  if (
    (message.kind === 'request' || message.kind === 'notification') &&
    hasModernMeta(message.message.params)
  )
    return true;
  const version = exchange.header('mcp-protocol-version')?.trim();
  return version !== undefined && !isLegacyRevision(version);
}

/**
 * `target` is the MCP endpoint, or the POST endpoint of the 2024-11-05 HTTP+SSE transport; `caller` is who the
 * authenticate hook said is calling, and `transport` what every message of the request carries as extra.transport.
 */
export async function handlePost(
  context: HttpContext,
  exchange: HttpExchange,
  headers: OutgoingHeaders,
  target: 'endpoint' | 'messages',
  caller: Caller,
  transport: TransportFacts,
): Promise<void> {
  const { options } = context;
  const unsupported = unsupportedMediaType(exchange.header('content-type'));
  if (unsupported !== undefined) {
    sendError(exchange, 415, headers, undefined, ErrorCode.InvalidRequest, unsupported);
    return;
  }
  if (target === 'endpoint' && !acceptsJsonAndSse(exchange.header('accept'))) {
    sendError(
      exchange,
      406,
      headers,
      undefined,
      ErrorCode.InvalidRequest,
      'Not Acceptable: the Accept header must list both application/json and text/event-stream (the answer may be either)',
    );
    return;
  }
  const body = await exchange.readBody(options.maxBodyBytes);
  if (!body.ok) {
    sendBodyRefusal(exchange, headers, body.reason, options);
    return;
  }
  let value: unknown;
  try {
    value = parseJson(body.text, options.maxJsonDepth);
  } catch (error) {
    if (!(error instanceof RpcError)) throw error;
    sendError(exchange, 400, headers, undefined, error.code, error.message);
    return;
  }
  const message = classify(value);
  if (message.kind === 'invalid') {
    sendError(exchange, 400, headers, message.id, message.error.code, message.error.message);
    return;
  }
  const sessions = context.sessions;
  if (target === 'messages' && sessions !== undefined)
    postSseMessage(sessions, exchange, value, headers, caller, transport);
  else if (isModern(context, exchange, message) || sessions === undefined)
    handleModernPost(context, exchange, message, headers, caller, transport);
  else handleLegacyPost(context, sessions, exchange, message, headers, caller, transport);
}
