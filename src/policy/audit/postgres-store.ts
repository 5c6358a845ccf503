// The PostgreSQL audit store (pg): one multi-row INSERT per batch in a transaction that locks the chain's head row,
// so writers in several processes still extend one chain in order.

import { createRequire } from 'node:module';
import { GENESIS_HASH, chainEntries } from './chain.js';
import { COLUMN_LIST, COLUMNS, columnDefinitions, filterSql, fromRow, rowValues } from './columns.js';
import type { AuditEntry, AuditFilter, AuditRecord, AuditStore, ChainHead, PruneRule } from './types.js';

/** What of pg this store uses (the package ships no types). */
interface QueryResult {
  rows: Record<string, unknown>[];
  rowCount: number | null;
}
interface Queryable {
  query(text: string, values?: unknown[]): Promise<QueryResult>;
}
interface PoolClient extends Queryable {
  release(error?: Error): void;
}
interface Pool extends Queryable {
  connect(): Promise<PoolClient>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}
type PoolConstructor = new (options: {
  connectionString: string;
  max: number;
  connectionTimeoutMillis: number;
}) => Pool;

const loadPool = (): PoolConstructor =>
  (createRequire(import.meta.url)('pg') as { Pool: PoolConstructor }).Pool; // CommonJS, typed above

/** A table name: an identifier, optionally schema-qualified; quoted when used. */
const TABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}(?:\.[A-Za-z_][A-Za-z0-9_]{0,62})?$/;
export const DEFAULT_TABLE = 'toolwire_audit';

/** The URL without its password, for messages. */
export function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'postgres (unparsable URL)';
  }
}

export interface PostgresStoreOptions {
  table?: string;
  /** Connections in the pool (default 4): one writes at a time; queries and retention use the others. */
  maxConnections?: number;
  /** Open an existing trail only (the CLI): nothing is created. */
  mustExist?: boolean;
}

export class PostgresAuditStore implements AuditStore {
  readonly description: string;
  readonly #pool: Pool;
  readonly #table: string;
  readonly #head: string;
  #ready: Promise<void>;

