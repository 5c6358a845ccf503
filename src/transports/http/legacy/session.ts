// A legacy Streamable HTTP session (2025-03-26 … 2025-11-25): its ServerConnection, and the transport that
// puts unsolicited messages on the standalone GET stream. Each POST's messages go through its own reply.

import { LiveList, type LiveNode } from '../../../protocol/live-list.js';
import type { Caller, SendOptions, Transport } from '../../../protocol/index.js';
import type { McpServer, ServerConnection } from '../../../server/index.js';
import type { SseWriter } from '../sse.js';
import { EventStream } from './event-stream.js';
import type { ManagedSession } from './session-registry.js';

/** The key of the standalone (GET) stream; POST streams are numbered from 1. */
export const STANDALONE = 's';
/** Finished-but-unread POST streams one session keeps for resumption; the oldest go first. */
const MAX_STREAMS = 64;

export class LegacySession implements Transport, ManagedSession {
  readonly id: string;
  /** Who opened the session: only this caller may use it. */
  readonly caller: Caller;
  readonly connection: ServerConnection;
  readonly standalone: EventStream;
  readonly #streams = new Map<string, EventStream>();
  readonly #maxEvents: number;
  readonly #onEnded: (session: LegacySession) => void;
  /** Requests of this session still being answered; ended with the session. */
  /** A LiveList, not a Set: see protocol/live-list.ts. */
  readonly #requests = new LiveList<{ abort(reason: string): void }>();
  #nextKey = 0;
  #lastSeen = Date.now();
  #ended = false;
  // The HTTP layer feeds connection.receive itself; these Transport members stay unused.
  onmessage?: NonNullable<Transport['onmessage']>;
  onerror?: NonNullable<Transport['onerror']>;
  onclose?: NonNullable<Transport['onclose']>;

  constructor(
    id: string,
    server: McpServer,
    maxEvents: number,
    onEnded: (session: LegacySession) => void,
    caller: Caller,
  ) {
    this.id = id;
    this.caller = caller;
    this.#maxEvents = maxEvents;
    this.#onEnded = onEnded;
    this.standalone = new EventStream(STANDALONE, maxEvents, () => undefined);
    this.connection = server.createConnection(this, { legacy: true });
    this.connection.onclose = () => this.#cleanUp();
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** 2025-11-25 sessions may close request streams to be polled (primed with an event id first). */
  get polling(): boolean {
    return this.connection.legacy?.revision === '2025-11-25';
  }

  async start(): Promise<void> {}

  /** Messages not tied to a POST (list_changed, cancellation of our own requests) go on the standalone stream. */
  send(message: string, _options?: SendOptions): void {
    this.standalone.event(message);
  }

  async close(): Promise<void> {
    this.end();
  }

  /** A new stream for one POST's response, carried by `writer` for now. */
  openStream(writer: SseWriter): EventStream {
    const stream = new EventStream(String(++this.#nextKey), this.#maxEvents, (done) =>
      this.#streams.delete(done.key),
    );
    this.#streams.set(stream.key, stream);
    if (this.#streams.size > MAX_STREAMS) {
      for (const [key, old] of this.#streams) {
        if (old.attached) continue;
        this.#streams.delete(key);
        break;
      }
    }
    stream.attach(writer);
    return stream;
  }

  stream(key: string): EventStream | undefined {
    return key === STANDALONE ? this.standalone : this.#streams.get(key);
  }

  /** A request of this session starts being answered. */
  begin(request: { abort(reason: string): void }): LiveNode<{ abort(reason: string): void }> {
    this.#lastSeen = Date.now();
    return this.#requests.add(request);
  }

  /** …and is done (`place` is what begin() returned). */
  done(place: LiveNode<{ abort(reason: string): void }>): void {
    this.#requests.remove(place);
    this.#lastSeen = Date.now();
  }

  touch(): void {
    this.#lastSeen = Date.now();
  }

  get busy(): boolean {
    return this.#requests.size > 0 || this.connection.inflightCount > 0;
  }

  get streaming(): boolean {
    return this.standalone.attached;
  }

  get lastSeen(): number {
    return this.#lastSeen;
  }

  isIdle(now: number, idleTimeoutMs: number): boolean {
    return !this.busy && !this.streaming && now - this.#lastSeen >= idleTimeoutMs;
  }

  /** Ends the session: calls in flight are aborted and open streams end. */
  end(): void {
    this.connection.close(); // its onclose cleans up
    this.#cleanUp();
  }

  #cleanUp(): void {
    if (this.#ended) return;
    this.#ended = true;
    for (const request of this.#requests.items()) request.abort('the session ended');
    this.#requests.clear();
    this.standalone.close();
    for (const stream of this.#streams.values()) stream.close();
    this.#streams.clear();
    this.#onEnded(this);
  }
}
