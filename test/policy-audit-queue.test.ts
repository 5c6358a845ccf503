// The embedded trail's record queue (src/policy/audit/sqlite-queue*.ts): the server writes each turn's records to a
// file and answers; the writer thread, a restarted server or the CLI stores them. H1 holds across it: every answered
// call's record is stored exactly once, whoever stores it and whenever one of them stops; what is damaged is skipped
// and said; a thread that is behind or failing never lets calls run ahead of their records.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  SqliteAuditStore,
  SqliteThreadStore,
  queryAudit,
  verifyAudit,
  type AuditEntry,
} from '../src/policy/audit/index.js';
import { QueueWriter, listStreams, readLines, segmentFile } from '../src/policy/audit/sqlite-queue.js';
import { auditEntry } from './support/audit-entry.js';
import { waitFor } from './support/poll.js';

/** A pid no process has: one that ran and was reaped. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

/** Another connection (another process would be one) takes the write lock of `db` until the returned release. */
function holdWriteLock(db: string): () => void {
  const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
    exec(sql: string): void;
    close(): void;
  };
  const holder = new Database(db);
  holder.exec('BEGIN IMMEDIATE');
  return () => {
    holder.exec('ROLLBACK');
    holder.close();
  };
}

const line = (entries: readonly AuditEntry[]): string => `${JSON.stringify(entries)}\n`;
const ids = async (store: SqliteAuditStore): Promise<string[]> =>
  (await queryAudit(store, { limit: 10_000 })).map((record) => record.requestId);
const range = (from: number, to: number): string[] =>
  Array.from({ length: to - from }, (_, n) => String(from + n));

