// The audit writer thread's side (see sqlite-thread.ts): one SqliteAuditStore, driven by messages in the order they
// come, each answered in that order. It moves the main thread's record queue into the database: reading, chaining
// (SHA-256 per record), inserting and committing run here.

import { parentPort, workerData } from 'node:worker_threads';
import type { QueuePosition } from './sqlite-queue-apply.js';
import { SqliteAuditStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { AuditFilter, PruneRule } from './types.js';

export interface ThreadData {
  readonly path: string;
  /** The record queue stream the main thread writes (sqlite-queue.ts). */
  readonly stream: string;
  readonly options: SqliteStoreOptions;
}

/** What the main thread asks, one operation per message. `apply` stores what the main thread has queued. */
export type ThreadRequest =
  | { readonly op: 'apply' }
  | { readonly op: 'query'; readonly filter: AuditFilter }
  | { readonly op: 'head' }
  | { readonly op: 'prune'; readonly rule: PruneRule }
  | { readonly op: 'close' };

/**
 * The answer to one request, or the thread's first word: `ready` once the store is open, or why it cannot be. `at`
 * says where the stored part of the main thread's queue ends after the request (whoever stored it).
 */
export type ThreadReply =
  | { readonly ok: true; readonly value?: unknown; readonly at?: QueuePosition }
  | { readonly ok: false; readonly error: string; readonly at?: QueuePosition };

const port = parentPort;
if (port === null) throw new Error('sqlite-thread-worker runs as a worker thread only');
const data = workerData as ThreadData;

let store: SqliteAuditStore | undefined;
try {
  store = new SqliteAuditStore(data.path, {
    ...data.options,
    onCheckpointError: (message) => port.postMessage({ checkpointError: message }),
    onQueueReport: (message) => port.postMessage({ queueReport: message }),
  });
  port.postMessage({ ok: true } satisfies ThreadReply);
} catch (error) {
  port.postMessage({ ok: false, error: (error as Error).message } satisfies ThreadReply);
  port.close();
}

async function run(open: SqliteAuditStore, request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'apply':
      return open.applyQueue(data.stream);
    case 'query':
      return open.query(request.filter);
    case 'head':
      return open.head();
    case 'prune':
      return open.prune(request.rule);
    case 'close':
      try {
        open.finishQueue(data.stream); // the main thread has closed its queue: all of it is stored, then removed
      } finally {
        await open.close(); // closed even when storing failed: what is left stays queued for the next open
      }
      return null;
  }
}

if (store !== undefined) {
  const open = store;
  // One operation at a time, replies in request order: that order is how the main thread matches them.
  let tail: Promise<unknown> = Promise.resolve();
  let closed = false;
  const position = (): { at?: QueuePosition } => {
    if (closed) return {};
    try {
      return { at: open.queuePosition(data.stream) };
    } catch {
      return {};
    }
  };
  port.on('message', (request: ThreadRequest) => {
    tail = tail
      .then(() => run(open, request))
      .finally(() => {
        if (request.op === 'close') closed = true; // the database is closed: no position to read
      })
      .then(
        (value) => {
          port.postMessage({ ok: true, value, ...position() } satisfies ThreadReply);
          if (request.op === 'close') port.close();
        },
        (error: unknown) => {
          port.postMessage({
            ok: false,
            error: error instanceof Error ? error.message : String(error),
            ...position(),
          } satisfies ThreadReply);
          if (request.op === 'close') port.close();
        },
      );
  });
}
