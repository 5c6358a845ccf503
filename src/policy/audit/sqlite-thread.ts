// The embedded audit store as the server writes it. The main thread writes each turn's batch to its record queue (one
// write(2) to a file next to the database, sqlite-queue.ts) and the calls' answers leave once that write has
// returned: the promise is the in-thread store's (a kill -9 loses no record of an answered call), without waiting
// for a commit. A thread of its own runs the SqliteAuditStore and moves the queue into the database every few
// milliseconds, hundreds of records per transaction, so chaining (a SHA-256 per record), inserting and committing are
// off the event loop and no call waits for them (measured in the closing note of issue 16).

import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ownModule } from '../../own-files.js';
import { LOWER_THREAD_PRIORITY } from './background-priority.js';
import type { QueuePosition } from './sqlite-queue-apply.js';
import { LINE_RECORDS, QueueWriter, streamName } from './sqlite-queue.js';
import { SqliteAuditStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './sqlite-thread-worker.js';
import type { AuditEntry, AuditFilter, AuditRecord, AuditStore, ChainHead, PruneRule } from './types.js';

/**
 * The thread's entry. From the built package it is dist/policy/audit/sqlite-thread-worker.js; from TypeScript source (the
 * tests, which run through tsx) a worker does not inherit tsx's loader, so the thread loads tsx's API first and
 * imports the .ts file through it. Plain CommonJS, run by eval: it needs no file of its own.
 */
const BOOT = `${LOWER_THREAD_PRIORITY}
const { workerData } = require('node:worker_threads');
const entry = workerData.entry;
(entry.endsWith('.ts')
  ? import('tsx/esm/api').then((tsx) => tsx.tsImport(entry, entry))
  : import(entry)
).catch((error) => {
  process.nextTick(() => { throw error; });
});
`;

/**
 * How long queued records wait before the thread is asked to store them: hundreds per transaction under load, and a
 * reader in another process (`toolwire audit --follow`) still sees each one within moments.
 */
const APPLY_DELAY_MS = 10;
/** After the thread could not store them (the database locked or failing): the next try. */
const RETRY_DELAY_MS = 1_000;

/** A batch as queue lines of at most LINE_RECORDS records each (one line for a turn of usual size). */
function queueLines(entries: readonly AuditEntry[]): string {
  if (entries.length <= LINE_RECORDS) return `${JSON.stringify(entries)}\n`;
  let text = '';
  for (let from = 0; from < entries.length; from += LINE_RECORDS) {
    text += `${JSON.stringify(entries.slice(from, from + LINE_RECORDS))}\n`;
  }
  return text;
}

/** Where one written batch ends in the queue and how many records were written up to it. */
class Written {
  constructor(
    readonly segment: number,
    readonly end: number,
    readonly total: number,
  ) {}
}

/** One request sent and not yet answered. A class, not a literal (see protocol/live-list.ts on pretenured literals). */
class Call {
  constructor(
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: Error) => void,
  ) {}
}

export type ThreadStoreOptions = Omit<SqliteStoreOptions, 'mustExist' | 'recoverQueues'> & {
  /**
   * Records queued and not yet stored from which the event loop stores a step itself (default 2,000): the thread
   * yields to calls, so a machine busy to the last CPU could otherwise hold it back until calls are refused.
   */
  urgentBacklog?: number;
};

/** ThreadStoreOptions.urgentBacklog's default: at 40,000 calls a second, 50 ms of records. */
export const URGENT_BACKLOG = 2_000;

export class SqliteThreadStore implements AuditStore {
  readonly description: string;
  readonly #worker: Worker;
  readonly #file: string;
  readonly #stream: string;
  /** The record queue, open once the thread has opened the database. */
  #queue: QueueWriter | undefined;
  /** Batches written and not yet known to be stored, oldest first. */
  readonly #written: Written[] = [];
  /** Records written to the queue, and of them stored in the database, since the store opened. */
  #total = 0;
  #stored = 0;
  #applyTimer: NodeJS.Timeout | undefined;
  #applying = false;
  /** Why the last try to store the queue failed; until one succeeds, new records are refused (fail closed). */
  #applyError: string | undefined;
  readonly #onQueueReport: ((message: string) => void) | undefined;
  readonly #urgentBacklog: number;
  readonly #busyTimeoutMs: number | undefined;
  /** The event loop's own connection, opened the first time the thread falls that far behind. */
  #here: SqliteAuditStore | undefined;
  #hereFailed = false;
  /** Calls in the order they were sent, which is the order the thread answers them. */
  readonly #calls: Call[] = [];
  readonly #ready: Promise<void>;
  readonly #exited: Promise<void>;
  /** Why the thread cannot be used any more (it failed to open, crashed or was closed). */
  #broken: string | undefined;
  /** The thread said its database is open (#ready resolved). */
  #open = false;
  /** close() was called: the thread stays held until it has exited. */
  #closing = false;

