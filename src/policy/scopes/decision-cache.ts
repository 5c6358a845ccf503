// Scope decisions memoised per caller object and target object, bounded: callers with the same scopes share one
// profile (a new token with the usual scopes reuses what the last one computed), and each profile keeps a bounded
// number of decisions.

import type { Caller } from '../../protocol/index.js';
import type { Target } from '../../server/index.js';
import { EXEMPT, type Decision, type RuleIndex } from './decide.js';
import { expandHeld } from './implied-scopes.js';

/** How much the decision cache may hold. */
export interface ScopeCacheLimits {
  /** Distinct scope sets kept (least recently seen first out). Default 256. */
  readonly scopeSets?: number;
  /** Decisions kept per scope set (oldest first out). Default 4,096. */
  readonly decisionsPerSet?: number;
}

interface Profile {
  readonly held: ReadonlySet<string>;
  readonly decisions: Map<Target, Decision>;
  /** False once evicted: its callers look their scope set up again, so evicted decisions are never kept. */
  live: boolean;
}

// An exempt caller needs no decisions: one shared marker profile.
const EXEMPT_PROFILE: Profile = { held: new Set<string>(), decisions: new Map(), live: true };

export class DecisionCache {
  readonly #index: RuleIndex;
  readonly #exempt: ((caller: Caller) => boolean) | undefined;
  readonly #implied: ReadonlyMap<string, readonly string[]>;
  readonly #maxSets: number;
  readonly #maxDecisions: number;
  // Weak: a caller's profile lives as long as the caller object (a session's, a cached token's).
  readonly #byCaller = new WeakMap<Caller, Profile>();
  // Insertion order is recency: the first key is the scope set seen least recently.
  readonly #bySet = new Map<string, Profile>();

  constructor(
    index: RuleIndex,
    exempt: ((caller: Caller) => boolean) | undefined,
    limits: ScopeCacheLimits,
    implied: ReadonlyMap<string, readonly string[]> = new Map(),
  ) {
    this.#index = index;
    this.#exempt = exempt;
    this.#implied = implied;
    this.#maxSets = limits.scopeSets ?? 256;
    this.#maxDecisions = limits.decisionsPerSet ?? 4096;
  }

  decide(caller: Caller, target: Target): Decision {
    const profile = this.#profile(caller);
    if (profile === EXEMPT_PROFILE) return EXEMPT;
    let found = profile.decisions.get(target);
    if (found === undefined) {
      found = this.#index.decide(profile.held, target);
      if (profile.decisions.size >= this.#maxDecisions) {
        profile.decisions.delete(profile.decisions.keys().next().value as Target); // size > 0 here
      }
      profile.decisions.set(target, found);
    }
    return found;
  }

  /** What the cache holds (tests and diagnostics). */
  stats(): { scopeSets: number; decisions: number } {
    let decisions = 0;
    for (const profile of this.#bySet.values()) decisions += profile.decisions.size;
    return { scopeSets: this.#bySet.size, decisions };
  }

  #profile(caller: Caller): Profile {
    let profile = this.#byCaller.get(caller);
    if (profile?.live === true) return profile;
    if (this.#exempt?.(caller) === true) {
      profile = EXEMPT_PROFILE;
    } else {
      // Only strings count as held scopes, whatever an authenticator put there; a broad scope adds what it implies.
      const raw: readonly unknown[] = Array.isArray(caller.scopes) ? caller.scopes : [];
      const strings = raw.filter((scope): scope is string => typeof scope === 'string');
      const held = [...expandHeld(strings, this.#implied)].sort();
      const key = JSON.stringify(held);
      profile = this.#bySet.get(key);
      if (profile !== undefined) {
        this.#bySet.delete(key);
      } else {
        profile = { held: new Set(held), decisions: new Map(), live: true };
        if (this.#bySet.size >= this.#maxSets) this.#evictOldest();
      }
      this.#bySet.set(key, profile);
    }
    this.#byCaller.set(caller, profile);
    return profile;
  }

  // The total stays within scopeSets × decisionsPerSet: an evicted profile drops its decisions at once, even while
  // callers still point at it.
  #evictOldest(): void {
    const [key, oldest] = this.#bySet.entries().next().value as [string, Profile]; // called only when full
    this.#bySet.delete(key);
    oldest.live = false;
    oldest.decisions.clear();
  }
}
