// Legacy HTTP sessions by id, with the two bounds that keep abandoned sessions from piling up:
// at most `maxSessions` at once (default 1,000; one more initialize gets 503), and idle expiry (default
// 10 minutes without a request, an open stream or a call in flight), swept by an unref'd timer.

import { randomBytes } from 'node:crypto';
import type { ResolvedLegacyOptions } from '../options.js';

/** What the registry needs of a session (Streamable HTTP or the 2024-11-05 HTTP+SSE kind). */
export interface ManagedSession {
  readonly id: string;
  isIdle(now: number, idleTimeoutMs: number): boolean;
  /** Ends the session; it removes itself from the registry. */
  end(): void;
}

/** The sweep runs this often relative to the idle timeout, within these bounds. */
const SWEEP_MIN_MS = 10;
const SWEEP_MAX_MS = 60_000;

export class SessionRegistry {
  readonly #sessions = new Map<string, ManagedSession>();
  readonly #options: ResolvedLegacyOptions;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ResolvedLegacyOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#sessions.size;
  }

  get full(): boolean {
    return this.#sessions.size >= this.#options.maxSessions;
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

  add(session: ManagedSession): void {
    this.#sessions.set(session.id, session);
    if (this.#timer === undefined && this.#options.idleTimeoutMs !== Infinity) {
      const every = Math.min(Math.max(this.#options.idleTimeoutMs / 2, SWEEP_MIN_MS), SWEEP_MAX_MS);
      this.#timer = setInterval(() => this.sweep(), every);
      this.#timer.unref?.();
    }
  }

  remove(session: ManagedSession): void {
    if (this.#sessions.get(session.id) === session) this.#sessions.delete(session.id);
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
    clearInterval(this.#timer);
    this.#timer = undefined;
  }
}
