// What the pins part stores and answers (threat C2, rug pulls): a record per (server, tool), its state, and the
// verdict a check gives. The stores (memory, SQLite) and the PinBook share these shapes.

import type { Tool } from '../../protocol/index.js';

export type PinState = 'pinned' | 'quarantined';

export interface PinRecord {
  server: string;
  tool: string;
  /** SHA-256 (hex) of the approved definition; '' when nothing was ever approved (first use under 'quarantine'). */
  digest: string;
  /** The approved definition (only the pinned fields); the first one seen when `digest` is ''. */
  definition: Tool;
  state: PinState;
  /** ISO time the (server, tool) key was first seen. */
  firstSeen: string;
  /** ISO time the served definition last moved away from the approved one. */
  changedAt?: string;
  /** What the server serves now, while quarantined: approve() adopts it. */
  pending?: { digest: string; definition: Tool };
}

export interface PinStore {
  get(server: string, tool: string): PinRecord | undefined;
  put(record: PinRecord): void;
  /** How many records `server` has. */
  count(server: string): number;
  /** Every record, sorted by server then tool (code-unit order). */
  list(): PinRecord[];
  close(): void;
}

export type PinVerdict = { kind: 'new' } | { kind: 'match' } | { kind: 'changed'; diff: string };

/** A local error (string code, never sent on the wire as is). */
export class PinError extends Error {
  readonly code:
    | 'unknown-tool'
    | 'not-quarantined'
    | 'unknown-server'
    | 'not-held'
    | 'digest-mismatch'
    | 'store'
    | 'full'
    | 'config';
  constructor(code: PinError['code'], message: string) {
    super(message);
    this.name = 'PinError';
    this.code = code;
  }
}

/** The most records a store holds: far above any real catalogue, low enough that a flood of names cannot fill a disk. */
export const MAX_PIN_RECORDS = 100_000;
/**
 * The most records one server gets in a PinBook (the gateway gives its `limits.maxTools`): a flood of new names from
 * one upstream fills its own share, not the store that every upstream's new tools need.
 */
export const MAX_PINS_PER_SERVER = 10_000;
