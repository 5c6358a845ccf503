// H1 under a crash: a child process serves calls over HTTP with a SQLite audit trail and is killed with SIGKILL while
// calls are in flight. Every call whose answer the client received has exactly one record afterwards, and the chain
// verifies. Twice: with the store committing before each answer (slowed down), and with the default writer, whose
// answers leave once their records are queued (the queue is stored as the trail is next opened). This file is also
// the child: run with AUDIT_CRASH_DB set, it serves and prints its URL.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  SqliteAuditStore,
  openAudit,
  queryAudit,
  verifyAudit,
  type AuditEntry,
  type AuditRecord,
} from '../src/policy/audit/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { MODERN, modernMeta, postMcp } from './support/http-mcp.js';

const childDb = process.env.AUDIT_CRASH_DB;
/** "slow": the SlowStore below; "queued": the default SQLite writer (queue and thread). */
const childStore = process.env.AUDIT_CRASH_STORE;

/**
 * The child's store is SQLite behind a short wait per batch (a slow disk): without the guarantee an answer would
 * leave before its record, and the kill would find it missing.
 */
class SlowStore extends SqliteAuditStore {
  override async append(entries: readonly AuditEntry[]): Promise<readonly AuditRecord[]> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    return super.append(entries);
  }
}

async function serveChild(path: string): Promise<void> {
  const audit = await openAudit({
    store: childStore === 'queued' ? { kind: 'sqlite', path } : new SlowStore(path),
    logger: silentLogger,
  });
  const server = new McpServer({ name: 'crash', version: '1.0.0' }, { logger: silentLogger });
  server.use(audit.middleware);
  server.tool({
    name: 'echo',
    description: 'Echoes after a turn',
    inputSchema: { type: 'object', properties: { n: { type: 'number' } } },
    handler: async (args) => {
      await new Promise((resolve) => setImmediate(resolve));
      return `echo ${String((args as { n?: number }).n)}`;
    },
  });
  const http = await listenHttp(server, { port: 0 });
  process.stdout.write(`${http.url}\n`);
}

if (childDb !== undefined) {
  await serveChild(childDb);
} else {
  describe('audit trail: kill -9 under load', () => {
    for (const [kind, title] of [
      ['slow', 'committed before each answer'],
      ['queued', 'the default writer: queued before each answer'],
    ] as const) {
      it(
        `H1 every call answered before SIGKILL has exactly one record, and the chain verifies (${title})`,
        { timeout: 180_000 },
        async () => {
          const dir = mkdtempSync(join(tmpdir(), 'toolwire-audit-crash-'));
          const db = join(dir, 'audit.db');
          const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname], {
            env: { ...process.env, AUDIT_CRASH_DB: db, AUDIT_CRASH_STORE: kind },
            stdio: ['ignore', 'pipe', 'inherit'],
          });
          const exited = new Promise<NodeJS.Signals | null>((resolve) =>
            child.once('exit', (_code, signal) => resolve(signal)),
          );
          try {
            const url = await new Promise<string>((resolve, reject) => {
              let text = '';
              child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
                text += chunk;
                if (text.includes('\n')) resolve(text.split('\n')[0] as string);
              });
              child.once('exit', () => reject(new Error(`the child exited before serving: ${text}`)));
            });
            const answered: string[] = [];
            const KILL_AFTER = 300;
            let next = 0;
            let killed = false;
            const worker = async (): Promise<void> => {
              while (!killed) {
                const id = `call-${next++}`;
                try {
                  const answer = await postMcp(
                    url,
                    {
                      jsonrpc: '2.0',
                      id,
                      method: 'tools/call',
                      params: { name: 'echo', arguments: { n: next }, _meta: modernMeta() },
                    },
                    { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
                  );
                  if (answer.body?.result !== undefined && answer.body.id === id) answered.push(id);
                } catch {
                  return; // the server is gone
                }
                if (answered.length >= KILL_AFTER && !killed) {
                  killed = true;
                  child.kill('SIGKILL'); // while the other workers' calls are in flight
                }
              }
            };
            await Promise.all(Array.from({ length: 16 }, worker));
            assert.equal(await exited, 'SIGKILL');
            const store = new SqliteAuditStore(db);
            try {
              const records = await queryAudit(store, { limit: 10_000 });
              const count = new Map<string, number>();
              for (const record of records)
                count.set(record.requestId, (count.get(record.requestId) ?? 0) + 1);
              const missing = answered.filter((id) => count.get(JSON.stringify(id)) !== 1);
              assert.deepEqual(
                missing,
                [],
                `${missing.length} of ${answered.length} answered calls lack exactly one record`,
              );
              assert.ok(records.length >= answered.length);
              assert.deepEqual(await verifyAudit(store), { ok: true, rows: records.length });
            } finally {
              await store.close();
            }
            // What the killed process queued is stored now, and its files are gone.
            assert.deepEqual(
              readdirSync(dir).filter((name) => name.includes('.q-')),
              [],
            );
          } finally {
            child.kill('SIGKILL');
            rmSync(dir, { recursive: true, force: true });
          }
        },
      );
    }
  });
}
