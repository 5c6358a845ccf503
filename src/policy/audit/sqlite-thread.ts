// The embedded audit store as the server writes it: the SqliteAuditStore runs in a thread of its own, so chaining
// (a SHA-256 per record), inserting and committing are off the event loop. The main thread builds each entry, sends a
// turn's batch as one JSON text, and releases those calls' answers when the thread says the batch is committed: the
// promise is the same as the in-thread store's (a kill -9 loses no record of an answered call), at a fraction of the
// event loop's time per record (measured in the closing note of issue 16).

import { resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { ownModule } from '../../own-files.js';
import type { SqliteStoreOptions } from './sqlite-store.js';
import type { ThreadData, ThreadReply, ThreadRequest } from './sqlite-thread-worker.js';
import type { AuditEntry, AuditFilter, AuditRecord, AuditStore, ChainHead, PruneRule } from './types.js';

/**
 * The thread's entry. From the built package it is dist/policy/audit/sqlite-thread-worker.js; from TypeScript source (the
 * tests, which run through tsx) a worker does not inherit tsx's loader, so the thread loads tsx's API first and
 * imports the .ts file through it. Plain CommonJS, run by eval: it needs no file of its own.
 */
const BOOT = `
const { workerData } = require('node:worker_threads');
const entry = workerData.entry;
(entry.endsWith('.ts')
  ? import('tsx/esm/api').then((tsx) => tsx.tsImport(entry, entry))
  : import(entry)
).catch((error) => {
  process.nextTick(() => { throw error; });
});
`;

/** One request sent and not yet answered. A class, not a literal (see protocol/live-list.ts on pretenured literals). */
class Call {
  constructor(
    readonly resolve: (value: unknown) => void,
    readonly reject: (error: Error) => void,
  ) {}
}

export type ThreadStoreOptions = Omit<SqliteStoreOptions, 'mustExist'>;

export class SqliteThreadStore implements AuditStore {
  readonly description: string;
  readonly #worker: Worker;
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
    const { onCheckpointError, ...rest } = options;
    const entry = ownModule('policy/audit/sqlite-thread-worker').href;
    const data: ThreadData & { entry: string } = { path: file, options: rest, entry };
    this.#worker = new Worker(BOOT, { eval: true, workerData: data });
    let opened: () => void;
    let failed: (error: Error) => void;
    this.#ready = new Promise<void>((resolve, reject) => {
      opened = resolve;
      failed = reject;
    });
    this.#ready.catch(() => undefined); // awaited by ready(); a store never awaited must not crash the process
    let first = true;
    this.#worker.on('message', (message: ThreadReply | { checkpointError: string }) => {
      if ('checkpointError' in message) {
        onCheckpointError?.(message.checkpointError);
      } else if (first) {
        first = false;
        if (message.ok) {
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
    });
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

  /** Resolves with the id and hash of the batch's last record (null for an empty batch) once it is committed. */
  async append(entries: readonly AuditEntry[]): Promise<{ lastId: number; lastHash: string } | null> {
    // JSON.stringify is V8's fastest way across for a batch of flat records (structured cloning took longer).
    return (await this.#send({ op: 'append', entries: JSON.stringify(entries) })) as {
      lastId: number;
      lastHash: string;
    } | null;
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
      await this.#send({ op: 'close' }).catch(() => undefined);
      this.#broken = 'the audit trail is closed';
    }
    await this.#exited;
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

  #settle(reply: ThreadReply): void {
    const call = this.#calls.shift();
    if (this.#calls.length === 0 && !this.#closing) this.#worker.unref();
    if (call === undefined) return;
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new Error(reply.error));
  }

  /** The thread is gone: every call waiting fails with why, and so does every later one. */
  #fail(why: string): void {
    this.#broken ??= why;
    const calls = this.#calls.splice(0);
    for (const call of calls) call.reject(new Error(this.#broken));
  }
}
