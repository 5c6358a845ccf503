// Two in-memory transports wired back to back, so tests and in-process clients need no process or port.

import {
  LOCAL_CALLER,
  MEMORY_TRANSPORT,
  type Caller,
  type MessageExtra,
  type SendOptions,
  type Transport,
} from '../../protocol/index.js';

export type TrafficDirection = 'a->b' | 'b->a';

export interface LinkedPairOptions {
  /** Sees every message as it is sent; traffic is not recorded otherwise. */
  onTraffic?(direction: TrafficDirection, message: string): void;
  /**
   * Who is calling: every message either end receives carries it as `extra.auth` (a server connected to one end
   * sees the other end's calls as this caller's). Default LOCAL_CALLER: both ends live in this process.
   */
  caller?: Caller;
}

/** The state both ends share: closing either end closes the pair. */
interface Link {
  closed: boolean;
  /** What every delivered message carries: one frozen object for the pair, nothing per message. */
  readonly extra: MessageExtra;
}

class MemoryTransport implements Transport {
  onmessage?: (message: string | unknown, extra?: MessageExtra) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;

  readonly #link: Link;
  readonly #direction: TrafficDirection;
  readonly #onTraffic: ((direction: TrafficDirection, message: string) => void) | undefined;
  #peer: MemoryTransport | undefined;
  #started = false;
  /** Messages that arrived before start(); delivered in order once it runs. */
  #inbox: string[] = [];

  constructor(link: Link, direction: TrafficDirection, options: LinkedPairOptions) {
    this.#link = link;
    this.#direction = direction;
    this.#onTraffic = options.onTraffic;
  }

  connect(peer: MemoryTransport): void {
    this.#peer = peer;
  }

  async start(): Promise<void> {
    if (this.#link.closed) throw new Error('transport closed');
    if (this.#started) throw new Error('memory transport already started');
    this.#started = true;
    const early = this.#inbox;
    this.#inbox = [];
    for (const message of early) this.#schedule(message);
  }

  send(message: string, _options?: SendOptions): void {
    if (this.#link.closed || this.#peer === undefined) throw new Error('transport closed');
    this.#onTraffic?.(this.#direction, message);
    this.#peer.#receive(message);
  }

  close(): Promise<void> {
    if (this.#link.closed) return Promise.resolve();
    this.#link.closed = true;
    const peer = this.#peer;
    this.#inbox = [];
    if (peer !== undefined) peer.#inbox = [];
    // Queued after any delivery already in flight, so what was sent before close arrives before onclose.
    return new Promise((resolve) => {
      queueMicrotask(() => {
        this.#fireClose();
        if (peer !== undefined) peer.#fireClose();
        resolve();
      });
    });
  }

  #receive(message: string): void {
    if (this.#started) this.#schedule(message);
    else this.#inbox.push(message);
  }

  /** Asynchronous like a real channel, so no test comes to rely on a reply arriving inside send(). */
  #schedule(message: string): void {
    queueMicrotask(() => {
      try {
        this.onmessage?.(message, this.#link.extra);
      } catch (error) {
        this.#report(error);
      }
    });
  }

  #fireClose(): void {
    try {
      this.onclose?.();
    } catch (error) {
      this.#report(error);
    }
  }

  #report(error: unknown): void {
    const wrapped = error instanceof Error ? error : new Error(String(error));
    // Without an onerror the throw stays visible as an uncaught exception rather than vanishing.
    if (this.onerror === undefined) throw wrapped;
    this.onerror(wrapped);
  }
}

/** Returns two connected transports: what one sends, the other's onmessage receives (same string, same order). */
export function createLinkedPair(options: LinkedPairOptions = {}): [Transport, Transport] {
  const link: Link = {
    closed: false,
    extra: Object.freeze({ auth: options.caller ?? LOCAL_CALLER, transport: MEMORY_TRANSPORT }),
  };
  const a = new MemoryTransport(link, 'a->b', options);
  const b = new MemoryTransport(link, 'b->a', options);
  a.connect(b);
  b.connect(a);
  return [a, b];
}
