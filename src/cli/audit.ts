// `toolwire audit [verify]`: the audit trail from a SQLite file, a PostgreSQL URL or toolwire.json's policy.audit,
// filtered and printed (every stored text made inert for the terminal, threat H2), followed, or verified (H3).

import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  AUDIT_OUTCOMES,
  AuditConfigError,
  PostgresAuditStore,
  SqliteAuditStore,
  queryAudit,
  readAuditConfig,
  verifyAudit,
  type AuditFilter,
  type AuditRecord,
  type AuditStore,
} from '../policy/audit/index.js';
import { ExitCode, UsageError } from './errors.js';
import { inertJson, terminalLine } from './terminal-text.js';

export interface AuditCommandOptions {
  db?: string;
  postgres?: string;
  table?: string;
  config?: string;
  since?: string;
  subject?: string;
  tool?: string;
  outcome?: string;
  limit?: string;
  json?: boolean;
  follow?: boolean;
  interval?: string;
}

export interface AuditIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const UNIT_MS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** `--since`: a duration back from now (90s, 30m, 1h, 7d) or an ISO 8601 date. */
export function parseSince(text: string, now: number): Date {
  const duration = /^(\d{1,9})([smhd])$/.exec(text);
  if (duration !== null)
    return new Date(now - Number(duration[1]) * (UNIT_MS[duration[2] as string] as number));
  const time = /^\d{4}-\d{2}-\d{2}(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.test(text)
    ? Date.parse(text)
    : NaN;
  if (Number.isNaN(time)) {
    throw new UsageError(
      `--since must be a duration like 30m, 1h or 7d, or an ISO date, got ${JSON.stringify(text)}`,
    );
  }
  return new Date(time);
}

function wholeNumber(text: string, flag: string, min: number, max: number): number {
  const value = /^\d{1,9}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) {
    throw new UsageError(`${flag} must be a whole number from ${min} to ${max}, got ${JSON.stringify(text)}`);
  }
  return value;
}

function filterOf(options: AuditCommandOptions, now: number): AuditFilter {
  if (options.outcome !== undefined && !(AUDIT_OUTCOMES as readonly string[]).includes(options.outcome)) {
    throw new UsageError(
      `--outcome must be one of ${AUDIT_OUTCOMES.join(', ')}, got ${JSON.stringify(options.outcome)}`,
    );
  }
  return {
    ...(options.since !== undefined && { since: parseSince(options.since, now) }),
    ...(options.subject !== undefined && { subject: options.subject }),
    ...(options.tool !== undefined && { tool: options.tool }),
    ...(options.outcome !== undefined && { outcome: options.outcome }),
    limit: options.limit === undefined ? 100 : wholeNumber(options.limit, '--limit', 1, 10_000),
  };
}

/** The store the flags name: --db, --postgres, --config, else ./toolwire.json's policy.audit. */
function openStore(options: AuditCommandOptions, io: AuditIo): AuditStore {
  const given = [options.db, options.postgres, options.config].filter((value) => value !== undefined).length;
  if (given > 1) throw new UsageError('give one of --db, --postgres or --config');
  if (options.table !== undefined && options.postgres === undefined) {
    throw new UsageError('--table goes with --postgres');
  }
  if (options.db !== undefined) return new SqliteAuditStore(resolve(io.cwd, options.db), { mustExist: true });
  if (options.postgres !== undefined) {
    if (!/^postgres(?:ql)?:\/\/./.test(options.postgres)) {
      throw new UsageError('--postgres must be a postgres:// or postgresql:// URL');
    }
    return new PostgresAuditStore(options.postgres, {
      mustExist: true,
      ...(options.table !== undefined && { table: options.table }),
    });
  }
  const file = resolve(io.cwd, options.config ?? 'toolwire.json');
  if (options.config === undefined && !existsSync(file)) {
    throw new UsageError(
      'say where the trail is: --db PATH, --postgres URL, or --config FILE with policy.audit',
    );
  }
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const section = (raw as { policy?: { audit?: unknown } } | null)?.policy?.audit;
  if (section === undefined) throw new UsageError(`${file} has no policy.audit section`);
  try {
    const config = readAuditConfig(section, dirname(file), 'policy.audit', io.env);
    const store = config.store;
    if (!('kind' in store)) throw new UsageError(`${file}: policy.audit names no store`);
    return store.kind === 'sqlite'
      ? new SqliteAuditStore(store.path, { mustExist: true })
      : new PostgresAuditStore(store.url, {
          mustExist: true,
          ...(store.table !== undefined && { table: store.table }),
        });
  } catch (error) {
    if (error instanceof AuditConfigError) throw new UsageError(`${file}: ${error.message}`);
    throw error;
  }
}

