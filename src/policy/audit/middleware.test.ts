// The audit middleware in process: an answer waits for its record, records of one turn share one transaction, a
// store that fails makes the call fail closed (neutral error, details logged), too many waiting calls are refused,
// and "requests" chooses between tools/call only and every request.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capturingLogger,
  connect,
  deferred,
  modern,
  testServer,
  type RawClient,
  type WireMessage,
} from '../../../test/support/harness.js';
import { openAudit, type Audit, type AuditOptions } from './open.js';
import type { AuditEntry, AuditRecord, AuditStore, ChainHead } from './types.js';
import { GENESIS_HASH, chainEntries } from './chain.js';

/** A store in memory that can be held (append waits for the test) or broken (append throws). */
class MemoryStore implements AuditStore {
  readonly description = 'memory';
  readonly rows: AuditRecord[] = [];
  readonly batches: number[] = [];
  gate: Promise<void> | undefined;
  broken = false;
  /** Records this store would hold queued and not yet stored (as the threaded SQLite store's queue does). */
  backlog = 0;
  async append(entries: readonly AuditEntry[]): Promise<readonly AuditRecord[]> {
    this.batches.push(entries.length);
    await this.gate;
    if (this.broken) throw new Error('disk full at /var/lib/toolwire/audit.db');
    const last = this.rows[this.rows.length - 1];
    const records = chainEntries(entries, last?.id ?? 0, last?.hash ?? GENESIS_HASH);
    this.rows.push(...records);
    return records;
  }
  async query(): Promise<AuditRecord[]> {
    return [...this.rows];
  }
  async head(): Promise<ChainHead> {
    const last = this.rows[this.rows.length - 1];
    return {
      lastId: last?.id ?? 0,
      lastHash: last?.hash ?? GENESIS_HASH,
      prunedThrough: 0,
      prunedHash: GENESIS_HASH,
    };
  }
  async prune(): Promise<number> {
    return 0;
  }
  async close(): Promise<void> {}
}

async function setUp(
  store: MemoryStore,
  options: Partial<AuditOptions> = {},
): Promise<{ audit: Audit; client: RawClient; logger: ReturnType<typeof capturingLogger> }> {
  const logger = capturingLogger();
  const audit = await openAudit({ store, logger, ...options });
  const server = testServer();
  server.use(audit.middleware);
  server.tool({ name: 'echo', description: 'Echoes', handler: () => 'ok' });
  return { audit, client: await connect(server), logger };
}

const call = (client: RawClient, id: number): Promise<WireMessage> =>
  client.request('tools/call', modern({ name: 'echo', arguments: {} }), { id, timeoutMs: 20_000 });

describe('audit middleware', () => {
  it('H1 an answer is released only once its record is stored', async () => {
    const store = new MemoryStore();
    const held = deferred();
    store.gate = held.promise;
    const { audit, client } = await setUp(store);
    let answered = false;
    const answer = call(client, 1).then((message) => {
      answered = true;
      return message;
    });
    while (store.batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(answered, false, 'answered before the record was stored');
    assert.equal(store.rows.length, 0);
    held.resolve();
    assert.equal((await answer).result?.content !== undefined, true);
    assert.equal(store.rows.length, 1);
    await audit.close();
  });

  it('H1 calls answered in one turn are recorded in one transaction; later ones wait for the next', async () => {
    const store = new MemoryStore();
    const held = deferred();
    store.gate = held.promise;
    const { audit, client } = await setUp(store);
    const first = Array.from({ length: 8 }, (_, i) => call(client, i + 1));
    while (store.batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const second = Array.from({ length: 5 }, (_, i) => call(client, i + 100));
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(store.batches.length, 1, 'a second batch started while the first was being written');
    held.resolve();
    await Promise.all([...first, ...second]);
    assert.equal(store.rows.length, 13);
    assert.equal(
      store.batches.reduce((sum, size) => sum + size, 0),
      13,
    );
    assert.ok(store.batches.length <= 3, `batches: ${store.batches.join(', ')}`);
    await audit.close();
  });

  it('H1 a record that cannot be stored fails the call closed: neutral error, details in the log', async () => {
    const store = new MemoryStore();
    store.broken = true;
    const { audit, client, logger } = await setUp(store);
    const answer = await call(client, 7);
    assert.equal(answer.result, undefined);
    assert.equal(answer.error?.code, -32603);
    assert.match(
      answer.error?.message ?? '',
      /^Internal error: the request could not be recorded \(reference [0-9a-f]{8}\)$/,
    );
    assert.ok(!JSON.stringify(answer).includes('disk full'));
    const reference = /reference ([0-9a-f]{8})/.exec(answer.error?.message ?? '')?.[1] ?? '';
    assert.match(
      logger.text(),
      new RegExp(`could not be written to memory, so the request fails \\(reference ${reference}\\)`),
    );
    assert.match(logger.text(), /disk full/);
    await audit.close();
  });

  it('too many calls waiting for their records: the next is refused (503) until one is stored', async () => {
    const store = new MemoryStore();
    const held = deferred();
    store.gate = held.promise;
    const { audit, client } = await setUp(store, { maxPending: 2 });
    const waiting = [call(client, 1), call(client, 2)];
    while (store.batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    const refused = await call(client, 3);
    assert.deepEqual(refused.error, {
      code: -32603,
      message: 'Server busy: too many calls are waiting to be recorded; retry shortly',
    });
    held.resolve();
    await Promise.all(waiting);
    assert.equal((await call(client, 4)).error, undefined);
    assert.equal(store.rows.length, 3);
    await audit.close();
  });

  it('records a store holds queued and not yet stored count against the bound: 503 until they are stored', async () => {
    const store = new MemoryStore();
    const { audit, client } = await setUp(store, { maxPending: 3 });
    store.backlog = 3;
    const refused = await call(client, 1);
    assert.equal(
      refused.error?.message,
      'Server busy: too many calls are waiting to be recorded; retry shortly',
    );
    store.backlog = 2; // one place left
    assert.equal((await call(client, 2)).error, undefined);
    assert.deepEqual(
      store.rows.map((row) => row.requestId),
      ['2'],
    );
    await audit.close();
  });

  it('requests: "calls" records tools/call only; "all" records every request', async () => {
    for (const requests of ['calls', 'all'] as const) {
      const store = new MemoryStore();
      const { audit, client } = await setUp(store, { requests });
      await client.request('tools/list', modern());
      await call(client, 2);
      await client.request('server/discover', modern());
      const methods = store.rows.map((row) => `${row.method}:${row.outcome}`);
      assert.deepEqual(
        methods,
        requests === 'calls'
          ? ['tools/call:result']
          : ['tools/list:result', 'tools/call:result', 'server/discover:result'],
      );
      await audit.close();
    }
  });

  it('close() waits for the records of calls under way, then refuses new ones', async () => {
    const store = new MemoryStore();
    const held = deferred();
    store.gate = held.promise;
    const { audit, client } = await setUp(store);
    const answer = call(client, 1);
    while (store.batches.length === 0) await new Promise((resolve) => setImmediate(resolve));
    let closed = false;
    const closing = audit.close().then(() => (closed = true));
    for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, false);
    held.resolve();
    await closing;
    assert.equal((await answer).error, undefined);
    assert.equal(store.rows.length, 1);
    const late = await call(client, 2);
    assert.equal(late.error?.message, 'Server shutting down: the audit trail is closed');
  });
});
