// Consent for upstream servers (threat C8, shadow servers; SEP-1024 style): the launch definition of every upstream
// is pinned. On the gateway's very first run (an empty store) each one is trusted and recorded; later, a server not
// seen before, one whose definition changed, or one removed from the config and added again is held — not started —
// until an admin approves it. Like the PinBook, the book reads the store at every check, so an approval made by the
// CLI (another process) counts at the next start.

import type { UpstreamConfig } from '../upstream/index.js';
import { checkExpectedDigest, shortDigest } from './approve-digest.js';
import { unifiedDiff } from './diff.js';
import {
  launchDefinition,
  launchDigest,
  prettyLaunch,
  type LaunchDefinition,
  type LaunchOptions,
} from './launch-definition.js';
import type { ServerPinRecord, ServerPinStore } from './server-types.js';
import { PinError } from './types.js';

export interface ServerPinBookOptions extends LaunchOptions {
  /**
   * A server seen on the gateway's very first run (the store was empty when the book was made): 'trust' (the
   * default) records and starts it; 'hold' holds it like any later one.
   */
  firstRun?: 'trust' | 'hold';
  /** The clock for the record times. Default: Date.now. */
  now?: () => number;
}

/**
 * trusted: seen on the first run (or adopted from a store that predates server pins), recorded and started.
 * match: the approved definition, started. held: not to be started; `why` says new, changed or re-added.
 */
export type ServerVerdict =
  | { kind: 'trusted'; definition: LaunchDefinition; adopted: boolean }
  | { kind: 'match'; definition: LaunchDefinition }
  | {
      kind: 'held';
      why: 'new' | 'changed' | 're-added';
      definition: LaunchDefinition;
      digest: string;
      /** What changed: a unified diff of the canonical definitions (secrets only as hashes). */
      diff: string;
    };

/** Why a held record is held: never approved, changed, or back after a removal. */
export function heldWhy(record: ServerPinRecord): 'new' | 'changed' | 're-added' {
  if (record.digest === '') return 'new';
  return record.removedAt !== undefined ? 're-added' : 'changed';
}

/** The diff an admin reads for a held server: approved definition (or nothing) → configured one. */
export function serverDiff(record: ServerPinRecord): string | undefined {
  if (record.state !== 'held' || record.pending === undefined) return undefined;
  const before = record.digest === '' ? '' : prettyLaunch(record.definition);
  const diff = unifiedDiff(before, prettyLaunch(record.pending.definition), {
    oldLabel: `${record.server} approved (sha256 ${shortDigest(record.digest)})`,
    newLabel: `${record.server} configured now (sha256 ${shortDigest(record.pending.digest)})`,
  });
  if (diff !== '') return diff;
  return `${record.server}: configured as approved (sha256 ${shortDigest(record.digest)}), but it was removed from the config at ${record.removedAt ?? 'some time'} and added again, so it is held until approved`;
}

export class ServerPinBook {
  readonly #store: ServerPinStore;
  readonly #now: () => number;
  readonly #launch: LaunchOptions;
  /** Made on an empty store under firstRun 'trust': every server checked through this book is trusted. */
  readonly #firstRun: boolean;
  /** A store from before server pins (tools pinned, no server recorded): those servers ran, and are adopted. */
  readonly #adoptable: ReadonlySet<string>;

  constructor(store: ServerPinStore, options: ServerPinBookOptions = {}) {
    this.#store = store;
    this.#now = options.now ?? Date.now;
    this.#launch = options.baseDir === undefined ? {} : { baseDir: options.baseDir };
    const trustFirst = (options.firstRun ?? 'trust') === 'trust';
    this.#firstRun = trustFirst && store.empty();
    this.#adoptable =
      trustFirst && !this.#firstRun && store.listServers().length === 0
        ? new Set(store.toolServers())
        : new Set();
  }

  /** Whether this book was made on an empty store (the gateway's very first run) and trusts what it sees first. */
  get firstRun(): boolean {
    return this.#firstRun;
  }

