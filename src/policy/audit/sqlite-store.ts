// The embedded audit store: one SQLite file (better-sqlite3) in WAL mode, created 0600 in a directory created 0700.

import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { GENESIS_HASH, chainEntries } from './chain.js';
import { Checkpointer, WRITER_CHECKPOINT_PAGES } from './sqlite-checkpointer.js';
import { loadSqlite, type Database, type Statement } from './sqlite-driver.js';
import { QUEUE_TABLE, QueueApplier, type QueuePosition } from './sqlite-queue-apply.js';
import { keepStatements } from './sqlite-keep.js';
import { COLUMN_LIST, COLUMNS, columnDefinitions, filterSql, fromRow, rowValues } from './columns.js';
import type { AuditEntry, AuditFilter, AuditRecord, AuditStore, ChainHead, PruneRule } from './types.js';
import { sqliteDirectoryProblem } from '../../sqlite-directory.js';

export interface SqliteStoreOptions {
  /**
   * "normal" (the default): a commit is in the operating system before it returns, so a killed process loses no
   * record; a power cut may lose the last commits (never corrupt). "full": each commit is fsynced too, which also
   * survives a power cut but holds the event loop for the disk's flush (milliseconds) on every batch.
   */
  synchronous?: 'normal' | 'full';
  /** Open an existing trail only (the CLI): a missing file is an error, and nothing is created. */
  mustExist?: boolean;
  /**
   * Where WAL checkpoints run: "background" (the default for a trail that writes) in a worker thread, so their
   * fsyncs never stall the event loop; "inline" in whichever commit crosses SQLite's threshold.
   */
  checkpoint?: 'background' | 'inline';
  /** Hears a failed background checkpoint (the first of a run of failures). */
  onCheckpointError?: (message: string) => void;
  /** Hears what applying the record queue skipped or could not do (sqlite-queue.ts), and why. */
  onQueueReport?: (message: string) => void;
  /** How long a write waits for another process's transaction before it fails (default 5,000 ms). */
  busyTimeoutMs?: number;
  /** Store what every record queue next to the file holds as the store opens (default true). */
  recoverQueues?: boolean;
}

interface HeadRow {
  last_id: number;
  last_hash: string;
  pruned_through: number;
  pruned_hash: string;
}

const headOf = (row: HeadRow): ChainHead => ({
  lastId: row.last_id,
  lastHash: row.last_hash,
  prunedThrough: row.pruned_through,
  prunedHash: row.pruned_hash,
});

export class SqliteAuditStore implements AuditStore {
  readonly description: string;
  readonly #db: Database;
  readonly #onExit: () => void;
  readonly #insert: Statement;
  readonly #readHead: Statement;
  readonly #writeHead: Statement;
  readonly #append: (entries: readonly AuditEntry[]) => AuditRecord[];
  readonly #prune: (rule: PruneRule) => number;
  readonly #checkpointer: Checkpointer | undefined;
  /** Applies the record queues next to the file; absent when the trail cannot be written (read-only CLI use). */
  readonly #queue: QueueApplier | undefined;
  readonly #report: (message: string) => void;