/** Stored JSON text shown as inert JSON (\u escapes), whatever it holds. */
function inertStored(json: string): string {
  try {
    return inertJson(JSON.parse(json));
  } catch {
    return inertJson(json);
  }
}

/** One record as one line: every text a client, a caller or a tool chose goes through the terminal sanitiser. */
export function recordLine(record: AuditRecord): string {
  const parts = [
    String(record.id),
    new Date(record.time).toISOString(),
    record.outcome,
    `${terminalLine(record.subject)} via ${terminalLine(record.authMethod)}`,
    record.tool === null
      ? terminalLine(record.method)
      : `${terminalLine(record.method)} ${terminalLine(record.tool)}`,
    `${record.latencyMs} ms`,
  ];
  if (record.resultBytes !== null) parts.push(`${record.resultBytes} B`);
  if (record.clientName !== null) parts.push(`client ${terminalLine(record.clientName)}`);
  if (record.rule !== null) parts.push(`rule ${inertStored(record.rule)}`);
  if (record.errorCode !== null)
    parts.push(`error ${record.errorCode}${record.detail === null ? '' : ` ${terminalLine(record.detail)}`}`);
  if (record.traceId !== null) parts.push(`trace ${terminalLine(record.traceId)}`);
  if (record.arguments !== null) parts.push(`args ${inertStored(record.arguments)}`);
  return parts.join('  ');
}

function print(records: readonly AuditRecord[], options: AuditCommandOptions, io: AuditIo): void {
  // --json: each record exactly as stored (hashes can be recomputed from it), one per line, controls as \u escapes.
  for (const record of records)
    io.stdout.write(`${options.json === true ? inertJson(record) : recordLine(record)}\n`);
}

async function follow(
  store: AuditStore,
  filter: AuditFilter,
  lastId: number,
  intervalMs: number,
  options: AuditCommandOptions,
  io: AuditIo,
  signal: AbortSignal,
): Promise<void> {
  let after = lastId;
  const { limit: _limit, ...rest } = filter;
  while (!signal.aborted) {
    try {
      await delay(intervalMs, undefined, { signal });
    } catch {
      return; // interrupted: the normal end of --follow
    }
    for (;;) {
      const page = await queryAudit(store, { ...rest, afterId: after, limit: 1_000 });
      print(page, options, io);
      after = page[page.length - 1]?.id ?? after;
      if (page.length < 1_000) break;
    }
  }
}

export async function audit(
  action: string | undefined,
  options: AuditCommandOptions,
  io: AuditIo,
  signal: AbortSignal,
  now: () => number = Date.now,
): Promise<number> {
  let store: AuditStore | undefined;
  try {
    if (action !== undefined && action !== 'verify') {
      throw new UsageError(`unknown audit action ${JSON.stringify(action)}: the only one is "verify"`);
    }
    const verifying = action === 'verify';
    if (verifying) {
      for (const flag of ['since', 'subject', 'tool', 'outcome', 'limit', 'follow', 'interval'] as const) {
        if (options[flag] !== undefined) throw new UsageError(`--${flag} does not apply to audit verify`);
      }
    }
    const filter = verifying ? {} : filterOf(options, now());
    const intervalMs =
      options.interval === undefined ? 1_000 : wholeNumber(options.interval, '--interval', 100, 60_000);
    if (options.interval !== undefined && options.follow !== true)
      throw new UsageError('--interval goes with --follow');
    try {
      store = openStore(options, io);
      if (verifying) {
        const verdict = await verifyAudit(store);
        if (options.json === true) io.stdout.write(`${inertJson(verdict)}\n`);
        else if (verdict.ok)
          io.stdout.write(`audit trail intact: ${verdict.rows} rows verified (${store.description})\n`);
        else
          io.stdout.write(
            `audit trail broken at row ${verdict.firstBadId}: ${verdict.problem} (${store.description})\n`,
          );
        return verdict.ok ? ExitCode.Success : ExitCode.ToolError;
      }
      const records = await queryAudit(store, { ...filter, newest: true });
      print(records, options, io);
      if (options.follow === true) {
        const lastId = records[records.length - 1]?.id ?? (await store.head()).lastId;
        await follow(store, filter, lastId, intervalMs, options, io, signal);
      }
      return ExitCode.Success;
    } catch (error) {
      if (error instanceof UsageError) throw error;
      io.stderr.write(`toolwire: ${terminalLine(error instanceof Error ? error.message : String(error))}\n`);
      return ExitCode.Connection;
    }
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    io.stderr.write(`toolwire: ${error.message}\nrun "toolwire --help" for usage\n`);
    return ExitCode.Usage;
  } finally {
    await store?.close().catch(() => undefined);
  }
}
