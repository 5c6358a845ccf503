// Server-sent events: framing of messages, priming and retry fields, and a writer with keep-alive comments.

import type { OutgoingHeaders, SseSink } from './exchange.js';

export const SSE_HEADERS: Readonly<OutgoingHeaders> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Proxies such as nginx would otherwise hold events back in a buffer.
  'x-accel-buffering': 'no',
};

/** One message as an SSE event. Encoded JSON has no raw line breaks, but a pre-serialised result might. */
export function sseEvent(message: string, id?: string): string {
  const data =
    message.includes('\n') || message.includes('\r') ? message.split(/\r\n|\r|\n/).join('\ndata: ') : message;
  return id === undefined ? `data: ${data}\n\n` : `id: ${id}\ndata: ${data}\n\n`;
}

/** An event with an id and empty data: lets a 2025-11-25 client resume a stream it has seen nothing else on. */
export const ssePriming = (id: string): string => `id: ${id}\ndata: \n\n`;

export const sseRetry = (ms: number): string => `retry: ${ms}\n\n`;

const KEEP_ALIVE = ': keep-alive\n\n';

/** A sink with a periodic comment so that idle connections survive proxies and clients notice dead peers. */
export class SseWriter {
  readonly #sink: SseSink;
  readonly #timer: ReturnType<typeof setInterval>;
  #ended = false;

  constructor(sink: SseSink, keepAliveMs: number) {
    this.#sink = sink;
    this.#timer = setInterval(() => this.#sink.write(KEEP_ALIVE), keepAliveMs);
    // The open socket keeps the process alive; the timer alone must not.
    this.#timer.unref?.();
  }

  get ended(): boolean {
    return this.#ended;
  }

  write(text: string): void {
    if (!this.#ended) this.#sink.write(text);
  }

  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    clearInterval(this.#timer);
    this.#sink.end();
  }
}
