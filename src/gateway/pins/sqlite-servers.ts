// The server table of the SQLite pin store (threat C8): one row per upstream name with its approved launch
// definition, added by schema version 2; a version 1 file gains the table when opened.

import { canonicalJson } from '../../policy/audit/chain.js';
import type { LaunchDefinition } from './launch-definition.js';
import { compare } from './memory-store.js';
import type { ServerPinRecord, ServerPinStore } from './server-types.js';
import type { Database } from './sqlite-types.js';
import { PinError } from './types.js';

/** The table schema version 2 adds (version 1 had only `pins`, the tools). */
export const SERVERS_TABLE = `CREATE TABLE IF NOT EXISTS servers (server TEXT NOT NULL PRIMARY KEY,
  digest TEXT NOT NULL, definition TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pinned', 'held', 'removed')),
  first_seen TEXT NOT NULL, changed_at TEXT, removed_at TEXT, pending_digest TEXT, pending_definition TEXT);`;

interface Row {
  server: string;
  digest: string;
  definition: string;
  state: string;
  first_seen: string;
  changed_at: string | null;
  removed_at: string | null;
  pending_digest: string | null;
  pending_definition: string | null;
}

const COLUMNS =
  'server, digest, definition, state, first_seen, changed_at, removed_at, pending_digest, pending_definition';

const STATES = new Set(['pinned', 'held', 'removed']);

/** The server methods of a store on `db` (whose schema is at version 2 already). */
export function serverTable(db: Database, file: string, maxServers: number): ServerPinStore {
  const parse = (text: string): LaunchDefinition => {
    try {
      return JSON.parse(text) as LaunchDefinition; // written by putServer from a LaunchDefinition
    } catch {
      throw new PinError(
        'store',
        `the pin store ${file} holds a server definition that is not JSON (edited by hand?)`,
      );
    }
  };
  const select = db.prepare(`SELECT ${COLUMNS} FROM servers WHERE server = ?`);
  const selectAll = db.prepare(`SELECT ${COLUMNS} FROM servers`);
  const count = db.prepare('SELECT COUNT(*) AS n FROM servers');
  const anyTool = db.prepare('SELECT 1 FROM pins LIMIT 1');
  const anyServer = db.prepare('SELECT 1 FROM servers LIMIT 1');
  const toolServers = db.prepare('SELECT DISTINCT server FROM pins ORDER BY server');
  const evictRemoved = db.prepare(
    `DELETE FROM servers WHERE rowid IN (SELECT rowid FROM servers WHERE state = 'removed' ORDER BY removed_at LIMIT 1)`,
  );
  const upsert = db.prepare(
    `INSERT INTO servers (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (server) DO UPDATE SET digest = excluded.digest, definition = excluded.definition,
       state = excluded.state, first_seen = excluded.first_seen, changed_at = excluded.changed_at,
       removed_at = excluded.removed_at, pending_digest = excluded.pending_digest,
       pending_definition = excluded.pending_definition`,
  );
  const fromRow = (row: Row): ServerPinRecord => {
    if (!STATES.has(row.state)) {
      throw new PinError(
        'store',
        `the pin store ${file} holds a server in an unknown state (edited by hand?)`,
      );
    }
    return {
      server: row.server,
      digest: row.digest,
      definition: parse(row.definition),
      state: row.state as ServerPinRecord['state'], // checked against STATES above
      firstSeen: row.first_seen,
      ...(row.changed_at !== null && { changedAt: row.changed_at }),
      ...(row.removed_at !== null && { removedAt: row.removed_at }),
      ...(row.pending_digest !== null &&
        row.pending_definition !== null && {
          pending: { digest: row.pending_digest, definition: parse(row.pending_definition) },
        }),
    };
  };
  return {
    getServer: (server) => {
      const row = select.get(server) as Row | undefined;
      return row === undefined ? undefined : fromRow(row);
    },
    putServer: (record) => {
      if (select.get(record.server) === undefined) {
        const { n } = count.get() as { n: number };
        if (n >= maxServers && evictRemoved.run().changes !== 1) {
          throw new PinError(
            'full',
            `the pin store ${file} holds ${maxServers} servers already; no more are pinned`,
          );
        }
      }
      upsert.run(
        record.server,
        record.digest,
        canonicalJson(record.definition),
        record.state,
        record.firstSeen,
        record.changedAt ?? null,
        record.removedAt ?? null,
        record.pending?.digest ?? null,
        record.pending === undefined ? null : canonicalJson(record.pending.definition),
      );
    },
    listServers: () => (selectAll.all() as Row[]).map(fromRow).sort((a, b) => compare(a.server, b.server)),
    empty: () => anyTool.get() === undefined && anyServer.get() === undefined,
    toolServers: () =>
      (toolServers.all() as Array<{ server: string }>).map((row) => row.server).sort(compare),
  };
}