  constructor(url: string, options: PostgresStoreOptions = {}) {
    const table = options.table ?? DEFAULT_TABLE;
    if (!TABLE_NAME.test(table)) {
      throw new Error(
        `the audit table name must be an SQL identifier (optionally schema.table), got ${JSON.stringify(table)}`,
      );
    }
    const quote = (name: string): string =>
      name
        .split('.')
        .map((part) => `"${part}"`)
        .join('.');
    this.#table = quote(table);
    this.#head = quote(`${table}_head`);
    this.description = `postgres ${describeUrl(url)} table ${table}`;
    const Pool = loadPool();
    this.#pool = new Pool({
      connectionString: url,
      max: options.maxConnections ?? 4,
      connectionTimeoutMillis: 10_000,
    });
    // An idle connection that dies is replaced; without a listener its error would end the process.
    this.#pool.on('error', () => undefined);
    this.#ready = options.mustExist === true ? this.#checkExists() : this.#create(table);
    this.#ready.catch(() => undefined); // reported by the first operation that awaits it
  }

  /** Resolves once the tables exist (openAudit awaits it, so a bad URL fails at startup). */
  ready(): Promise<void> {
    return this.#ready;
  }

  async #checkExists(): Promise<void> {
    const found = await this.#pool.query('SELECT to_regclass($1) AS name', [this.#head]);
    if (found.rows[0]?.name === null) throw new Error(`no audit trail in ${this.description}`);
  }

  async #create(table: string): Promise<void> {
    await this.#transaction(async (client) => {
      // Two processes starting at once must not both create the tables.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`toolwire-audit:${table}`]);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#table} (${columnDefinitions('BIGINT', 'DOUBLE PRECISION')})`,
      );
      const index = table.replace('.', '_');
      await client.query(`CREATE INDEX IF NOT EXISTS "${index}_time" ON ${this.#table} (time)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${index}_subject" ON ${this.#table} (subject, id)`);
      await client.query(`CREATE INDEX IF NOT EXISTS "${index}_tool" ON ${this.#table} (tool, id)`);
      await client.query(
        `CREATE TABLE IF NOT EXISTS ${this.#head} (one BOOLEAN PRIMARY KEY DEFAULT true CHECK (one), last_id BIGINT NOT NULL,
           last_hash TEXT NOT NULL, pruned_through BIGINT NOT NULL, pruned_hash TEXT NOT NULL)`,
      );
      await client.query(
        `INSERT INTO ${this.#head} VALUES (true, 0, $1, 0, $1) ON CONFLICT (one) DO NOTHING`,
        [GENESIS_HASH],
      );
    });
  }

  async #transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const value = await work(client);
      await client.query('COMMIT');
      client.release();
      return value;
    } catch (error) {
      try {
        await client.query('ROLLBACK');
        client.release();
      } catch (rollback) {
        client.release(rollback as Error); // a broken connection leaves the pool
      }
      throw error;
    }
  }

  /** The head, locked until the transaction ends: writers of every process take turns here. */
  async #lockedHead(client: PoolClient): Promise<ChainHead> {
    const result = await client.query(
      `SELECT last_id, last_hash, pruned_through, pruned_hash FROM ${this.#head} FOR UPDATE`,
    );
    return headOf(result.rows[0], this.description);
  }

  async append(entries: readonly AuditEntry[]): Promise<readonly AuditRecord[]> {
    await this.#ready;
    if (entries.length === 0) return [];
    return this.#transaction(async (client) => {
      const head = await this.#lockedHead(client);
      const records = chainEntries(entries, head.lastId, head.lastHash);
      const values: unknown[] = [];
      const tuples = records.map((record) => {
        const start = values.length;
        values.push(...rowValues(record));
        return `(${COLUMNS.map((_, i) => `$${start + i + 1}`).join(', ')})`;
      });
      await client.query(`INSERT INTO ${this.#table} (${COLUMN_LIST}) VALUES ${tuples.join(', ')}`, values);
      const last = records[records.length - 1] as AuditRecord;
      await client.query(`UPDATE ${this.#head} SET last_id = $1, last_hash = $2`, [last.id, last.hash]);
      return records;
    });
  }

  async query(filter: AuditFilter): Promise<AuditRecord[]> {
    await this.#ready;
    const { where, order, limit, params } = filterSql(filter, (index) => `$${index}`);
    const result = await this.#pool.query(
      `SELECT ${COLUMN_LIST} FROM ${this.#table} ${where} ORDER BY id ${order} LIMIT ${limit}`,
      params,
    );
    const records = result.rows.map(fromRow);
    return order === 'DESC' ? records.reverse() : records;
  }

  async head(): Promise<ChainHead> {
    await this.#ready;
    const result = await this.#pool.query(
      `SELECT last_id, last_hash, pruned_through, pruned_hash FROM ${this.#head}`,
    );
    return headOf(result.rows[0], this.description);
  }

  async prune(rule: PruneRule): Promise<number> {
    await this.#ready;
    return this.#transaction(async (client) => {
      const head = await this.#lockedHead(client);
      let through = head.prunedThrough;
      if (rule.before !== undefined) {
        // Up to the first row that is young enough: a slow call's row may be older than rows before it.
        const row = await client.query(`SELECT MIN(id) AS id FROM ${this.#table} WHERE time >= $1`, [
          rule.before,
        ]);
        const first = row.rows[0]?.id;
        through = Math.max(through, first === null || first === undefined ? head.lastId : Number(first) - 1);
      }
      if (rule.keepRows !== undefined) through = Math.max(through, head.lastId - rule.keepRows);
      if (through <= head.prunedThrough) return 0;
      const boundary = await client.query(`SELECT hash FROM ${this.#table} WHERE id = $1`, [through]);
      const hash = boundary.rows[0]?.hash;
      if (typeof hash !== 'string')
        throw new Error(`${this.description}: row ${through} is missing; run verify`);
      const removed = await client.query(`DELETE FROM ${this.#table} WHERE id <= $1`, [through]);
      await client.query(`UPDATE ${this.#head} SET pruned_through = $1, pruned_hash = $2`, [through, hash]);
      return removed.rowCount ?? 0;
    });
  }

  async close(): Promise<void> {
    await this.#ready.catch(() => undefined);
    await this.#pool.end();
  }
}

function headOf(row: Record<string, unknown> | undefined, description: string): ChainHead {
  if (row === undefined) throw new Error(`${description} has no chain head (not an audit trail?)`);
  return {
    lastId: Number(row.last_id),
    lastHash: String(row.last_hash),
    prunedThrough: Number(row.pruned_through),
    prunedHash: String(row.pruned_hash),
  };
}
