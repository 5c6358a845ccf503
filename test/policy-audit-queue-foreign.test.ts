// The record queue against a neighbour (src/policy/audit/sqlite-queue*.ts): a file with a queue's name that no writer
// of the trail made is never stored (H2: forged records; H3: a trail changed behind its chain), whatever it is, and a
// place where another user could plant one is refused before the trail opens.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  SqliteAuditStore,
  SqliteThreadStore,
  queryAudit,
  type AuditEntry,
} from '../src/policy/audit/index.js';
import { QueueWriter, foreignReason, segmentFile } from '../src/policy/audit/sqlite-queue.js';
import { auditEntry } from './support/audit-entry.js';

const line = (entries: readonly AuditEntry[]): string => `${JSON.stringify(entries)}\n`;
const ids = async (store: SqliteAuditStore): Promise<string[]> =>
  (await queryAudit(store, { limit: 1_000 })).map((record) => record.requestId);
/** A pid no process has: one that ran and was reaped. */
const deadPid = (): number =>
  Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).stdout);
/** Root can give a file away, as another user's own file would be; others cannot make one here. */
const root = process.getuid?.() === 0;
const NOBODY = 65_534;

describe('audit trail: queue files no writer of the trail made', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-foreign-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('H2 planted queue files (a link, a FIFO, one open to others, one with two names, another user’s) are never stored', async () => {
    const db = join(dir, 'planted.db');
    new SqliteAuditStore(db).close().catch(() => undefined);
    const forged = line([auditEntry(666, { subject: 'mallory' })]);
    const planted = (tag: string): string => segmentFile(db, `${deadPid()}-${tag}`, 0);
    // Each holds records that would pass every check of their contents.
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, forged, { mode: 0o600 });
    const link = planted('11111111');
    symlinkSync(elsewhere, link);
    const fifo = planted('22222222');
    assert.equal(spawnSync('mkfifo', ['-m', '600', fifo]).status, 0, 'mkfifo');
    const open = planted('33333333');
    writeFileSync(open, forged, { mode: 0o644 });
    chmodSync(open, 0o644); // whatever the umask
    const twoNames = planted('44444444');
    writeFileSync(twoNames, forged, { mode: 0o600 });
    linkSync(twoNames, join(dir, 'second-name'));
    const theirs = planted('55555555');
    writeFileSync(theirs, forged, { mode: 0o600 });
    if (root) chownSync(theirs, NOBODY, NOBODY);
    // …beside a stream a writer of the trail left, which is stored.
    const mine = `${deadPid()}-0000a11c`;
    const writer = new QueueWriter(db, mine);
    writer.write(line([auditEntry(1)]));
    writer.close();

    const reports: string[] = [];
    const store = new SqliteAuditStore(db, { onQueueReport: (message) => reports.push(message) });
    assert.deepEqual(await ids(store), ['1']);
    assert.deepEqual(await ids(store), ['1'], 'a second catch-up stores none of them either');
    const said = (file: string, why: RegExp): void => {
      const about = reports.filter((report) => report.startsWith(file));
      assert.equal(about.length, 1, `said once about ${file}: ${reports.join(' | ')}`);
      assert.match(about[0] ?? '', why);
      assert.match(about[0] ?? '', /no writer of this trail made it, so its records are not stored$/);
    };
    said(link, / is a symbolic link:/);
    said(fifo, / is not a regular file:/);
    said(open, / is open to other users \(mode 0644, not 0600\):/);
    said(twoNames, / has 2 names \(a writer's segment has one\):/);
    if (root) said(theirs, /belongs to uid 65534, not to the trail's owner \(uid 0\)/);
    // Not the trail's to remove either, though their pids are gone; the writer's own stream is removed.
    for (const file of [link, fifo, open, twoNames]) assert.ok(existsSync(file), file);
    assert.equal(existsSync(segmentFile(db, mine, 0)), false);
    await store.close();
  });

  it('H2 the owner rule: a file of another uid than the trail’s is foreign, the owner’s own is not', () => {
    const file = join(dir, 'owned');
    writeFileSync(file, '', { mode: 0o600 });
    const stats = lstatSync(file);
    assert.equal(foreignReason(stats, stats.uid), undefined);
    assert.equal(foreignReason(stats, undefined), undefined, 'no uids (Windows): not judged by owner');
    assert.equal(
      foreignReason(stats, stats.uid + 1),
      `belongs to uid ${stats.uid}, not to the trail's owner (uid ${stats.uid + 1})`,
    );
  });

  it('H1 a next segment somebody else made does not end the one being written; the writer refuses to move on', async () => {
    const db = join(dir, 'next.db');
    const reports: string[] = [];
    const store = new SqliteAuditStore(db, { onQueueReport: (message) => reports.push(message) });
    const stream = `${process.pid}-0000f00d`; // this process: alive, so its stream is applied, not finished
    const writer = new QueueWriter(db, stream, 600);
    writer.write(line([auditEntry(1)]));
    const next = segmentFile(db, stream, 1);
    writeFileSync(next, line([auditEntry(666)]), { mode: 0o644 });
    store.applyQueue(stream);
    // Were segment 1 taken as the writer's, segment 0 would count as complete and what follows in it be lost.
    writer.write(line([auditEntry(2)]));
    store.applyQueue(stream);
    assert.deepEqual(await ids(store), ['1', '2']);
    assert.equal(reports.filter((report) => report.startsWith(next)).length, 1, reports.join(' | '));
    // Once segment 0 is full, the writer would need that name: it fails (the caller refuses calls) instead.
    let n = 3;
    assert.throws(() => {
      for (; n < 50; n++) writer.write(line([auditEntry(n)]));
    }, /the audit queue's next segment .*\.1 already exists, made by somebody else; the trail's directory must be writable by its owner only$/);
    writer.close();
    store.applyQueue(stream);
    assert.deepEqual(
      await ids(store),
      Array.from({ length: n - 1 }, (_, k) => String(k + 1)),
    );
    await store.close();
  });

  it('H3 a trail is not kept, nor read, where anyone may write or in another user’s directory', async () => {
    const shared = join(dir, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777); // sticky, as /tmp: new names (a -wal, a queue) can still be planted
    const refused = `anyone can write the directory ${shared}, and could replace the audit trail with their own: run chmod o-w ${shared}, or keep the audit trail elsewhere`;
    assert.throws(() => new SqliteAuditStore(join(shared, 't.db')), { message: refused });
    const threaded = new SqliteThreadStore(join(shared, 't.db'));
    await assert.rejects(threaded.ready(), (error: Error) => error.message.endsWith(refused));
    await threaded.close().catch(() => undefined);
    assert.equal(existsSync(join(shared, 't.db')), false, 'nothing is created there');
    chmodSync(shared, 0o700);
    new SqliteAuditStore(join(shared, 't.db')).close().catch(() => undefined);
    chmodSync(shared, 0o777);
    assert.throws(() => new SqliteAuditStore(join(shared, 't.db'), { mustExist: true }), {
      message: refused,
    });
    if (root) {
      chmodSync(shared, 0o755);
      chownSync(shared, NOBODY, NOBODY);
      assert.throws(() => new SqliteAuditStore(join(shared, 't.db')), {
        message: `the directory ${shared} belongs to user id 65534, who could replace the audit trail with their own`,
      });
    }
  });
});
