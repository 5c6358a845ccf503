// Trust on first use for tool definitions (threat C2, rug pulls): a definition seen first is pinned; a later,
// different one quarantines the tool — with the pending definition and a diff kept — until an admin approves it.
// The book keeps no state of its own but a count of records per server (each server's share of the store): every
// check reads the store, so an approval made by another process (the CLI) counts at the next check.

import type { Tool } from '../../protocol/index.js';
import { definitionDigest, pinnedDefinition, prettyDefinition } from './digest.js';
import { checkExpectedDigest, shortDigest } from './approve-digest.js';
import { unifiedDiff } from './diff.js';
import { MAX_PINS_PER_SERVER, PinError, type PinRecord, type PinStore, type PinVerdict } from './types.js';

export interface PinBookOptions {
  /**
   * A (server, tool) never seen before: 'trust' (the default) pins it and allows it; 'quarantine' holds it, like a
   * changed one, until approved.
   */
  firstUse?: 'trust' | 'quarantine';
  /** The clock for firstSeen and changedAt. Default: Date.now. */
  now?: () => number;
  /** Records one server may have at most; its new names beyond are held back. Default MAX_PINS_PER_SERVER. */
  maxPerServer?: number;
}

/** A server at its share is counted again in the store at most this often (records may have gone meanwhile). */
const RECOUNT_MS = 1000;
/** Servers whose count is remembered (a gateway has its configured few; the CLI pins every server it is pointed at). */
const MAX_COUNTED_SERVERS = 1024;

/** How a tool is named in diffs and messages: the gateway's exposed form when the server name allows it. */
export const pinName = (server: string, tool: string): string =>
  /^[A-Za-z0-9_-]+$/.test(server) && !server.includes('___') ? `${server}___${tool}` : `${server} ${tool}`;

/** The diff an admin reads: approved definition (or nothing) → pending one, as indented canonical JSON. */
export function recordDiff(record: PinRecord): string | undefined {
  if (record.state !== 'quarantined' || record.pending === undefined) return undefined;
  const name = pinName(record.server, record.tool);
  const before = record.digest === '' ? '' : prettyDefinition(record.definition);
  const after = prettyDefinition(record.pending.definition);
  const diff = unifiedDiff(before, after, {
    oldLabel: `${name} approved (sha256 ${shortDigest(record.digest)})`,
    newLabel: `${name} served now (sha256 ${shortDigest(record.pending.digest)})`,
  });
  // Changed, then changed back: what is served is the approved definition again, yet the quarantine holds.
  return diff === ''
    ? `${name}: served as approved again (sha256 ${shortDigest(record.digest)}); it changed in between, so it stays quarantined until approved`
    : diff;
}

/** What admit() makes of one upstream's listing. */
export interface Admission {
  /** The tools to list and let be called ('new' and 'match'), in the order given. */
  allowed: Tool[];
  /** Names seen for the first time (pinned now, under firstUse 'trust'). */
  added: string[];
  /** Tools held back: quarantined ('changed', detail = the diff), or not checkable ('error', detail = why). */
  held: Array<{ tool: string; reason: 'changed' | 'error'; detail: string }>;
}

/** Diffs kept per PinBook: a quarantined tool is re-checked at every listing, and its diff costs a table to make. */
const MAX_CACHED_DIFFS = 512;

export class PinBook {
  readonly #store: PinStore;
  readonly #diffs = new Map<string, string>();
  readonly #firstUse: 'trust' | 'quarantine';
  readonly #now: () => number;
  readonly #maxPerServer: number;
  /** Records per server as last counted, and when: the store is counted once per server, then when at the share. */
  readonly #counts = new Map<string, { n: number; at: number }>();

  constructor(store: PinStore, options: PinBookOptions = {}) {
    this.#store = store;
    this.#firstUse = options.firstUse ?? 'trust';
    this.#now = options.now ?? Date.now;
    this.#maxPerServer = options.maxPerServer ?? MAX_PINS_PER_SERVER;
  }

  /**
   * The verdict on what `server` serves as `tool` now. 'new' and 'match' allow it; 'changed' means quarantined (it is
   * stored so, with the served definition as pending): hide it and refuse calls until approve().
   */
  check(server: string, tool: Tool): PinVerdict {
    const digest = definitionDigest(tool);
    const record = this.#store.get(server, tool.name);
    const at = this.#now();
    const now = new Date(at).toISOString();
    if (record === undefined) {
      this.#claimShare(server, tool.name, at);
      const definition = pinnedDefinition(tool);
      if (this.#firstUse === 'trust') {
        this.#store.put({ server, tool: tool.name, digest, definition, state: 'pinned', firstSeen: now });
        return { kind: 'new' };
      }
      return this.#quarantine(
        { server, tool: tool.name, digest: '', definition, state: 'pinned', firstSeen: now },
        digest,
        definition,
        now,
      );
    }
    if (record.state === 'pinned' && record.digest === digest) return { kind: 'match' };
    if (record.state === 'quarantined' && record.pending?.digest === digest) {
      return { kind: 'changed', diff: this.#diffOf(record) };
    }
    return this.#quarantine(record, digest, pinnedDefinition(tool), now);
  }