describe('audit trail: the record queue', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-queue-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('H1 a queue left by a killed process is stored exactly once on the next open, then removed', async () => {
    const db = join(dir, 'orphan.db');
    new SqliteAuditStore(db).close().catch(() => undefined);
    const stream = `${deadPid()}-0badcafe`;
    const writer = new QueueWriter(db, stream);
    for (let batch = 0; batch < 5; batch++) {
      writer.write(line([auditEntry(batch * 2), auditEntry(batch * 2 + 1)]));
    }
    writer.close();
    // A batch cut off mid-write (the kill came during it): its calls were never answered, and it is not stored.
    appendFileSync(segmentFile(db, stream, 0), '[{"time":1,"requestId":"9');
    const reopened = new SqliteAuditStore(db);
    // Stored as the trail opens, before anything this process writes.
    await reopened.append([auditEntry(100)]);
    assert.deepEqual(await ids(reopened), [...range(0, 10), '100']);
    assert.deepEqual(await verifyAudit(reopened), { ok: true, rows: 11 });
    assert.equal(listStreams(db).size, 0, 'the dead process stream is removed once stored');
    await reopened.close();
    const again = new SqliteAuditStore(db); // and never stored twice
    assert.deepEqual(await verifyAudit(again), { ok: true, rows: 11 });
    await again.close();
  });

  it('H1 two connections storing one live stream in turns store each batch once, in order', async () => {
    const db = join(dir, 'two.db');
    const one = new SqliteAuditStore(db);
    const two = new SqliteAuditStore(db);
    const stream = `${process.pid}-00000002`; // this process: alive, so neither removes it
    const writer = new QueueWriter(db, stream, 600); // small segments: several files
    let n = 0;
    for (let round = 0; round < 30; round++) {
      writer.write(line([auditEntry(n++), auditEntry(n++)]));
      (round % 2 === 0 ? one : two).applyQueue(stream, 1);
    }
    for (let step = 0; step < 100 && one.applyQueue(stream) + two.applyQueue(stream) > 0; step++);
    assert.deepEqual(await ids(two), range(0, 60));
    assert.deepEqual(await verifyAudit(one), { ok: true, rows: 60 });
    const left = listStreams(db).get(stream) ?? [];
    assert.ok(left.length >= 1 && left.length <= 2, `segments stored are removed: ${left.join(',')}`);
    writer.close();
    one.finishQueue(stream);
    assert.equal(listStreams(db).size, 0);
    assert.deepEqual(await verifyAudit(two), { ok: true, rows: 60 });
    await one.close();
    await two.close();
  });

  it('a damaged batch or record is skipped and reported; the rest of the queue is stored', async () => {
    const db = join(dir, 'damaged.db');
    const reports: string[] = [];
    new SqliteAuditStore(db).close().catch(() => undefined);
    const stream = `${deadPid()}-0000dead`;
    const writer = new QueueWriter(db, stream);
    writer.write(line([auditEntry(1)]));
    writer.write('{"not":"a batch"}\n');
    writer.write(line([auditEntry(2), { ...auditEntry(3), outcome: 'exploded' as 'result' }, auditEntry(4)]));
    writer.write('[{"time":\n');
    writer.close();
    const store = new SqliteAuditStore(db, { onQueueReport: (message) => reports.push(message) });
    assert.deepEqual(await ids(store), ['1', '2', '4']);
    assert.equal(reports.length, 1);
    assert.match(reports[0] ?? '', /q-\d+-0000dead\.0 at byte 0: 3 damaged batches or records were skipped$/);
    await store.close();
  });

  it('a queue writer cut off by close refuses later batches; a stream of this process is never removed', async () => {
    const db = join(dir, 'closed.db');
    const store = new SqliteAuditStore(db);
    const stream = `${process.pid}-00000003`;
    const writer = new QueueWriter(db, stream);
    assert.deepEqual(writer.write(line([auditEntry(1)])), { segment: 0, end: line([auditEntry(1)]).length });
    writer.close();
    assert.throws(() => writer.write(line([auditEntry(2)])), /the audit queue is closed/);
    await store.close();
    const reopened = new SqliteAuditStore(db); // applies it, but its writer may be alive: the file stays
    assert.deepEqual(await ids(reopened), ['1']);
    assert.deepEqual([...(listStreams(db).get(stream) ?? [])], [0]);
    await reopened.close();
  });

  it('H1 an answer leaves once its batch is queued; a read in the same process sees it stored', async () => {
    const db = join(dir, 'thread.db');
    const store = new SqliteThreadStore(db);
    await store.ready();
    await store.append([auditEntry(1), auditEntry(2)]);
    assert.equal(store.backlog, 2, 'queued, not yet stored: the thread stores it moments later');
    const streams = [...listStreams(db).keys()];
    assert.equal(streams.length, 1);
    assert.match(readFileSync(segmentFile(db, streams[0] as string, 0), 'utf8'), /"requestId":"2"/);
    assert.deepEqual(
      (await queryAudit(store, {})).map((record) => record.requestId),
      ['1', '2'],
    );
    assert.equal(store.backlog, 0);
    await store.close();
    assert.equal(listStreams(db).size, 0, 'a closed store leaves no queue behind');
    assert.deepEqual(
      readdirSync(dir).filter((name) => name.startsWith('thread.db.q-')),
      [],
    );
  });

  it('the writer thread yields to calls: it runs at SCHED_IDLE (Linux with chrt), else at nice 19', async (t) => {
    if (process.platform !== 'linux') return t.skip('thread priorities are read from /proc');
    const hasChrt = spawnSync('chrt', ['--help']).error === undefined;
    const tasks = (): { policy: number; nice: number }[] =>
      readdirSync('/proc/self/task').flatMap((tid) => {
        try {
          const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
          const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
          return [{ nice: Number(fields[16]), policy: Number(fields[38]) }];
        } catch {
          return []; // the thread ended meanwhile
        }
      });
    const before = tasks().filter((task) => task.policy === 5 || task.nice === 19).length;
    const store = new SqliteThreadStore(join(dir, 'priority.db'));
    await store.ready();
    // Two threads: the writer and its WAL checkpointer (SCHED_IDLE is policy 5 in /proc's stat).
    await waitFor(
      () => tasks().filter((task) => (hasChrt ? task.policy === 5 : task.nice === 19)).length >= before + 2,
      20_000,
    );
    await store.close();
  });

  it('a large batch is queued as lines of at most 64 records, and stored whole and in order', async () => {
    const db = join(dir, 'large.db');
    const store = new SqliteThreadStore(db);
    await store.ready();
    await store.append(Array.from({ length: 150 }, (_, n) => auditEntry(n)));
    const stream = [...listStreams(db).keys()][0] as string;
    const lines = readFileSync(segmentFile(db, stream, 0), 'utf8').split('\n');
    assert.deepEqual(
      lines.map((text) => (text === '' ? 0 : (JSON.parse(text) as unknown[]).length)),
      [64, 64, 22, 0],
    );
    assert.deepEqual(
      (await queryAudit(store, { limit: 1_000 })).map((record) => record.requestId),
      range(0, 150),
    );
    await store.close();
  });

  it('a line longer than any batch is skipped without being read whole; the lines after it are read', () => {
    const file = join(dir, 'long-line');
    const good = line([auditEntry(1)]);
    writeFileSync(file, `${'x'.repeat(5_000)}\n${good}`, { mode: 0o600 }); // as a writer makes it
    assert.deepEqual(readLines(file, 0, 1_024, 2_048), { lines: [], bytes: 0, rest: 0, skipped: 5_001 });
    assert.deepEqual(readLines(file, 5_001, 1_024, 2_048), {
      lines: [good.slice(0, -1)],
      bytes: good.length,
      rest: 0,
      skipped: 0,
    });
    // Its end not written yet: nothing to skip until it is.
    writeFileSync(file, 'y'.repeat(5_000));
    assert.deepEqual(readLines(file, 0, 1_024, 2_048), { lines: [], bytes: 0, rest: 0, skipped: 0 });
    assert.equal(readLines(join(dir, 'no-such-file'), 0, 1_024), null);
  });

  it('an applier skips a line longer than any batch (64 MiB), says so, and stores the lines after it', async () => {
    const db = join(dir, 'long.db');
    new SqliteAuditStore(db).close().catch(() => undefined);
    const stream = `${deadPid()}-0000face`;
    writeFileSync(segmentFile(db, stream, 0), Buffer.alloc(64 * 1024 * 1024 + 10, 'z'), { mode: 0o600 });
    appendFileSync(segmentFile(db, stream, 0), `\n${line([auditEntry(1)])}`);
    const reports: string[] = [];
    const store = new SqliteAuditStore(db, { onQueueReport: (message) => reports.push(message) });
    assert.deepEqual(await ids(store), ['1']);
    assert.match(
      reports.join('\n'),
      /at byte 0: a line of 67108875 bytes is longer than any batch; skipped$/,
    );
    assert.equal(listStreams(db).size, 0);
    await store.close();
  });

  it('a thread that falls behind is helped by the event loop before calls are refused', async () => {
    const db = join(dir, 'urgent.db');
    const store = new SqliteThreadStore(db, { urgentBacklog: 5 });
    await store.ready();
    await store.append(Array.from({ length: 4 }, (_, n) => auditEntry(n)));
    assert.equal(store.backlog, 4);
    // No turn has passed, so the thread cannot have answered: the event loop stored these itself.
    await store.append(Array.from({ length: 4 }, (_, n) => auditEntry(n + 4)));
    assert.equal(store.backlog, 0);
    const direct = new SqliteAuditStore(db, { mustExist: true, recoverQueues: false });
    assert.equal((await direct.head()).lastId, 8);
    await direct.close();
    await store.close();
  });

  it('H1 while the database cannot be written, new records are refused; once it can, they are stored', async () => {
    const db = join(dir, 'locked.db');
    const reports: string[] = [];
    const store = new SqliteThreadStore(db, { busyTimeoutMs: 50, onQueueReport: (m) => reports.push(m) });
    await store.ready();
    const release = holdWriteLock(db);
    await store.append([auditEntry(1)]); // queued: safe whatever the database does
    await waitFor(() => reports.length > 0, 20_000);
    assert.match(reports[0] ?? '', /^queued records could not be stored: database is locked$/);
    await assert.rejects(
      store.append([auditEntry(2)]),
      /cannot be stored in sqlite .*locked\.db: database is locked/,
    );
    release();
    await waitFor(() => store.backlog === 0, 20_000); // the next try stores it
    await store.append([auditEntry(3)]);
    assert.deepEqual(
      (await queryAudit(store, {})).map((record) => record.requestId),
      ['1', '3'],
    );
    assert.equal(reports.length, 1, 'one report per run of failures');
    await store.close();
  });

  it(
    'H1 a close while the database is locked still ends; what is queued is stored on the next open',
    {
      timeout: 30_000, // a close that never ends fails here instead of hanging the run
    },
    async () => {
      const db = join(dir, 'close-locked.db');
      const store = new SqliteThreadStore(db, { busyTimeoutMs: 50 });
      await store.ready();
      const release = holdWriteLock(db);
      await store.append([auditEntry(1), auditEntry(2)]);
      await store.close(); // cannot store the queue: the thread closes anyway, and the files stay
      assert.equal(listStreams(db).size, 1);
      release();
      const reopened = new SqliteAuditStore(db);
      assert.deepEqual(await ids(reopened), ['1', '2']);
      await reopened.close();
    },
  );
});
