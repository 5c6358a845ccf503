// What the pin store keeps per upstream server (threat C8, shadow servers): its approved launch definition, whether
// it is held (new, changed or re-added, not to be started until approved) or was removed from the config.

import type { LaunchDefinition } from './launch-definition.js';

/**
 * pinned: approved (or trusted on the first run), started. held: not to be started until `toolwire pins approve`.
 * removed: no longer in the config; it counts as new if it comes back (approvals are of a server continuously
 * configured under its name with its definition).
 */
export type ServerPinState = 'pinned' | 'held' | 'removed';

export interface ServerPinRecord {
  /** The mcpServers key. */
  server: string;
  /** SHA-256 (hex) of the approved definition's canonical JSON; '' when none was ever approved. */
  digest: string;
  /** The approved definition; the first one seen when `digest` is ''. */
  definition: LaunchDefinition;
  state: ServerPinState;
  /** ISO time the server name was first seen. */
  firstSeen: string;
  /** ISO time the configured definition last moved away from the approved one (or it was held). */
  changedAt?: string;
  /** ISO time it was found missing from the config; kept while it is held after coming back. */
  removedAt?: string;
  /** What the config says now, while held: approve() adopts it. */
  pending?: { digest: string; definition: LaunchDefinition };
}

/** The server half of a pin store; both stores (memory, SQLite) implement it beside PinStore. */
export interface ServerPinStore {
  getServer(server: string): ServerPinRecord | undefined;
  /** Writes a record; when the store is full, the longest-removed record makes room, else PinError('full'). */
  putServer(record: ServerPinRecord): void;
  /** Every server record, sorted by name (code-unit order). */
  listServers(): ServerPinRecord[];
  /** Whether the store holds no record at all, of a server or of a tool: the gateway's very first run. */
  empty(): boolean;
  /** The server names that have tool pins (a store made before server pins existed: those servers ran). */
  toolServers(): string[];
}

/** The most server records kept: configs hold tens; removals accumulate, and the oldest of them go first. */
export const MAX_SERVER_RECORDS = 10_000;
