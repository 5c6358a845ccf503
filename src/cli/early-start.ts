// Starting a stdio server before the client that talks to it is loaded: the server's startup and the client's
// module loading then overlap instead of adding up (`toolwire list` / `call` pay the slower of the two, not both).

import type { MessageExtra, Transport } from '../protocol/index.js';

/** More than a server has any reason to say before it is asked anything; beyond it, early lines are dropped. */
const MAX_EARLY_MESSAGES = 100;

/**
 * Starts `transport` now and returns it with a start() that hands back that first start, so that a client's
 * connect(), which calls start(), can take it later. What the transport reported before the client set its own
 * callbacks (lines, errors, the server exiting at once) is kept and replayed in that start(), in order, so the
 * client sees a server that died at startup exactly as it would have without the head start.
 * Everything else (send, close, the callbacks the client sets) reaches the transport itself.
 */
export function startedEarly(transport: Transport): Transport {
  const messages: [unknown, MessageExtra | undefined][] = [];
  const errors: Error[] = [];
  let closed = false;
  transport.onmessage = (message, extra) => {
    if (messages.length < MAX_EARLY_MESSAGES) messages.push([message, extra]);
  };
  transport.onerror = (error) => {
    if (errors.length < MAX_EARLY_MESSAGES) errors.push(error);
  };
  transport.onclose = () => {
    closed = true;
  };
  const started = transport.start();
  started.catch(() => undefined); // not unhandled meanwhile: the client's connect() awaits it and reports the failure
  // The client sets its callbacks before it calls start(): by then they are the transport's own, so replay to them.
  const start = async (): Promise<void> => {
    await started;
    for (const [message, extra] of messages.splice(0)) transport.onmessage?.(message, extra);
    for (const error of errors.splice(0)) transport.onerror?.(error);
    if (closed) transport.onclose?.();
  };
  return new Proxy(transport, {
    get(target, key) {
      if (key === 'start') return start;
      const value: unknown = Reflect.get(target, key, target); // getters run on the transport, not the proxy
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