  /** Counts a new record of `server` in; throws PinError 'full' when the server has its share already. */
  #claimShare(server: string, tool: string, now: number): void {
    let known = this.#counts.get(server);
    if (known === undefined || (known.n >= this.#maxPerServer && now - known.at >= RECOUNT_MS)) {
      known = { n: this.#store.count(server), at: now };
      if (this.#counts.size >= MAX_COUNTED_SERVERS) this.#counts.clear(); // counted again when next needed
      this.#counts.set(server, known);
    }
    if (known.n >= this.#maxPerServer) {
      throw new PinError(
        'full',
        `${server} has ${known.n} pinned tools already, its share of the pin store (${this.#maxPerServer}): ${JSON.stringify(tool)}, new, is not pinned`,
      );
    }
    known.n += 1;
  }

  #quarantine(record: PinRecord, digest: string, definition: Tool, now: string): PinVerdict {
    const held: PinRecord = {
      ...record,
      state: 'quarantined',
      changedAt: now,
      pending: { digest, definition },
    };
    this.#store.put(held);
    return { kind: 'changed', diff: this.#diffOf(held) };
  }

  /** recordDiff, remembered by both digests (the same pair always gives the same diff); bounded, oldest out first. */
  #diffOf(record: PinRecord): string {
    const key = `${record.server}\0${record.tool}\0${record.digest}\0${record.pending?.digest ?? ''}`;
    const known = this.#diffs.get(key);
    if (known !== undefined) return known;
    const diff = recordDiff(record) ?? '';
    if (this.#diffs.size >= MAX_CACHED_DIFFS) this.#diffs.delete(this.#diffs.keys().next().value ?? '');
    this.#diffs.set(key, diff);
    return diff;
  }

  /**
   * Adopts the pending definition of a quarantined tool: it becomes the pinned one and the tool is released. With
   * `expectedDigest`, only if the pending definition is still that one (the one the admin read in the diff).
   */
  approve(server: string, tool: string, expectedDigest?: string): PinRecord {
    const record = this.#store.get(server, tool);
    const name = pinName(server, tool);
    if (record === undefined) throw new PinError('unknown-tool', `no pinned tool ${name}`);
    if (record.state !== 'quarantined' || record.pending === undefined) {
      throw new PinError(
        'not-quarantined',
        `${name} is not quarantined: its pinned definition is the one served`,
      );
    }
    checkExpectedDigest(name, 'pending', record.pending.digest, expectedDigest);
    const approved: PinRecord = {
      server,
      tool,
      digest: record.pending.digest,
      definition: record.pending.definition,
      state: 'pinned',
      firstSeen: record.firstSeen,
      ...(record.changedAt !== undefined && { changedAt: record.changedAt }),
    };
    this.#store.put(approved);
    return approved;
  }

  /**
   * check() over one upstream's listing, failing closed: a tool whose check throws (a full or broken store) is held
   * back, not allowed, and the error is in `held` for the log.
   */
  admit(server: string, tools: readonly Tool[]): Admission {
    const admission: Admission = { allowed: [], added: [], held: [] };
    for (const tool of tools) {
      let verdict: PinVerdict;
      try {
        verdict = this.check(server, tool);
      } catch (error) {
        admission.held.push({ tool: tool.name, reason: 'error', detail: (error as Error).message });
        continue;
      }
      if (verdict.kind === 'changed') {
        admission.held.push({ tool: tool.name, reason: 'changed', detail: verdict.diff });
        continue;
      }
      if (verdict.kind === 'new') admission.added.push(tool.name);
      admission.allowed.push(tool);
    }
    return admission;
  }

  /** The record of one tool, as stored (undefined when never seen). */
  record(server: string, tool: string): PinRecord | undefined {
    return this.#store.get(server, tool);
  }

  quarantined(): PinRecord[] {
    return this.#store.list().filter((record) => record.state === 'quarantined');
  }

  /** The diff of a quarantined tool; undefined when it is unknown or not quarantined. */
  diff(server: string, tool: string): string | undefined {
    const record = this.#store.get(server, tool);
    if (record?.state !== 'quarantined' || record.pending === undefined) return undefined;
    return this.#diffOf(record);
  }
}
