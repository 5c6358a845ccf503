// WAL checkpoints for the embedded audit store, in a worker thread: a checkpoint copies the WAL into the database and
// fsyncs both, milliseconds that would otherwise stall the event loop inside whichever commit crossed SQLite's
// auto-checkpoint threshold (measured on this machine: ~9 µs of every record's wall time at 13 records per commit).
// The writer's own auto-checkpoint stays on at a high threshold, as the bound on the WAL should this thread stall.

import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { LOWER_THREAD_PRIORITY } from './background-priority.js';

/** WAL pages the writer lets pile up before it checkpoints itself (4 KiB pages: 64 MiB). */
export const WRITER_CHECKPOINT_PAGES = 16_384;

/** How often the worker checkpoints. */
const INTERVAL_MS = 200;

// CommonJS run by eval, so it needs no file next to the module and no loader (tsx in tests, dist in production).
// PASSIVE never waits for the writer; exec makes no Statement object (better-sqlite3 finalizers have aborted Node 24
// at teardown), and the database is closed before the thread ends.
const WORKER_SOURCE = `${LOWER_THREAD_PRIORITY}
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file, { fileMustExist: true, timeout: 1000 });
let failures = 0;
const timer = setInterval(() => {
  try {
    db.exec('PRAGMA wal_checkpoint(PASSIVE)');
    failures = 0;
  } catch (error) {
    if (++failures === 1) parentPort.postMessage({ error: String(error && error.message) });
  }
}, workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

export class Checkpointer {
  readonly #worker: Worker;
  readonly #exited: Promise<void>;

  /** Starts checkpointing `file` (a WAL database that exists) every INTERVAL_MS; `onError` hears the first failure of a run. */
  constructor(file: string, onError: (message: string) => void) {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { driver, file, intervalMs: INTERVAL_MS },
      // Small: the thread holds one connection and a timer.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    });
    this.#worker.on('message', (message: { error?: unknown }) => {
      if (typeof message.error === 'string') onError(message.error);
    });
    // After the listener: adding a 'message' listener refs the worker again, so unref() before it held every
    // process with an unclosed trail open for good.
    this.#worker.unref(); // never what keeps a process alive
    this.#exited = new Promise((resolve) => {
      this.#worker.once('exit', () => resolve());
      this.#worker.once('error', (error) => {
        onError(error.message);
        resolve();
      });
    });
  }

  /** Stops the thread once its connection is closed (the writer checkpoints on its own close). */
  async stop(): Promise<void> {
    this.#worker.ref(); // held until it has exited: a close() that is awaited must not let the process end first
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
