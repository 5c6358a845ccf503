// The answer to one JSON-RPC batch (2025-03-26): every entry collected into the single array the client gets.

import type { MessageExtra, SendOptions } from '../protocol/index.js';

/** The batch each request's MessageExtra belongs to, so that a cancelled request can be let go of. */
const owners = new WeakMap<MessageExtra, BatchReply>();

export class BatchReply {
  readonly #send: (message: string, options: SendOptions) => void;
  readonly #onEmpty: () => void;
  readonly #entries: string[] = [];
  /** Entries still to come: requests not yet answered (or let go of) and invalid items not yet answered. */
  #pending: number;
  #sent = false;
  /** What each request of the batch receives: its final answer becomes an entry, anything else passes through. */
  readonly extra: MessageExtra;

  /**
   * `expected` is the number of entries the batch gets (requests and invalid items); `send` carries the array and
   * every message that is not a final answer (progress, logs, requests to the client) where the batch came from;
   * `onEmpty` runs instead of `send` when every entry fell away (the client cancelled every request in it).
   */
  constructor(
    expected: number,
    outer: MessageExtra | undefined,
    send: (message: string, options: SendOptions) => void,
    onEmpty: () => void,
  ) {
    this.#pending = expected;
    this.#send = send;
    this.#onEmpty = onEmpty;
    this.extra = {
      ...outer,
      reply: (message, options) => {
        if (options.final === true) this.add(message);
        else send(message, options);
      },
    };
    owners.set(this.extra, this);
  }

  /** The batch a request's MessageExtra belongs to, if any. */
  static of(extra: MessageExtra | undefined): BatchReply | undefined {
    return extra === undefined ? undefined : owners.get(extra);
  }

  /** One entry: the final answer to a request, or the error for an invalid item. */
  add(entry: string): void {
    if (this.#sent) return;
    this.#entries.push(entry);
    this.#settle();
  }

  /** A request the client cancelled is never answered (the spec says so); the batch must not wait for it. */
  letGo(): void {
    if (this.#sent) return;
    this.#settle();
  }

  #settle(): void {
    if (--this.#pending > 0) return;
    this.#sent = true;
    // JSON-RPC 2.0: a batch whose every entry fell away is answered with nothing, never with an empty array.
    if (this.#entries.length > 0) this.#send('[' + this.#entries.join(',') + ']', { final: true });
    else this.#onEmpty();
  }
}
