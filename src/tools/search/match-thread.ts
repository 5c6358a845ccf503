// One matching worker thread: runs one request at a time for whichever search the pool gives it, says where it is
// (through shared memory) when the pool cuts it, and is terminated rather than interrupted.

import { Worker } from 'node:worker_threads';
import {
  PROGRESS_BYTES,
  Progress,
  WORKER_SOURCE,
  type WorkerData,
  type WorkerReply,
  type WorkerRequest,
} from './worker-source.js';

/** The worker's heap is capped: a batch is at most a few MiB of text, so anything beyond this is a runaway. */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

/** Where a request was when it was read: the file it was on, the line within it, and for how long it had been there. */
export interface Whereabouts {
  /** The file being matched (index in the batch); every file before it is finished. */
  file: number;
  /** 1-based line being matched in that file; 0 before the first. */
  line: number;
  /** How long ago the thread started that file, in ms. */
  onFileMs: number;
  /** Match messages the thread had posted for this request. */
  posted: number;
}

export interface ThreadListener {
  reply(reply: WorkerReply): void;
  /** The thread died (out of memory, a crash) while running the request. */
  failure(error: Error): void;
}

export class MatchThread {
  readonly id: number;
  readonly #worker: Worker;
  readonly #slots: Int32Array;
  readonly #fileStartedAt: Float64Array;
  readonly online: Promise<void>;
  #listener: ThreadListener | undefined;
  #terminated = false;
  /** Set when the thread is idle in the pool; cleared when it gets work or is ended. */
  idleTimer: NodeJS.Timeout | undefined;

  constructor(id: number, previewChars: number, onExit: (thread: MatchThread, code: number) => void) {
    this.id = id;
    const progress = new SharedArrayBuffer(PROGRESS_BYTES);
    this.#slots = new Int32Array(progress, 0, 4);
    this.#fileStartedAt = new Float64Array(progress, 16, 1);
    const workerData: WorkerData = { previewChars, progress };
    this.#worker = new Worker(WORKER_SOURCE, { eval: true, workerData, resourceLimits: RESOURCE_LIMITS });
    this.online = new Promise((resolve) => this.#worker.once('online', () => resolve()));
    this.#worker.on('message', (reply: WorkerReply) => this.#listener?.reply(reply));
    this.#worker.on('error', (error) => this.#fail(error));
    this.#worker.on('exit', (code) => {
      if (!this.#terminated)
        this.#fail(new Error(`the matching thread stopped unexpectedly (exit code ${code})`));
      this.#terminated = true;
      if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
      onExit(this, code);
    });
    this.#worker.unref(); // after the listeners: adding a 'message' listener refs the port again
  }

  get terminated(): boolean {
    return this.#terminated;
  }

  #fail(error: Error): void {
    const listener = this.#listener;
    this.#listener = undefined;
    listener?.failure(error);
  }

  /** The thread has work (a batch, or one about to be posted): it keeps the process alive until it is done. */
  hold(): void {
    this.#worker.ref();
  }

  /** Starts a request; its replies go to `listener` until the request ends or `detach()`. */
  post(request: WorkerRequest, listener: ThreadListener): void {
    this.#listener = listener;
    this.#worker.postMessage(request);
  }

  /** The request is over: replies go nowhere, and an idle thread does not keep the process alive. */
  detach(): void {
    this.#listener = undefined;
    this.#worker.unref();
  }

  /** Where request `id` is now, or undefined if the thread has not started it yet. */
  whereabouts(id: number): Whereabouts | undefined {
    if (Atomics.load(this.#slots, Progress.Request) !== id) return undefined;
    const file = Atomics.load(this.#slots, Progress.File); // read before Posted: see the worker's ordering note
    return {
      file,
      line: Atomics.load(this.#slots, Progress.Line),
      onFileMs: Math.max(0, Date.now() - (this.#fileStartedAt[0] ?? Date.now())),
      posted: Atomics.load(this.#slots, Progress.Posted),
    };
  }

  /** Ends the thread wherever it is (terminate interrupts a running regular expression); 'exit' follows. */
  terminate(): void {
    if (this.#terminated) return;
    this.#terminated = true;
    this.detach();
    if (this.idleTimer !== undefined) clearTimeout(this.idleTimer);
    void this.#worker.terminate();
  }
}
