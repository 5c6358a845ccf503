// The embedded trail as the server writes it: SqliteAuditStore in a writer thread (SqliteThreadStore). The thread
// must keep every promise of the in-thread store (one chain, H3; records committed before the call's answer, H1),
// fail closed when it cannot open or dies, and never keep a process alive on its own.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  SqliteAuditStore,
  SqliteThreadStore,
  openAudit,
  queryAudit,
  verifyAudit,
  type AuditEntry,
} from '../src/policy/audit/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { auditEntry } from './support/audit-entry.js';
import { callTool } from './support/http-mcp.js';

// Arguments with a CRLF and an escape: the thread must store them as data, exactly.
const entry = (n: number): AuditEntry =>
  auditEntry(n, {
    clientName: 'tester',
    clientVersion: '1.0.0',
    arguments: `{"n":${n},"text":"line\\r\\nbreak \\u001b[31m"}`,
    latencyMs: 0.25,
  });

describe('audit trail: the SQLite writer thread', () => {
  let dir = '';
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-thread-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('H3 stores what the in-thread store stores: the same rows, one chain, verifiable from either', async () => {
    const path = join(dir, 'same.db');
    const threaded = new SqliteThreadStore(path);
    await threaded.ready();
    // Batches at once: queued in order, stored in that order.
    await Promise.all([
      threaded.append([entry(1), entry(2)]),
      threaded.append([entry(3)]),
      threaded.append([]),
    ]);
    // Another connection (a second process would be one) stores what is queued as it opens, then continues the chain.
    const direct = new SqliteAuditStore(path);
    await direct.append([entry(4)]);
    await threaded.append([entry(5)]);
    assert.deepEqual(await verifyAudit(threaded), { ok: true, rows: 5 });
    assert.deepEqual(await verifyAudit(direct), { ok: true, rows: 5 });
    const rows = await queryAudit(threaded, {});
    assert.deepEqual(rows, await queryAudit(direct, {}));
    assert.deepEqual(
      rows.map((record) => record.requestId),
      ['1', '2', '3', '4', '5'],
    );
    assert.equal(rows[0]?.arguments, entry(1).arguments); // control characters kept as data, exactly
    assert.equal(await threaded.prune({ keepRows: 2 }), 3);
    assert.deepEqual(await verifyAudit(threaded), { ok: true, rows: 2 });
    await direct.close();
    await threaded.close();
    await assert.rejects(threaded.append([entry(6)]), /closed/);
  });

  it('a trail that cannot open refuses to start, naming the file and why', async () => {
    const blocker = join(dir, 'not-a-directory');
    writeFileSync(blocker, 'x');
    await assert.rejects(
      openAudit({ store: { kind: 'sqlite', path: join(blocker, 'audit.db') }, logger: silentLogger }),
      (error: Error) =>
        error.message.startsWith(`the audit trail cannot open sqlite ${join(blocker, 'audit.db')}:`) &&
        /EEXIST|ENOTDIR/.test(error.message),
    );
    await assert.rejects(
      openAudit({
        store: { kind: 'sqlite', path: join(dir, 'x.db'), writer: 'sideways' as 'thread' },
        logger: silentLogger,
      }),
      /writer must be "thread" or "inline", got "sideways"/,
    );
  });

  it('H1 a thread that dies fails the calls waiting for it and every later call, and the server answers none', async () => {
    const path = join(dir, 'dies.db');
    const audit = await openAudit({ store: { kind: 'sqlite', path }, logger: silentLogger });
    const store = audit.store as SqliteThreadStore;
    const server = new McpServer({ name: 'audited', version: '1.0.0' }, { logger: silentLogger });
    server.use(audit.middleware);
    server.tool({
      name: 'echo',
      description: 'Echoes',
      inputSchema: { type: 'object' },
      handler: () => 'ok',
    });
    const http = await listenHttp(server, { port: 0 });
    try {
      const good = await callTool(http.url, 'echo', {});
      assert.equal(good.status, 200);
      assert.deepEqual(good.body?.result?.content, [{ type: 'text', text: 'ok' }]);
      await store.terminate();
      const refused = await callTool(http.url, 'echo', {});
      assert.match(JSON.stringify(refused.body), /could not be recorded \(reference [0-9a-f]{8}\)/);
      assert.doesNotMatch(JSON.stringify(refused.body), /thread|sqlite|dies\.db/); // never the internals
      await assert.rejects(store.append([entry(1)]), /audit writer thread stopped/);
    } finally {
      await http.close();
      await audit.close().catch(() => undefined);
    }
    const reopened = new SqliteAuditStore(path, { mustExist: true });
    assert.deepEqual(await verifyAudit(reopened), { ok: true, rows: 1 }); // the answered call, and only it
    await reopened.close();
  });

  for (const writer of ['thread', 'inline'] as const) {
    it(`never keeps a process alive: one that writes a record and ends without close() exits at once (${writer})`, () => {
      const path = join(dir, `exit-${writer}.db`);
      const script = join(dir, `exit-${writer}.mts`);
      const index = new URL('../src/policy/audit/index.ts', import.meta.url).href;
      writeFileSync(
        script,
        `import { openAudit } from ${JSON.stringify(index)};
const audit = await openAudit({ store: { kind: 'sqlite', path: ${JSON.stringify(path)}, writer: '${writer}' } });
await audit.recordEvent(${JSON.stringify(entry(1))});
console.log('written');
`,
      );
      const root = fileURLToPath(new URL('..', import.meta.url));
      const child = spawnSync(process.execPath, ['--import', 'tsx', script], {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.equal(child.signal, null, `killed by ${child.signal}: it did not exit by itself`);
      assert.equal(child.status, 0, child.stderr);
      assert.equal(child.stdout.trim(), 'written');
      const store = new SqliteAuditStore(path, { mustExist: true });
      return verifyAudit(store).then(async (result) => {
        assert.deepEqual(result, { ok: true, rows: 1 });
        await store.close();
      });
    });
  }
});
