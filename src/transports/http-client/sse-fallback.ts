// The spec's backwards-compatibility fallback: a Streamable HTTP client whose POST of initialize is refused with
// 400/404/405 GETs the URL for a 2024-11-05 HTTP+SSE `endpoint` event and goes on over that transport.

import type { RequestId } from '../../jsonrpc/index.js';
import { TransportError, type MessageExtra } from '../../protocol/index.js';
import { readBody } from './body.js';
import { httpError } from './failures.js';
import type { HttpClientTransportOptions } from './options.js';
import { SseClientTransport } from './sse-transport.js';

/** Statuses a 2024-11-05 server gives a POST to its SSE URL (Express: 404 "Cannot POST"; others 400 or 405). */
const FALLBACK_STATUSES = new Set([400, 404, 405]);
/** The refused POST's body is read this far, for the message if the fallback fails too. */
const ERROR_BODY_BYTES = 4096;

/** True when `status` answered a POST of `initialize`: the only message the fallback applies to. */
export function fallsBack(status: number, message: string): boolean {
  if (!FALLBACK_STATUSES.has(status)) return false;
  try {
    const value: unknown = JSON.parse(message);
    return (
      typeof value === 'object' && value !== null && (value as { method?: unknown }).method === 'initialize'
    );
  } catch {
    return false;
  }
}

/** Where the HTTP+SSE transport's events go: the Streamable HTTP transport that fell back to it. */
export interface FallbackSink {
  deliver(message: string, extra: MessageExtra): void;
  report(error: Error): void;
  /** Fails the initialize request that was refused (the fallback did not work either). */
  fail(error: TransportError): void;
  failRequest(requestId: RequestId, error: TransportError): void;
  close(): void;
  closed(): boolean;
}

/**
 * Opens the HTTP+SSE transport at `url` (the same URL, headers and limits) after `refused`; undefined when that
 * failed (the sink was told why: the POST's answer, then the GET's) or the transport closed meanwhile.
 */
export async function openFallback(
  url: URL,
  options: HttpClientTransportOptions,
  refused: Response,
  signal: AbortSignal,
  sink: FallbackSink,
): Promise<SseClientTransport | undefined> {
  // Kept for the error message: if the GET fails too, the POST's answer is the likelier explanation.
  const body = await readBody(refused, ERROR_BODY_BYTES, signal).catch(() => ({ text: '' }));
  const sse = new SseClientTransport(url, options);
  try {
    await sse.start();
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const answer = httpError('POST', refused, body.text);
    const message = `${answer.message}; the fallback to the HTTP+SSE transport failed too: ${why}`;
    sink.fail(new TransportError(message, refused.status, answer.body));
    return undefined;
  }
  if (sink.closed()) {
    await sse.close();
    return undefined;
  }
  sse.onmessage = (message, extra) =>
    sink.deliver(typeof message === 'string' ? message : JSON.stringify(message), extra ?? {});
  sse.onerror = (error) => sink.report(error);
  sse.onrequesterror = (id, error) => sink.failRequest(id, error);
  sse.onclose = () => sink.close();
  return sse;
}
