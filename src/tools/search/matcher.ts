// Runs pattern matching in a worker thread under a deadline, so a regular expression that backtracks without end
// costs one terminated thread instead of a stuck server.

import { Worker } from 'node:worker_threads';
import type { Query } from './query.js';
import { WORKER_SOURCE, type WorkerData, type WorkerMatch, type WorkerReply } from './worker-source.js';

/** The worker's heap is capped: a batch is a few MiB of text, so anything beyond this is a runaway. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

/** The deadline passed while the worker had a batch; `busyMs` is how long it had been matching it (0 while starting). */
export class DeadlineExceeded extends Error {
  readonly busyMs: number;
  constructor(busyMs: number) {
    super(`matching was stopped after ${busyMs} ms`);
    this.name = 'DeadlineExceeded';
    this.busyMs = busyMs;
  }
}

/** The request was cancelled (client cancel, tool timeout) while the worker was matching. */
export class MatchAborted extends Error {
  constructor() {
    super('matching was cancelled');
    this.name = 'MatchAborted';
  }
}

/** The pattern threw while running on one file (for example a stack overflow). */
export class MatchFailed extends Error {
  readonly file: number;
  constructor(file: number, message: string) {
    super(message);
    this.name = 'MatchFailed';
    this.file = file;
  }
}

export interface BatchResult {
  matches: WorkerMatch[];
  filesDone: number;
}

export class Matcher {
  readonly #worker: Worker;
  readonly #deadline: number;
  readonly #signal: AbortSignal;
  #nextId = 0;
  #failure: Error | undefined;
  #waiting: ((reply: WorkerReply | Error) => void) | undefined;
  #closed = false;
  readonly #createdAt = Date.now();
  /** When the thread was ready to run code. Its start-up is not the search's time: the deadline moves by it. */
  #onlineAt: number | undefined;
  readonly #online: Promise<void>;

  /** The query's expression must already compile (buildQuery checks it), so syntax errors never reach the thread. */
  constructor(query: Query, previewChars: number, deadline: number, signal: AbortSignal) {
    this.#deadline = deadline;
    this.#signal = signal;
    const workerData: WorkerData = {
      source: query.source,
      flags: query.flags,
      literal: !query.regex,
      previewChars,
    };
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
    this.#worker.unref();
    this.#online = new Promise((resolve) =>
      this.#worker.once('online', () => {
        this.#onlineAt = Date.now();
        resolve();
      }),
    );
    this.#worker.on('message', (reply: WorkerReply) => this.#settle(reply));
    this.#worker.on('error', (error) => this.#settle(error));
    this.#worker.on('exit', (code) => {
      if (!this.#closed)
        this.#settle(new Error(`the matching thread stopped unexpectedly (exit code ${code})`));
    });
  }

  #settle(outcome: WorkerReply | Error): void {
    if (outcome instanceof Error) this.#failure ??= outcome;
    const waiting = this.#waiting;
    this.#waiting = undefined;
    waiting?.(outcome);
  }

  /** Matches a batch of texts; rejects with DeadlineExceeded, MatchAborted, MatchFailed or a thread failure. */
  async run(texts: string[], limit: number, contextLines: number): Promise<BatchResult> {
    if (this.#failure !== undefined) throw this.#failure;
    const id = ++this.#nextId;
    const started = Date.now();
    const reply = await new Promise<WorkerReply | Error>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: WorkerReply | Error): void => {
        if (timer !== undefined) clearTimeout(timer);
        this.#signal.removeEventListener('abort', onAbort);
        this.#waiting = undefined;
        resolve(outcome);
      };
      const onAbort = (): void => finish(new MatchAborted());
      const arm = (): void => {
        const due = this.#deadline + (this.#onlineAt ?? Date.now()) - this.#createdAt;
        timer = setTimeout(
          () => finish(new DeadlineExceeded(this.#busySince(started))),
          Math.max(0, due - Date.now()),
        );
      };
      if (this.#onlineAt !== undefined) arm();
      else void this.#online.then(() => this.#waiting === finish && arm()); // still starting: wait, then count
      this.#waiting = finish;
      this.#signal.addEventListener('abort', onAbort, { once: true });
      if (this.#signal.aborted) onAbort();
      else this.#worker.postMessage({ id, texts, limit, contextLines });
    });
    if (reply instanceof Error) {
      await this.close();
      throw reply;
    }
    if (reply.id !== id) throw new Error(`the matching thread answered request ${reply.id}, expected ${id}`);
    if (!reply.ok) throw new MatchFailed(reply.file, reply.message);
    return { matches: reply.matches, filesDone: reply.filesDone };
  }

  /** How long the thread has been matching this batch (it was online when the deadline was armed). */
  #busySince(posted: number): number {
    if (this.#onlineAt === undefined) return 0;
    return Date.now() - Math.max(posted, this.#onlineAt);
  }

  /** Ends the thread, wherever it is (terminate interrupts a running regular expression). */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#worker.terminate();
  }
}
