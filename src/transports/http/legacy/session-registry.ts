// Legacy HTTP sessions by id, with the bounds that keep them from piling up or being hoarded: at most `maxSessions`
// at once and `maxSessionsPerAddress` per client address, where a new initialize past either cap ends the
// longest-idle session instead of being refused; and idle expiry (default 10 minutes without a request, an open
// stream or a call in flight), swept by an unref'd timer.

import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../server/index.js';
import { addressBucket } from '../client-address.js';
import type { ResolvedLegacyOptions } from '../options.js';

/** What the registry needs of a session (Streamable HTTP or the 2024-11-05 HTTP+SSE kind). */
export interface ManagedSession {
  readonly id: string;
  /** A request of this session is being answered: it is never ended to make room. */
  readonly busy: boolean;
  /** A client is connected to one of its streams: it is ended to make room only after those without one. */
  readonly streaming: boolean;
  /** When it last saw a request start or finish (ms since the epoch). */
  readonly lastSeen: number;
  isIdle(now: number, idleTimeoutMs: number): boolean;
  /** Ends the session; it removes itself from the registry. */
  end(): void;
}

/** The sweep runs this often relative to the idle timeout, within these bounds. */
const SWEEP_MIN_MS = 10;
const SWEEP_MAX_MS = 60_000;

/** The session to end for room: not busy; without a stream before with one; then the longest idle. */
function longestIdle(sessions: Iterable<ManagedSession>): ManagedSession | undefined {
  let pick: ManagedSession | undefined;
  for (const session of sessions) {
    if (session.busy) continue;
    if (
      pick === undefined ||
      (pick.streaming && !session.streaming) ||
      (pick.streaming === session.streaming && session.lastSeen < pick.lastSeen)
    )
      pick = session;
  }
  return pick;
}

export class SessionRegistry {
  readonly #sessions = new Map<string, ManagedSession>();
  /** The sessions of each address bucket (sessions whose client address is unknown are in none). */
  readonly #byAddress = new Map<string, Set<ManagedSession>>();
  readonly #bucketOf = new Map<ManagedSession, string>();
  readonly #options: ResolvedLegacyOptions;
  readonly #logger: Logger;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ResolvedLegacyOptions, logger: Logger) {
    this.#options = options;
    this.#logger = logger;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get options(): ResolvedLegacyOptions {
    return this.#options;
  }

  /** A fresh id: 16 random bytes as base64url, 22 visible ASCII characters. */
  newId(): string {
    return randomBytes(16).toString('base64url');
  }

  /** The open sessions, oldest first. */
  values(): IterableIterator<ManagedSession> {
    return this.#sessions.values();
  }

  get(id: string | undefined): ManagedSession | undefined {
    return id === undefined ? undefined : this.#sessions.get(id);
  }

  /**
   * Makes room for one more session from `address`: past the address's cap it ends that address's longest-idle
   * session, past the total cap the longest-idle of all. Returns why it cannot (every candidate is busy) for a
   * 503, or undefined when there is room now.
   */
  makeRoom(address: string | undefined): string | undefined {
    const { maxSessions, maxSessionsPerAddress } = this.#options;
    const bucket = addressBucket(address);
    const mine = bucket === undefined ? undefined : this.#byAddress.get(bucket);
    if (mine !== undefined && mine.size >= maxSessionsPerAddress) {
      const victim = longestIdle(mine);
      if (victim === undefined) {
        return `Too many sessions open from this address (limit ${maxSessionsPerAddress}), all of them busy; try again later`;
      }
      this.#evict(victim, 'its address is at maxSessionsPerAddress');
    }
    if (this.#sessions.size >= maxSessions) {
      const victim = longestIdle(this.#sessions.values());
      if (victim === undefined) {
        return `Too many sessions open (limit ${maxSessions}), all of them busy; try again later`;
      }
      this.#evict(victim, 'the server is at maxSessions');
    }
    return undefined;
  }

  /** Registers a session; `address` is its client's (for maxSessionsPerAddress), when known. */
  add(session: ManagedSession, address?: string): void {
    this.#sessions.set(session.id, session);
    const bucket = addressBucket(address);
    if (bucket !== undefined) {
      let set = this.#byAddress.get(bucket);
      if (set === undefined) this.#byAddress.set(bucket, (set = new Set()));
      set.add(session);
      this.#bucketOf.set(session, bucket);
    }
    if (this.#timer === undefined && this.#options.idleTimeoutMs !== Infinity) {
      const every = Math.min(Math.max(this.#options.idleTimeoutMs / 2, SWEEP_MIN_MS), SWEEP_MAX_MS);
      this.#timer = setInterval(() => this.sweep(), every);
      this.#timer.unref?.();
    }
  }

  remove(session: ManagedSession): void {
    if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
    const bucket = this.#bucketOf.get(session);
    if (bucket !== undefined) {
      this.#bucketOf.delete(session);
      const set = this.#byAddress.get(bucket);
      set?.delete(session);
      if (set?.size === 0) this.#byAddress.delete(bucket);
    }
    if (this.#sessions.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** Ends every session idle for longer than the timeout. */
  sweep(now = Date.now()): void {
    for (const session of [...this.#sessions.values()]) {
      if (session.isIdle(now, this.#options.idleTimeoutMs)) session.end();
    }
  }

  closeAll(): void {
    for (const session of [...this.#sessions.values()]) session.end();
    this.#sessions.clear();
    this.#byAddress.clear();
    this.#bucketOf.clear();
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #evict(session: ManagedSession, why: string): void {
    // No session id in the log: on the legacy wire it is the client's only credential.
    this.#logger.debug(
      `HTTP transport: ended a legacy session idle for ${Date.now() - session.lastSeen} ms to admit a new one (${why})`,
    );
    session.end();
    this.remove(session); // end() removes it too; this makes sure the room exists now
  }
}
