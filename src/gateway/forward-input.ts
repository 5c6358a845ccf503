// An upstream's input requests (elicitation, sampling, roots) during one proxied request, answered by asking the
// inbound client of that same request (ctx.elicit/sample/listRoots): the upstream's question reaches the user who
// made the call, never another caller.

import type { InputHandlers } from '../client/index.js';
import type { ToolContext } from '../server/index.js';

/**
 * Handlers for one proxied request, and what must end it early. Asking the inbound client may not be possible now:
 * on the modern wire the first ask throws InputRequiredSignal (the gateway answers input_required and the client
 * retries the whole call, when the upstream is asked again and the answer is on hand under the same key); a client
 * without the capability gets an RpcError. Either way the upstream request is abandoned (`abort`) and that error —
 * not the upstream's reaction to a refused question — is what the proxied request throws (`rethrow`).
 */
export interface ForwardedInput {
  handlers: InputHandlers;
  /**
   * The upstream request's signal: aborts with the inbound request (cancellation, timeout, a closed stream) and when
   * an ask could not be forwarded. One AbortController per request; AbortSignal.any over the request's own signal
   * cost three, and ~8 µs of every proxied call.
   */
  signal: AbortSignal;
  /** Throws the error that stopped the forwarding, if any; call it when the upstream request ends, either way. */
  rethrow(): void;
}

export function forwardInput(ctx: ToolContext): ForwardedInput {
  const stop = new AbortController();
  ctx.onAbort((reason) => stop.abort(reason));
  let stopped: unknown;
  let asked = 0;
  // Keys are the order of asking within one run: a retried call asks again in the same order, so the answers the
  // inbound client gave in an earlier round (MRTR) are found under the same keys.
  const ask = async <T>(run: (key: string) => Promise<T>): Promise<T> => {
    const key = `upstream-${++asked}`;
    try {
      return await run(key);
    } catch (error) {
      if (stopped === undefined) {
        stopped = error;
        stop.abort(error);
      }
      throw error;
    }
  };
  return {
    handlers: {
      elicitation: (params) => ask((key) => ctx.elicit(params, key)),
      sampling: (params) => ask((key) => ctx.sample(params, key)),
      roots: () => ask((key) => ctx.listRoots(key)),
    },
    signal: stop.signal,
    rethrow() {
      if (stopped !== undefined) throw stopped;
    },
  };
}