  constructor(path: string, options: ThreadStoreOptions = {}) {
    const file = resolve(path);
    this.description = `sqlite ${file}`;
    this.#file = file;
    this.#stream = streamName(process.pid, randomBytes(4).toString('hex'));
    const { onCheckpointError, onQueueReport, urgentBacklog, ...rest } = options;
    this.#onQueueReport = onQueueReport;
    this.#urgentBacklog = urgentBacklog ?? URGENT_BACKLOG;
    this.#busyTimeoutMs = rest.busyTimeoutMs;
    const entry = ownModule('policy/audit/sqlite-thread-worker').href;
    const data: ThreadData & { entry: string } = { path: file, stream: this.#stream, options: rest, entry };
    this.#worker = new Worker(BOOT, { eval: true, workerData: data });
    let opened: () => void;
    let failed: (error: Error) => void;
    this.#ready = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.#ready.catch(() => undefined); // awaited by ready(); a store never awaited must not crash the process
    let first = true;
    this.#worker.on(
      'message',
      (message: ThreadReply | { checkpointError: string } | { queueReport: string }) => {
        if ('checkpointError' in message) {
          onCheckpointError?.(message.checkpointError);
        } else if ('queueReport' in message) {
          onQueueReport?.(message.queueReport);
        } else if (first) {
          first = false;
          if (message.ok) {
            try {
              this.#queue = new QueueWriter(file, this.#stream);
            } catch (error) {
              this.#broken = `its record queue cannot be created: ${(error as Error).message}`;
              failed(new Error(this.#broken));
              void this.#worker.terminate();
              return;
            }
            // From now on the thread is held (ref) only while a call waits for it (none can yet: calls wait for
            // ready): an idle trail never keeps a process alive. Until now it was held, so whoever awaits ready() is
            // not left behind by an event loop that ends.
            if (!this.#closing) this.#worker.unref();
            this.#open = true;
            opened();
          } else {
            this.#broken = message.error;
            failed(new Error(message.error));
          }
        } else {
          this.#settle(message);
        }
      },
    );
    this.#exited = new Promise<void>((resolve) => {
      this.#worker.once('error', (error) => this.#fail(`the audit writer thread failed: ${error.message}`));
      this.#worker.once('exit', (code) => {
        this.#fail(`the audit writer thread stopped (exit code ${code})`);
        failed(new Error(this.#broken)); // when it never opened; nothing once it has
        resolve();
      });
    });
  }

  /** Resolves once the database is open in the thread, rejects with why it cannot be. */
  ready(): Promise<void> {
    return this.#ready;
  }

  /**
   * Resolves once the batch is in the record queue (in the operating system, as a commit would be); the thread stores
   * it in the database moments later. Rejects when the trail is closed, its thread gone, or storing is failing.
   */
  async append(entries: readonly AuditEntry[]): Promise<null> {
    if (!this.#open) await this.#ready;
    if (this.#broken !== undefined) throw new Error(this.#broken);
    if (this.#applyError !== undefined) {
      throw new Error(`queued records cannot be stored in ${this.description}: ${this.#applyError}`);
    }
    if (entries.length === 0 || this.#queue === undefined) return null;
    const at = this.#queue.write(queueLines(entries));
    this.#total += entries.length;
    this.#written.push(new Written(at.segment, at.end, this.#total));
    if (this.backlog >= this.#urgentBacklog) this.#applyHere();
    this.#scheduleApply(APPLY_DELAY_MS);
    return null;
  }

  /** Records in the queue and not yet in the database: the writer counts them against its bound on waiting calls. */
  get backlog(): number {
    return this.#total - this.#stored;
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    return (await this.#send({ op: 'query', filter })) as AuditRecord[];
  }

  async head(): Promise<ChainHead> {
    return (await this.#send({ op: 'head' })) as ChainHead;
  }

  async prune(rule: PruneRule): Promise<number> {
    return (await this.#send({ op: 'prune', rule })) as number;
  }

  async close(): Promise<void> {
    if (this.#broken === undefined) {
      this.#closing = true;
      this.#worker.ref(); // an awaited close() must not let the process end before the thread has closed the file
      clearTimeout(this.#applyTimer);
      this.#queue?.close(); // nothing more is written: the thread stores all of it, then removes the files
      await this.#send({ op: 'close' }).catch(() => undefined);
      this.#broken = 'the audit trail is closed';
    }
    await this.#exited;
    await this.#here?.close();
    this.#here = undefined;
  }

  /**
   * @internal Ends the thread at once, as a crash would (tests): waiting and later calls fail, the file is left as a
   * killed process leaves it.
   */
  async terminate(): Promise<void> {
    await this.#worker.terminate();
    await this.#exited;
  }

  /** Sends at once when the thread is open (every batch after the first), else once it has opened. */
  #send(request: ThreadRequest): Promise<unknown> {
    return this.#open ? this.#post(request) : this.#ready.then(() => this.#post(request));
  }

  #post(request: ThreadRequest): Promise<unknown> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.#broken !== undefined) {
        reject(new Error(this.#broken));
        return;
      }
      if (this.#calls.length === 0) this.#worker.ref();
      this.#calls.push(new Call(resolve, reject));
      this.#worker.postMessage(request);
    });
  }

  /**
   * The thread is that far behind (it yields to calls, and every CPU is busy): the event loop stores one step of the
   * queue itself (at most about a MiB), which also slows the intake of calls until the thread keeps up.
   */
  #applyHere(): void {
    try {
      this.#here ??= new SqliteAuditStore(this.#file, {
        mustExist: true,
        recoverQueues: false,
        ...(this.#busyTimeoutMs !== undefined && { busyTimeoutMs: this.#busyTimeoutMs }),
        ...(this.#onQueueReport !== undefined && { onQueueReport: this.#onQueueReport }),
      });
      this.#here.applyQueue(this.#stream, 1);
      this.#storedUpTo(this.#here.queuePosition(this.#stream));
      this.#hereFailed = false;
    } catch (error) {
      // The records stay queued for the thread; the bound on waiting calls still holds.
      if (!this.#hereFailed) {
        this.#onQueueReport?.(`the event loop could not store queued records: ${(error as Error).message}`);
      }
      this.#hereFailed = true;
    }
  }

  /** Asks the thread to store the queue after `delay`, unless it is asked already. */
  #scheduleApply(delay: number): void {
    if (this.#applyTimer !== undefined || this.#applying || this.#broken !== undefined) return;
    this.#applyTimer = setTimeout(() => this.#apply(), delay);
    this.#applyTimer.unref(); // what is queued is safe: a process that ends leaves it for the next open to store
  }

  #apply(): void {
    this.#applyTimer = undefined;
    this.#applying = true;
    this.#post({ op: 'apply' })
      .then(
        () => {
          this.#applyError = undefined;
        },
        (error: Error) => {
          if (this.#broken !== undefined) return;
          if (this.#applyError === undefined) {
            this.#onQueueReport?.(`queued records could not be stored: ${error.message}`);
          }
          this.#applyError = error.message;
        },
      )
      .finally(() => {
        this.#applying = false;
        if (this.backlog > 0) {
          this.#scheduleApply(this.#applyError === undefined ? APPLY_DELAY_MS : RETRY_DELAY_MS);
        }
      });
  }

  /** The thread says the queue is stored up to `at`: the batches written up to there are no longer waiting. */
  #storedUpTo(at: QueuePosition): void {
    const written = this.#written;
    while (written.length > 0) {
      const batch = written[0] as Written;
      if (batch.segment > at.segment || (batch.segment === at.segment && batch.end > at.offset)) break;
      this.#stored = batch.total;
      written.shift();
    }
  }

  #settle(reply: ThreadReply): void {
    if (reply.at !== undefined) this.#storedUpTo(reply.at);
    const call = this.#calls.shift();
    if (this.#calls.length === 0 && !this.#closing) this.#worker.unref();
    if (call === undefined) return;
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new Error(reply.error));
  }

  /** The thread is gone: every call waiting fails with why, and so does every later one. */
  #fail(why: string): void {
    this.#broken ??= why;
    clearTimeout(this.#applyTimer);
    try {
      this.#queue?.close(); // what it holds stays for the next open of the trail to store
    } catch {
      // closed already
    }
    const calls = this.#calls.splice(0);
    for (const call of calls) call.reject(new Error(this.#broken));
  }
}
