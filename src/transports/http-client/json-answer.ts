// Reading a POST's JSON answer (not a stream): the messages to deliver, or why the request failed.

import type { RequestId } from '../../jsonrpc/index.js';
import { TransportError, type MessageExtra } from '../../protocol/index.js';
import { readBody, snippet, type BodyText } from './body.js';
import { describe, httpError, transientStatus } from './failures.js';
import { parseJsonRpcBody } from './json-rpc-body.js';

export type JsonAnswer =
  { error: TransportError } | { error?: undefined; messages: string[]; extra: MessageExtra };

/** The answer in `response`'s body (at most `limit` bytes); undefined when there is nothing to do (aborted, empty). */
export async function readJsonAnswer(
  response: Response,
  requestId: RequestId | undefined,
  signal: AbortSignal,
  limit: number,
): Promise<JsonAnswer | undefined> {
  const status = response.status;
  let body: BodyText;
  try {
    body = await readBody(response, limit, signal);
  } catch (error) {
    if (signal.aborted) return undefined;
    return { error: new TransportError(`reading the POST response failed: ${describe(error)}`, status) };
  }
  if (body.truncated) {
    const cut = snippet(body.text);
    const message = `the POST response (HTTP ${status}) exceeds the ${limit}-byte limit`;
    return { error: new TransportError(message, status, cut) };
  }
  if (response.ok && body.text.trim() === '') return undefined;
  const parsed = parseJsonRpcBody(body.text);
  if (parsed === undefined) return { error: httpError('POST', response, body.text) };
  const facts = transientStatus(response);
  if (!response.ok && requestId !== undefined && parsed.idlessError !== undefined) {
    // No id to route it by, so it fails the request it answers; the body is kept whole for the era decision.
    const { code, message } = parsed.idlessError;
    const text = `POST answered HTTP ${status} with JSON-RPC error ${String(code)}: ${String(message)}`;
    return { error: new TransportError(text, status, body.text, facts) };
  }
  const extra: MessageExtra =
    facts.retryAfterMs === undefined
      ? { httpStatus: status }
      : { httpStatus: status, retryAfterMs: facts.retryAfterMs };
  return { messages: parsed.messages, extra };
}
