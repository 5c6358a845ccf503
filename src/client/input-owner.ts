// Which of the client's requests a server→client request (elicitation, sampling, roots) belongs to, so that one
// call's question is answered by that call's handlers.

import type { RequestId } from '../jsonrpc/index.js';
import type { InputHandlers } from './input.js';

/** A request that may be asked for input: its own handlers (else the client's) and the signal that ends it. */
export interface InputOwner {
  handlers: InputHandlers | undefined;
  signal: AbortSignal | undefined;
}

/**
 * The owner of a server→client request. Streamable HTTP says which request it belongs to (`related`: the response
 * stream it came on); stdio and the standalone stream do not, so there it is the one request in flight that may be
 * asked for input, if there is exactly one; with none or several it is nobody's (the client-wide handlers answer),
 * since guessing would hand one call's question to another call's user.
 */
export function inputOwnerOf(
  pending: ReadonlyMap<RequestId, { readonly options: { readonly input?: InputOwner } }>,
  related: RequestId | undefined,
): InputOwner | undefined {
  if (related !== undefined) return pending.get(related)?.options.input;
  let owner: InputOwner | undefined;
  for (const request of pending.values()) {
    if (request.options.input === undefined) continue;
    if (owner !== undefined) return undefined;
    owner = request.options.input;
  }
  return owner;
}
