// openAudit: the store, the writer, retention on open and on an unref'd timer, and the middleware, as one handle.

import { stderrLogger, type Logger, type Middleware } from '../../server/index.js';
import { auditMiddleware } from './middleware.js';
import { PostgresAuditStore } from './postgres-store.js';
import { redactSecrets } from '../redact/index.js';
import { SqliteAuditStore } from './sqlite-store.js';
import { SqliteThreadStore, URGENT_BACKLOG } from './sqlite-thread.js';
import type { AuditEntry, AuditStore, PruneRule } from './types.js';
import { AuditWriter, DEFAULT_LIMITS } from './writer.js';

export interface AuditOptions {
  /** Where records go: a SQLite file, a PostgreSQL table, or a store of your own. */
  store:
    | {
        kind: 'sqlite';
        path: string;
        synchronous?: 'normal' | 'full';
        /**
         * "thread" (the default): each turn's records go to a queue file next to the database (one write, then the
         * answers leave) and a worker thread of their own chains, inserts and commits them, off the event loop;
         * "inline": committed on the event loop before the answers leave, one thread and no queue.
         */
        writer?: 'thread' | 'inline';
      }
    | { kind: 'postgres'; url: string; table?: string }
    | AuditStore;
  /** "calls" (the default): one record per tools/call outcome; "all": every other request too. */
  requests?: 'calls' | 'all';
  /** Applied to arguments and error messages before they are stored; default: redactSecrets. */
  redact?: (value: unknown) => unknown;
  /** Applied when the trail opens and then every `everyMs` (default one hour) on an unref'd timer. */
  retention?: { maxAgeDays?: number; maxRows?: number; everyMs?: number };
  /**
   * Calls waiting for their records, with records queued and not yet in the database, at most (default 10,000);
   * beyond, calls are refused with 503.
   */
  maxPending?: number;
  logger?: Logger;
  now?: () => number;
}

export interface Audit {
  /** Install outermost (`server.use` before scopes, rate limits and approvals) so it sees their refusals. */
  readonly middleware: Middleware;
  readonly store: AuditStore;
  /** Applies retention now; resolves with the number of rows removed. */
  prune(): Promise<number>;
  /**
   * Records something that is not a request of this process (an approval's decision or expiry): written in the
   * next batch, chained like every record; rejects when the trail is closed, full or failing.
   */
  recordEvent(entry: AuditEntry): Promise<void>;
  /** Waits for every admitted call's record, stops retention and closes the store. */
  close(): Promise<void>;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function checkRetention(retention: AuditOptions['retention']): void {
  if (retention === undefined) return;
  const { maxAgeDays, maxRows, everyMs } = retention;
  if (
    maxAgeDays !== undefined &&
    !(typeof maxAgeDays === 'number' && maxAgeDays > 0 && Number.isFinite(maxAgeDays))
  ) {
    throw new TypeError(
      `audit retention.maxAgeDays must be a positive number of days, got ${String(maxAgeDays)}`,
    );
  }
  if (maxRows !== undefined && !(Number.isSafeInteger(maxRows) && maxRows >= 1)) {
    throw new TypeError(
      `audit retention.maxRows must be a whole number of at least 1, got ${String(maxRows)}`,
    );
  }
  if (everyMs !== undefined && !(Number.isSafeInteger(everyMs) && everyMs >= 1000)) {
    throw new TypeError(
      `audit retention.everyMs must be a whole number of at least 1000, got ${String(everyMs)}`,
    );
  }
}

async function openStore(
  store: AuditOptions['store'],
  logger: Logger,
  maxPending: number,
): Promise<AuditStore> {
  if (!('kind' in store)) return store;
  if (store.kind === 'sqlite') {
    const options = {
      ...(store.synchronous !== undefined && { synchronous: store.synchronous }),
      onCheckpointError: (message: string) =>
        logger.error(`audit: a background WAL checkpoint of ${store.path} failed: ${message}`),
      onQueueReport: (message: string) => logger.error(`audit: ${store.path}: ${message}`),
    };
    if (store.writer !== undefined && store.writer !== 'thread' && store.writer !== 'inline') {
      throw new TypeError(
        `audit sqlite writer must be "thread" or "inline", got ${JSON.stringify(store.writer)}`,
      );
    }
    if (store.writer === 'inline') return new SqliteAuditStore(store.path, options);
    // The event loop helps the thread well before the bound on waiting calls refuses any.
    const urgentBacklog = Math.min(URGENT_BACKLOG, Math.max(1, Math.floor(maxPending / 2)));
    return opened(new SqliteThreadStore(store.path, { ...options, urgentBacklog }));
  }
  return opened(new PostgresAuditStore(store.url, store.table === undefined ? {} : { table: store.table }));
}

/** A store that opens asynchronously (a thread, a connection), once open; closed again when it cannot be. */
async function opened<S extends AuditStore & { ready(): Promise<void> }>(store: S): Promise<S> {
  try {
    await store.ready();
  } catch (error) {
    await store.close().catch(() => undefined);
    throw new Error(`the audit trail cannot open ${store.description}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return store;
}

/** The project's one redactor (policy/redact), as the audit applies it: what it stores, never what the client got. */
const redactArguments = (value: unknown): unknown => redactSecrets(value).value;

export async function openAudit(options: AuditOptions): Promise<Audit> {
  const requests = options.requests ?? 'calls';
  if (requests !== 'calls' && requests !== 'all') {
    throw new TypeError(`audit requests must be "calls" or "all", got ${JSON.stringify(requests)}`);
  }
  checkRetention(options.retention);
  const maxPending = options.maxPending ?? DEFAULT_LIMITS.maxPending;
  if (!(Number.isSafeInteger(maxPending) && maxPending >= 1)) {
    throw new TypeError(`audit maxPending must be a whole number of at least 1, got ${String(maxPending)}`);
  }
  const logger = options.logger ?? stderrLogger;
  const now = options.now ?? Date.now;
  const store = await openStore(options.store, logger, maxPending);
  const writer = new AuditWriter(store, { ...DEFAULT_LIMITS, maxPending });
  const retention = options.retention;
  const rule = (): PruneRule => ({
    ...(retention?.maxAgeDays !== undefined && { before: now() - retention.maxAgeDays * DAY_MS }),
    ...(retention?.maxRows !== undefined && { keepRows: retention.maxRows }),
  });
  const prune = (): Promise<number> =>
    retention?.maxAgeDays === undefined && retention?.maxRows === undefined
      ? Promise.resolve(0)
      : writer.prune(rule());
  let timer: NodeJS.Timeout | undefined;
  if (retention?.maxAgeDays !== undefined || retention?.maxRows !== undefined) {
    try {
      await prune();
    } catch (error) {
      await store.close().catch(() => undefined);
      throw error;
    }
    timer = setInterval(
      () => {
        prune().catch((error: unknown) =>
          logger.error(`audit: retention failed on ${store.description}`, error),
        );
      },
      retention.everyMs ?? 60 * 60 * 1000,
    );
    timer.unref(); // retention alone never keeps a process alive
  }
  const middleware = auditMiddleware({
    writer,
    requests,
    redact: options.redact ?? redactArguments,
    logger,
    now,
    description: store.description,
  });
  let closing: Promise<void> | undefined;
  return {
    middleware,
    store,
    prune,
    async recordEvent(entry) {
      writer.admit();
      try {
        await writer.write(entry);
      } finally {
        writer.release();
      }
    },
    close() {
      closing ??= (async () => {
        if (timer !== undefined) clearInterval(timer);
        await writer.drain();
        await store.close();
      })();
      return closing;
    },
  };
}