  /** The launch definition of `config` as this book pins it (cwd resolved against the book's baseDir). */
  definition(config: UpstreamConfig): LaunchDefinition {
    return launchDefinition(config, this.#launch);
  }

  /**
   * The verdict on starting `config` now. A record is written when something is learnt: a trusted server is
   * recorded, and a held one is stored as held with what is configured as pending, for `toolwire pins approve`.
   */
  check(config: UpstreamConfig): ServerVerdict {
    const definition = this.definition(config);
    const digest = launchDigest(definition);
    const record = this.#store.getServer(config.name);
    const now = new Date(this.#now()).toISOString();
    if (record === undefined) {
      const adopted = this.#adoptable.has(config.name);
      if (this.#firstRun || adopted) {
        this.#store.putServer({ server: config.name, digest, definition, state: 'pinned', firstSeen: now });
        return { kind: 'trusted', definition, adopted };
      }
      return this.#hold(
        { server: config.name, digest: '', definition, state: 'held', firstSeen: now },
        definition,
        digest,
        now,
      );
    }
    if (record.state === 'pinned' && record.digest === digest) return { kind: 'match', definition };
    if (record.state === 'held' && record.digest === digest && record.removedAt === undefined) {
      // The config went back to the approved definition (an unwanted change undone): that is what was consented to.
      const { pending: _pending, ...approved } = record;
      this.#store.putServer({ ...approved, state: 'pinned' });
      return { kind: 'match', definition };
    }
    if (record.state === 'held' && record.pending?.digest === digest) {
      return { kind: 'held', why: heldWhy(record), definition, digest, diff: serverDiff(record) ?? '' };
    }
    // A removed record keeps its removedAt (so it is held as re-added); a pinned one never has one.
    return this.#hold(record, definition, digest, now);
  }

  #hold(record: ServerPinRecord, definition: LaunchDefinition, digest: string, now: string): ServerVerdict {
    const held: ServerPinRecord = {
      ...record,
      state: 'held',
      changedAt: now,
      pending: { digest, definition },
    };
    this.#store.putServer(held);
    return { kind: 'held', why: heldWhy(held), definition, digest, diff: serverDiff(held) ?? '' };
  }

  /**
   * Marks every recorded server not in `configured` as removed (a held one too: what was pending is dropped), so
   * that adding it again asks for consent again. Returns the names marked now.
   */
  retire(configured: Iterable<string>): string[] {
    const present = new Set(configured);
    const now = new Date(this.#now()).toISOString();
    const marked: string[] = [];
    for (const record of this.#store.listServers()) {
      if (present.has(record.server) || record.state === 'removed') continue;
      const { pending: _pending, ...rest } = record;
      this.#store.putServer({ ...rest, state: 'removed', removedAt: now });
      marked.push(record.server);
    }
    return marked;
  }

  /**
   * Adopts the pending definition of a held server: it is pinned and will be started. With `expectedDigest`, only if
   * the pending definition is still that one (the one the admin read).
   */
  approve(server: string, expectedDigest?: string): ServerPinRecord {
    const record = this.#store.getServer(server);
    if (record === undefined) throw new PinError('unknown-server', `no pinned server ${server}`);
    if (record.state !== 'held' || record.pending === undefined) {
      throw new PinError(
        'not-held',
        record.state === 'removed'
          ? `${server} is not held: it was removed from the config; it is held when it comes back, then approve it`
          : `${server} is not held: its pinned definition is the one configured`,
      );
    }
    checkExpectedDigest(server, 'configured', record.pending.digest, expectedDigest);
    const approved: ServerPinRecord = {
      server,
      digest: record.pending.digest,
      definition: record.pending.definition,
      state: 'pinned',
      firstSeen: record.firstSeen,
      ...(record.changedAt !== undefined && { changedAt: record.changedAt }),
    };
    this.#store.putServer(approved);
    return approved;
  }

  record(server: string): ServerPinRecord | undefined {
    return this.#store.getServer(server);
  }

  held(): ServerPinRecord[] {
    return this.#store.listServers().filter((record) => record.state === 'held');
  }

  /** The diff of a held server; undefined when it is unknown or not held. */
  diff(server: string): string | undefined {
    const record = this.#store.getServer(server);
    return record === undefined ? undefined : serverDiff(record);
  }
}
