// The audit writer thread's side (see sqlite-thread.ts): one SqliteAuditStore, driven by messages in the order they
// come, each answered in that order. Chaining (SHA-256 per record), inserting and committing run here.

import { parentPort, workerData } from 'node:worker_threads';
import { SqliteAuditStore, type SqliteStoreOptions } from './sqlite-store.js';
import type { AuditEntry, AuditFilter, PruneRule } from './types.js';

export interface ThreadData {
  readonly path: string;
  readonly options: SqliteStoreOptions;
}

/** What the main thread asks, one operation per message. `entries` is a batch as one JSON text. */
export type ThreadRequest =
  | { readonly op: 'append'; readonly entries: string }
  | { readonly op: 'query'; readonly filter: AuditFilter }
  | { readonly op: 'head' }
  | { readonly op: 'prune'; readonly rule: PruneRule }
  | { readonly op: 'close' };

/** The answer to one request, or the thread's first word: `ready` once the store is open, or why it cannot be. */
export type ThreadReply =
  { readonly ok: true; readonly value?: unknown } | { readonly ok: false; readonly error: string };

const port = parentPort;
if (port === null) throw new Error('sqlite-thread-worker runs as a worker thread only');
const data = workerData as ThreadData;

let store: SqliteAuditStore | undefined;
try {
  store = new SqliteAuditStore(data.path, {
    ...data.options,
    onCheckpointError: (message) => port.postMessage({ checkpointError: message }),
  });
  port.postMessage({ ok: true } satisfies ThreadReply);
} catch (error) {
  port.postMessage({ ok: false, error: (error as Error).message } satisfies ThreadReply);
  port.close();
}

async function run(open: SqliteAuditStore, request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'append': {
      // The records stay here: the writer needs only to know they are committed, and the last one names the head.
      const records = await open.append(JSON.parse(request.entries) as AuditEntry[]);
      const last = records[records.length - 1];
      return last === undefined ? null : { lastId: last.id, lastHash: last.hash };
    }
    case 'query':
      return open.query(request.filter);
    case 'head':
      return open.head();
    case 'prune':
      return open.prune(request.rule);
    case 'close':
      await open.close();
      return null;
  }
}

if (store !== undefined) {
  const open = store;
  // One operation at a time, replies in request order: that order is how the main thread matches them.
  let tail: Promise<unknown> = Promise.resolve();
  port.on('message', (request: ThreadRequest) => {
    tail = tail
      .then(() => run(open, request))
      .then(
        (value) => {
          port.postMessage({ ok: true, value } satisfies ThreadReply);
          if (request.op === 'close') port.close();
        },
        (error: unknown) =>
          port.postMessage({
            ok: false,
            error: error instanceof Error ? error.message : String(error),
          } satisfies ThreadReply),
      );
  });
}
