// The gateway server's entries of one kind (tools, prompts, resources, templates) brought to what the upstreams list
// now: only what changed is removed or registered again, so a re-sync of one upstream leaves the others untouched
// and clients get one list_changed (the server coalesces them).

import type { Logger } from '../server/index.js';
import type { Registered } from '../server/registered.js';

export interface Wanted<C> {
  /** What the entry is made from (its definition as JSON): a different one means registering it again. */
  fingerprint: string;
  /** Which upstream it belongs to (for the log). */
  server: string;
  config: () => C;
}

export class Registrations<C> {
  readonly #current = new Map<string, { fingerprint: string; handle: Registered<C> }>();
  readonly #register: (config: C) => Registered<C>;
  readonly #noun: string;
  readonly #logger: Logger;

  constructor(noun: string, register: (config: C) => Registered<C>, logger: Logger) {
    this.#noun = noun;
    this.#register = register;
    this.#logger = logger;
  }

  /** The keys registered now. */
  keys(): string[] {
    return [...this.#current.keys()];
  }

  /** Makes the registered entries exactly `wanted` (by key). */
  apply(wanted: ReadonlyMap<string, Wanted<C>>): void {
    for (const [key, entry] of this.#current) {
      if (wanted.get(key)?.fingerprint === entry.fingerprint) continue;
      entry.handle.remove();
      this.#current.delete(key);
    }
    for (const [key, entry] of wanted) {
      if (this.#current.has(key)) continue;
      try {
        this.#current.set(key, { fingerprint: entry.fingerprint, handle: this.#register(entry.config()) });
      } catch (error) {
        // A definition the server cannot take (a schema Ajv refuses): that entry only is left out, and said why.
        this.#logger.warn(
          `gateway: upstream "${entry.server}" ${this.#noun} ${JSON.stringify(key.slice(0, 120))} is not served: ${(error as Error).message}`,
        );
      }
    }
  }
}