  constructor(path: string, options: SqliteStoreOptions = {}) {
    const file = resolve(path);
    this.description = `sqlite ${file}`;
    if (options.mustExist === true && !existsSync(file)) {
      throw new Error(`no audit trail at ${file} (the file does not exist)`);
    }
    if (options.mustExist !== true) mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const problem = sqliteDirectoryProblem(dirname(file), 'the audit trail', 'the audit trail');
    if (problem !== undefined) throw new Error(problem);
    if (options.mustExist !== true) {
      closeSync(openSync(file, 'a', 0o600)); // created 0600 before SQLite opens it; its -wal and -shm take its mode
      chmodSync(file, 0o600);
    }
    const Sqlite = loadSqlite();
    const db = keepStatements(
      new Sqlite(file, { fileMustExist: true, timeout: options.busyTimeoutMs ?? 5_000 }),
    );
    this.#db = db;
    // A database still open when the process exits is closed while Node's environment is alive: left to the
    // garbage collector, its statements' finalizers run after teardown and abort the process on Node 24.
    this.#onExit = () => {
      if (db.open) db.close();
    };
    process.once('exit', this.#onExit);
    db.exec('PRAGMA journal_mode = WAL');
    db.exec(`PRAGMA synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    if (options.mustExist !== true) {
      db.exec(
        `CREATE TABLE IF NOT EXISTS audit (${columnDefinitions('INTEGER', 'REAL')});
         CREATE INDEX IF NOT EXISTS audit_time ON audit (time);
         CREATE INDEX IF NOT EXISTS audit_subject ON audit (subject, id);
         CREATE INDEX IF NOT EXISTS audit_tool ON audit (tool, id);
         CREATE TABLE IF NOT EXISTS audit_head (one INTEGER PRIMARY KEY CHECK (one = 1), last_id INTEGER NOT NULL,
           last_hash TEXT NOT NULL, pruned_through INTEGER NOT NULL, pruned_hash TEXT NOT NULL);
         INSERT OR IGNORE INTO audit_head VALUES (1, 0, '${GENESIS_HASH}', 0, '${GENESIS_HASH}');
         ${QUEUE_TABLE};`,
      );
    }
    this.#report = options.onQueueReport ?? (() => undefined);
    let queues = true;
    if (options.mustExist === true) {
      try {
        db.exec(QUEUE_TABLE); // a trail made before the queue existed gains its table
      } catch {
        queues = false; // read-only: what is queued is for a process that may write to apply
      }
    }
    this.#insert = db.prepare(
      `INSERT INTO audit (${COLUMN_LIST}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
    );
    // Checkpoints move to a thread of their own; the writer's threshold stays, raised, as the bound on the WAL.
    const background = options.mustExist !== true && options.checkpoint !== 'inline';
    if (background) db.exec(`PRAGMA wal_autocheckpoint = ${WRITER_CHECKPOINT_PAGES}`);
    this.#checkpointer = background
      ? new Checkpointer(file, options.onCheckpointError ?? (() => undefined))
      : undefined;
    this.#readHead = db.prepare('SELECT last_id, last_hash, pruned_through, pruned_hash FROM audit_head');
    this.#writeHead = db.prepare(
      'UPDATE audit_head SET last_id = ?, last_hash = ?, pruned_through = ?, pruned_hash = ?',
    );
    const current = (): ChainHead => {
      const row = this.#readHead.get() as HeadRow | undefined;
      if (row === undefined) throw new Error(`${this.description} has no chain head (not an audit trail?)`);
      return headOf(row);
    };
    // IMMEDIATE: the write lock is taken before the head is read, so a second process on the same file waits its
    // turn (busy timeout) instead of chaining from a head that is about to change.
    const appendRecords = (entries: readonly AuditEntry[]): AuditRecord[] => {
      const head = current();
      const records = chainEntries(entries, head.lastId, head.lastHash);
      for (const record of records) this.#insert.run(...rowValues(record));
      const last = records[records.length - 1];
      if (last !== undefined) this.#writeHead.run(last.id, last.hash, head.prunedThrough, head.prunedHash);
      return records;
    };
    this.#append = db.transaction(appendRecords).immediate;
    this.#prune = db.transaction((rule: PruneRule) => {
      const head = current();
      let through = head.prunedThrough;
      if (rule.before !== undefined) {
        // Up to the first row that is young enough: a slow call's row may be older than rows before it.
        const row = db.prepare('SELECT MIN(id) AS id FROM audit WHERE time >= ?').get(rule.before) as {
          id: number | null;
        };
        through = Math.max(through, row.id === null ? head.lastId : row.id - 1);
      }
      if (rule.keepRows !== undefined) through = Math.max(through, head.lastId - rule.keepRows);
      if (through <= head.prunedThrough) return 0;
      const boundary = db.prepare('SELECT hash FROM audit WHERE id = ?').get(through) as
        { hash: string } | undefined;
      if (boundary === undefined)
        throw new Error(`${this.description}: row ${through} is missing; run verify`);
      const removed = db.prepare('DELETE FROM audit WHERE id <= ?').run(through).changes;
      this.#writeHead.run(head.lastId, head.lastHash, through, boundary.hash);
      return removed;
    }).immediate;
    this.#queue = queues ? new QueueApplier(db, file, appendRecords, this.#report) : undefined;
    // What processes that ended left queued (a kill -9 included) is stored before anything else is. A trail that
    // writes must be able to: it does not open otherwise. A reader (the CLI) reads on, and says why.
    if (options.recoverQueues === false) return;
    if (options.mustExist === true) {
      this.#catchUp();
      return;
    }
    try {
      this.#queue?.applyAll();
    } catch (error) {
      this.close().catch(() => undefined);
      throw error;
    }
  }

  /**
   * Stores what the stream `stream` has queued, in at most `steps` transactions of about a MiB each; returns how many
   * records it stored.
   */
  applyQueue(stream: string, steps?: number): number {
    return this.#queue?.apply(stream, steps) ?? 0;
  }

  /** Stores all of a stream whose writer has closed it, then removes its files. */
  finishQueue(stream: string): number {
    return this.#queue?.finish(stream) ?? 0;
  }

  /** Where the stored part of `stream` ends. */
  queuePosition(stream: string): QueuePosition {
    return this.#queue?.position(stream) ?? { segment: 0, offset: 0 };
  }

  /** Before a read or a prune: what every stream has queued so far, so a reader sees each answered call's record. */
  #catchUp(): void {
    try {
      this.#queue?.applyAll();
    } catch (error) {
      this.#report(
        `the record queues of ${this.description} could not be applied: ${(error as Error).message}`,
      );
    }
  }

  async append(entries: readonly AuditEntry[]): Promise<readonly AuditRecord[]> {
    return this.#append(entries);
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    this.#catchUp();
    const { where, order, limit, params } = filterSql(filter, () => '?');
    // LIMIT as a parameter: one statement per filter shape, reused (sqlite-keep keeps every statement).
    const rows = this.#db
      .prepare(`SELECT ${COLUMN_LIST} FROM audit ${where} ORDER BY id ${order} LIMIT ?`)
      .all(...params, limit) as Record<string, unknown>[];
    const records = rows.map(fromRow);
    return order === 'DESC' ? records.reverse() : records;
  }

  async head(): Promise<ChainHead> {
    this.#catchUp();
    const row = this.#readHead.get() as HeadRow | undefined;
    if (row === undefined) throw new Error(`${this.description} has no chain head (not an audit trail?)`);
    return headOf(row);
  }

  async prune(rule: PruneRule): Promise<number> {
    this.#catchUp(); // what was queued before counts, as it would had it been stored at once
    return this.#prune(rule);
  }

  async close(): Promise<void> {
    process.off('exit', this.#onExit);
    await this.#checkpointer?.stop();
    this.#db.close(); // the last connection to close checkpoints what is left and removes the WAL
  }
}
