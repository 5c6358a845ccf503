// Moves queued records (sqlite-queue.ts) into the database. Each step is one IMMEDIATE transaction that reads the
// stream's position from `audit_queue`, chains and inserts the complete lines after it, and stores the new position,
// so a line is applied exactly once whoever applies it (the writing process's thread, a restarted server, the CLI)
// and whenever one of them is killed.

import { statSync, unlinkSync } from 'node:fs';
import { isStorableEntry } from './columns.js';
import {
  ForeignQueueFile,
  MAX_LINE_BYTES,
  listStreams,
  readLines,
  segmentExists,
  segmentFile,
  streamAlive,
} from './sqlite-queue.js';
import type { Database, Statement } from './sqlite-driver.js';
import type { AuditEntry } from './types.js';

/** Queue bytes one transaction takes at most (about two thousand records of usual size). */
const STEP_BYTES = 1024 * 1024;
/** Transactions one apply() makes at most: a writer that never pauses cannot hold its applier in a loop. */
const MAX_STEPS = 64;
/** Refused files remembered so that each is reported once, not every few milliseconds (a bound on the memory). */
const MAX_REFUSED = 1024;

export const QUEUE_TABLE = `CREATE TABLE IF NOT EXISTS audit_queue (stream TEXT PRIMARY KEY,
  segment INTEGER NOT NULL, offset INTEGER NOT NULL)`;

/** Where the applied part of a stream ends. */
export interface QueuePosition {
  readonly segment: number;
  readonly offset: number;
}

interface Step {
  readonly applied: number;
  readonly more: boolean;
  readonly unlink: string | undefined;
}

export class QueueApplier {
  readonly #database: string;
  readonly #report: (message: string) => void;
  readonly #read: Statement;
  readonly #write: Statement;
  readonly #forget: Statement;
  readonly #step: (stream: string) => Step;
  /** The uid the trail's files belong to (its database file's); undefined where there are no uids. */
  readonly #owner: number | undefined;
  readonly #refused = new Set<string>();

  /**
   * `appendRecords` chains and inserts entries inside the caller's transaction; `report` hears what was skipped
   * (damaged lines, leftovers of a segment) and why.
   */
  constructor(
    db: Database,
    database: string,
    appendRecords: (entries: readonly AuditEntry[]) => unknown,
    report: (message: string) => void,
  ) {
    this.#database = database;
    this.#report = report;
    this.#owner = process.platform === 'win32' ? undefined : statSync(database).uid;
    this.#read = db.prepare('SELECT segment, offset FROM audit_queue WHERE stream = ?');
    this.#write = db.prepare(
      `INSERT INTO audit_queue (stream, segment, offset) VALUES (?, ?, ?)
       ON CONFLICT (stream) DO UPDATE SET segment = excluded.segment, offset = excluded.offset`,
    );
    this.#forget = db.prepare('DELETE FROM audit_queue WHERE stream = ?');
    this.#step = db.transaction((stream: string): Step => {
      const { segment, offset } = this.position(stream);
      // Before reading: when the next segment exists, this one was complete before the read began. A next segment
      // that no writer made does not count: the writer still writes this one (and fails when it would move on).
      const nextExists = this.#nextExists(segmentFile(database, stream, segment + 1));
      const file = segmentFile(database, stream, segment);
      const read = readLines(file, offset, STEP_BYTES, MAX_LINE_BYTES, this.#owner);
      if (read !== null && read.skipped > 0) {
        this.#report(
          `${file} at byte ${offset}: a line of ${read.skipped} bytes is longer than any batch; skipped`,
        );
        this.#write.run(stream, segment, offset + read.skipped);
        return { applied: 0, more: true, unlink: undefined };
      }
      if (read !== null && read.lines.length > 0) {
        const entries = this.#entries(read.lines, `${file} at byte ${offset}`);
        if (entries.length > 0) appendRecords(entries);
        this.#write.run(stream, segment, offset + read.bytes);
        return { applied: entries.length, more: true, unlink: undefined };
      }
      if (!nextExists) return { applied: 0, more: false, unlink: undefined };
      if (read !== null && read.rest > 0) {
        this.#report(`${file} ends in ${read.rest} bytes that are not a whole batch; they were skipped`);
      }
      this.#write.run(stream, segment + 1, 0);
      return { applied: 0, more: true, unlink: read === null ? undefined : file };
    }).immediate;
  }

  /** Where the applied part of `stream` ends (the start, for a stream never applied). */
  position(stream: string): QueuePosition {
    const row = this.#read.get(stream) as QueuePosition | undefined;
    return row ?? { segment: 0, offset: 0 };
  }

  /** Applies what `stream` holds now, up to MAX_STEPS transactions; returns how many records were stored. */
  apply(stream: string, steps = MAX_STEPS): number {
    return this.#apply(stream, steps).applied;
  }

  /** For a stream whose writer is done (closed, or its process gone): applies all of it, then removes it. */
  finish(stream: string): number {
    const { applied, refused } = this.#apply(stream, Number.MAX_SAFE_INTEGER);
    // A stream with a file no writer made is left as it is: it is not this trail's to remove (nor to store).
    if (refused) return applied;
    // Files before the row: a stream with files and no row would be applied again from its start.
    for (const segment of listStreams(this.#database).get(stream) ?? []) {
      unlinkQuietly(segmentFile(this.#database, stream, segment));
    }
    this.#forget.run(stream);
    return applied;
  }

  /** Applies every stream next to the database, and finishes those whose process is gone. */
  applyAll(): number {
    let applied = 0;
    for (const stream of listStreams(this.#database).keys()) {
      applied += streamAlive(stream) ? this.apply(stream) : this.finish(stream);
    }
    return applied;
  }

  #apply(stream: string, steps: number): { applied: number; refused: boolean } {
    let applied = 0;
    for (let step = 0; step < steps; step++) {
      let done: Step;
      try {
        done = this.#step(stream);
      } catch (error) {
        if (!(error instanceof ForeignQueueFile)) throw error;
        this.#refuse(error);
        return { applied, refused: true };
      }
      applied += done.applied;
      if (done.unlink !== undefined) unlinkQuietly(done.unlink);
      if (!done.more) break;
    }
    return { applied, refused: false };
  }

  #nextExists(file: string): boolean {
    try {
      return segmentExists(file, this.#owner);
    } catch (error) {
      if (!(error instanceof ForeignQueueFile)) throw error;
      this.#refuse(error);
      return false;
    }
  }

  /** Reports a refused file once (while remembered): its records are never stored. */
  #refuse(error: ForeignQueueFile): void {
    if (this.#refused.has(error.message)) return;
    if (this.#refused.size >= MAX_REFUSED) this.#refused.clear();
    this.#refused.add(error.message);
    this.#report(`${error.message}: no writer of this trail made it, so its records are not stored`);
  }

  #entries(lines: readonly string[], where: string): AuditEntry[] {
    const entries: AuditEntry[] = [];
    let skipped = 0;
    for (const line of lines) {
      let batch: unknown;
      try {
        batch = JSON.parse(line);
      } catch {
        batch = undefined;
      }
      if (!Array.isArray(batch)) {
        skipped += 1;
        continue;
      }
      for (const entry of batch as unknown[]) {
        if (isStorableEntry(entry)) entries.push(entry);
        else skipped += 1;
      }
    }
    if (skipped > 0) this.#report(`${where}: ${skipped} damaged batches or records were skipped`);
    return entries;
  }
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // gone already (another applier removed it), or it cannot be: a leftover that is applied never again
  }
}
