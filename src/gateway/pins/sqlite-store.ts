// The pin store in one SQLite file (better-sqlite3, WAL), the way the audit store keeps its trail: created 0600 in a
// directory created 0700, refused in a directory anyone may write, schema versioned, closed before the process exits.

import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, resolve } from 'node:path';
import type { Tool } from '../../protocol/index.js';
import { canonicalJson } from '../../policy/audit/chain.js';
import { compare } from './memory-store.js';
import type { ServerPinStore } from './server-types.js';
import { MAX_SERVER_RECORDS } from './server-types.js';
import { SERVERS_TABLE, serverTable } from './sqlite-servers.js';
import type { Database } from './sqlite-types.js';
import { keepStatements } from '../../policy/audit/sqlite-keep.js';
import { MAX_PIN_RECORDS, PinError, type PinRecord, type PinStore } from './types.js';
import { sqliteDirectoryProblem } from '../../sqlite-directory.js';

type DatabaseConstructor = new (
  path: string,
  options?: { fileMustExist?: boolean; timeout?: number },
) => Database;

const load = (): DatabaseConstructor =>
  createRequire(import.meta.url)('better-sqlite3') as DatabaseConstructor; // CommonJS, typed by the interface above

/**
 * The schema this code writes (PRAGMA user_version). A file of a newer version is refused, never rewritten.
 * 1: the tools (`pins`). 2: and the servers (`servers`, threat C8); a version 1 file gains that table when opened.
 */
export const PIN_SCHEMA_VERSION = 2;

export interface PinStoreOptions {
  /** Open an existing store only (the CLI): a missing file is an error, and nothing is created. */
  mustExist?: boolean;
  /** The most records kept; a new key beyond it is refused (or see `evict`). Default MAX_PIN_RECORDS. */
  maxRecords?: number;
  /** The most server records kept (the longest-removed one makes room). Default MAX_SERVER_RECORDS. */
  maxServers?: number;
  /**
   * When full, make room by forgetting a pinned (never a quarantined) record instead of refusing: the one first seen
   * longest ago of the server holding the most records, so that a server flooding the store with names forgets its
   * own pins, never another's (whose forgotten tool would be pinned afresh, changed or not: C2). For a client's own
   * store, where a forgotten tool is only pinned afresh when seen again.
   */
  evict?: boolean;
}

interface Row {
  server: string;
  tool: string;
  digest: string;
  definition: string;
  state: string;
  first_seen: string;
  changed_at: string | null;
  pending_digest: string | null;
  pending_definition: string | null;
}

const COLUMNS =
  'server, tool, digest, definition, state, first_seen, changed_at, pending_digest, pending_definition';

