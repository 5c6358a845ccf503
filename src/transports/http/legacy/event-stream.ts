// One resumable SSE stream of a legacy session (a POST's response stream or the standalone GET stream). Its events
// carry ids "<stream key>.<sequence>", are kept (bounded) for replay, and outlive the HTTP connection carrying them.

import { sseEvent, ssePriming, sseRetry, type SseWriter } from '../sse.js';

export class EventStream {
  readonly key: string;
  readonly #maxEvents: number;
  readonly #onDelivered: (stream: EventStream) => void;
  /** [sequence, message] pairs, oldest first. */
  readonly #log: Array<[number, string]> = [];
  #seq = 0;
  #writer: SseWriter | undefined;
  /** Whether the current connection has carried an event id the client could resume from. */
  #idSent = false;
  #complete = false;

  /** `onDelivered` runs once the final event has gone out on a live connection: the stream can be forgotten. */
  constructor(key: string, maxEvents: number, onDelivered: (stream: EventStream) => void) {
    this.key = key;
    this.#maxEvents = maxEvents;
    this.#onDelivered = onDelivered;
  }

  get attached(): boolean {
    return this.#writer !== undefined;
  }

  /** Parses "<key>.<sequence>"; undefined for anything else. */
  static parseId(id: string): { key: string; seq: number } | undefined {
    const dot = id.lastIndexOf('.');
    const seq = Number(id.slice(dot + 1));
    if (dot <= 0 || !Number.isSafeInteger(seq) || seq < 0) return undefined;
    return { key: id.slice(0, dot), seq };
  }

  /**
   * Sends an event with an id and no data, so the client has something to resume from. Not logged. Only sent right
   * before the server closes a connection that has carried no id yet (release): clients that never resume, such as
   * the AI SDK 1.x, report an empty event as a message they cannot parse.
   */
  #prime(writer: SseWriter): void {
    writer.write(ssePriming(`${this.key}.${++this.#seq}`));
  }

  /**
   * Makes `writer` carry this stream, replacing any earlier connection, and replays what came after `afterSeq`.
   * A stream that already ended is replayed to its end and then closed.
   */
  attach(writer: SseWriter, afterSeq?: number): void {
    this.#writer?.end();
    this.#writer = writer;
    this.#idSent = false;
    if (afterSeq !== undefined) {
      for (const [seq, message] of this.#log) {
        if (seq <= afterSeq) continue;
        writer.write(sseEvent(message, `${this.key}.${seq}`));
        this.#idSent = true;
      }
    }
    if (this.#complete) this.#deliver();
  }

  /** Forgets `writer` (its client went away) without ending the stream. */
  detach(writer: SseWriter): void {
    if (this.#writer === writer) this.#writer = undefined;
  }

  event(message: string): void {
    const seq = ++this.#seq;
    this.#log.push([seq, message]);
    if (this.#log.length > this.#maxEvents) this.#log.shift();
    if (this.#writer === undefined) return;
    this.#writer.write(sseEvent(message, `${this.key}.${seq}`));
    this.#idSent = true;
  }

  /** The final event went in: end the connection now, or when a resumed one has replayed it. */
  end(): void {
    this.#complete = true;
    if (this.#writer !== undefined) this.#deliver();
  }

  /**
   * 2025-11-25 polling: tells the client when to come back, and closes the connection but not the stream. A
   * connection that carried no event id yet gets the priming event first, so the client has an id to resume from.
   */
  release(retryMs: number): void {
    const writer = this.#writer;
    if (writer === undefined) return;
    this.#writer = undefined;
    if (!this.#idSent) this.#prime(writer);
    writer.write(sseRetry(retryMs));
    writer.end();
  }

  /** Ends the connection without completing the stream (session closing). */
  close(): void {
    this.#writer?.end();
    this.#writer = undefined;
  }

  #deliver(): void {
    this.#writer?.end();
    this.#writer = undefined;
    this.#onDelivered(this);
  }
}