/** Why a directory may not hold the store, or undefined: whoever may write it can swap the file for their own. */
/** The file's schema version (PRAGMA user_version), read through a kept statement (see sqlite-keep). */
const userVersion = (db: Database): number =>
  (db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version;

const parseTool = (text: string, file: string): Tool => {
  try {
    return JSON.parse(text) as Tool; // written by put() from a Tool
  } catch {
    throw new PinError(
      'store',
      `the pin store ${file} holds a definition that is not JSON (edited by hand?)`,
    );
  }
};

/** Opens (creating unless mustExist) the SQLite pin store at `path`. */
export function openPinStore(path: string, options: PinStoreOptions = {}): PinStore & ServerPinStore {
  const file = resolve(path);
  const maxRecords = options.maxRecords ?? MAX_PIN_RECORDS;
  if (options.mustExist === true && !existsSync(file)) {
    throw new PinError('store', `no pin store at ${file} (nothing was pinned there yet)`);
  }
  if (options.mustExist !== true) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const problem = sqliteDirectoryProblem(dirname(file), 'the pin store', 'the pins');
  if (problem !== undefined) throw new PinError('store', problem);
  if (options.mustExist !== true) {
    closeSync(openSync(file, 'a', 0o600)); // created 0600 before SQLite opens it; its -wal and -shm take its mode
    chmodSync(file, 0o600);
  }
  const Sqlite = load();
  let db: Database;
  try {
    db = keepStatements(new Sqlite(file, { fileMustExist: true, timeout: 5_000 }));
  } catch (error) {
    throw new PinError('store', `cannot open the pin store ${file}: ${(error as Error).message}`);
  }
  // As the audit store: a database still open when the process exits is closed while Node's environment is alive;
  // left to the garbage collector, its statements' finalizers run after teardown and abort the process on Node 24.
  const onExit = (): void => {
    if (db.open) db.close();
  };
  process.once('exit', onExit);
  try {
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = NORMAL');
    const version = userVersion(db);
    if (version > PIN_SCHEMA_VERSION) {
      throw new PinError(
        'store',
        `the pin store ${file} has schema version ${version}, newer than this toolwire's (${PIN_SCHEMA_VERSION}): upgrade toolwire`,
      );
    }
    if (version === 0) {
      if (options.mustExist === true) throw new PinError('store', `${file} is not a toolwire pin store`);
      db.exec(
        `CREATE TABLE IF NOT EXISTS pins (server TEXT NOT NULL, tool TEXT NOT NULL, digest TEXT NOT NULL,
           definition TEXT NOT NULL, state TEXT NOT NULL CHECK (state IN ('pinned', 'quarantined')),
           first_seen TEXT NOT NULL, changed_at TEXT, pending_digest TEXT, pending_definition TEXT,
           PRIMARY KEY (server, tool));
         ${SERVERS_TABLE}
         PRAGMA user_version = ${PIN_SCHEMA_VERSION};`,
      );
    } else if (version === 1) {
      // Forward, in one transaction: a second process opening the file meanwhile sees version 1 or 2, never half.
      db.transaction(() => {
        if (userVersion(db) !== 1) return;
        db.exec(`${SERVERS_TABLE} PRAGMA user_version = ${PIN_SCHEMA_VERSION};`);
      })();
    }
  } catch (error) {
    process.off('exit', onExit);
    db.close();
    if (error instanceof PinError) throw error;
    throw new PinError('store', `cannot use the pin store ${file}: ${(error as Error).message}`);
  }
  // Prepared once: statements made per call would pile up for the garbage collector (see onExit).
  const select = db.prepare(`SELECT ${COLUMNS} FROM pins WHERE server = ? AND tool = ?`);
  const selectAll = db.prepare(`SELECT ${COLUMNS} FROM pins`);
  const count = db.prepare('SELECT COUNT(*) AS n FROM pins');
  const countServer = db.prepare('SELECT COUNT(*) AS n FROM pins WHERE server = ?');
  const exists = db.prepare('SELECT 1 FROM pins WHERE server = ? AND tool = ?');
  const evictOldest = db.prepare(
    `DELETE FROM pins WHERE rowid IN (SELECT rowid FROM pins WHERE state = 'pinned' AND server =
       (SELECT server FROM pins WHERE state = 'pinned' GROUP BY server ORDER BY COUNT(*) DESC, server LIMIT 1)
     ORDER BY first_seen LIMIT 1)`,
  );
  const upsert = db.prepare(
    `INSERT INTO pins (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (server, tool) DO UPDATE SET digest = excluded.digest, definition = excluded.definition,
       state = excluded.state, first_seen = excluded.first_seen, changed_at = excluded.changed_at,
       pending_digest = excluded.pending_digest, pending_definition = excluded.pending_definition`,
  );
  const fromRow = (row: Row): PinRecord => ({
    server: row.server,
    tool: row.tool,
    digest: row.digest,
    definition: parseTool(row.definition, file),
    state: row.state === 'quarantined' ? 'quarantined' : 'pinned',
    firstSeen: row.first_seen,
    ...(row.changed_at !== null && { changedAt: row.changed_at }),
    ...(row.pending_digest !== null &&
      row.pending_definition !== null && {
        pending: { digest: row.pending_digest, definition: parseTool(row.pending_definition, file) },
      }),
  });
  const servers = serverTable(db, file, options.maxServers ?? MAX_SERVER_RECORDS);
  return {
    ...servers,
    count: (server) => (countServer.get(server) as { n: number }).n,
    get: (server, tool) => {
      const row = select.get(server, tool) as Row | undefined;
      return row === undefined ? undefined : fromRow(row);
    },
    put: (record) => {
      if (exists.get(record.server, record.tool) === undefined) {
        const { n } = count.get() as { n: number };
        if (n >= maxRecords && !(options.evict === true && evictOldest.run().changes === 1)) {
          throw new PinError(
            'full',
            `the pin store ${file} holds ${maxRecords} tools already; no more are pinned`,
          );
        }
      }
      upsert.run(
        record.server,
        record.tool,
        record.digest,
        canonicalJson(record.definition),
        record.state,
        record.firstSeen,
        record.changedAt ?? null,
        record.pending?.digest ?? null,
        record.pending === undefined ? null : canonicalJson(record.pending.definition),
      );
    },
    list: () =>
      (selectAll.all() as Row[])
        .map(fromRow)
        .sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool)),
    close: () => {
      process.off('exit', onExit);
      if (db.open) db.close();
    },
  };
}
