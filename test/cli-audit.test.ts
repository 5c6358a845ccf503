// `toolwire audit` and `toolwire audit verify` as real processes on a SQLite trail: filters, hostile names and
// arguments printed inert (H2) and exact in --json, verify passing and then naming an edited row (H3), --config,
// --follow until SIGINT, and the exact usage errors.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SqliteAuditStore, type AuditEntry, type AuditRecord } from '../src/policy/audit/index.js';
import { runCli } from './fixtures/client/harness.js';
import { auditEntry } from './support/audit-entry.js';

const TEST_MS = 120_000; // each test runs CLI processes on a loaded machine
const USAGE_HINT = 'run "toolwire --help" for usage\n';
const HOSTILE = 'x\r\n{"outcome":"result"}\u001b[2J\u001b]0;PWNED\u0007\u202e\u0085';

/** The first character a terminal would act on (a control other than newline, or a bidi override), if any. */
function unsafeCharacter(text: string): string | undefined {
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    if ((code < 0x20 && code !== 0x0a) || (code >= 0x7f && code <= 0x9f) || code === 0x202e) {
      return `U+${code.toString(16)}`;
    }
  }
  return undefined;
}

const entry = (fields: Partial<AuditEntry>): AuditEntry =>
  auditEntry(1, {
    time: Date.parse('2026-11-27T08:00:00.000Z'),
    authMethod: 'bearer',
    clientName: 'cursor',
    clientVersion: '1.0',
    arguments: '{"text":"hi"}',
    latencyMs: 1.5,
    resultBytes: 42,
    ...fields,
  });

describe('toolwire audit', () => {
  let dir = '';
  let db = '';
  let records: readonly AuditRecord[] = [];
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'toolwire-cli-audit-'));
    db = join(dir, 'audit.db');
    const store = new SqliteAuditStore(db);
    records = await store.append([
      entry({}),
      entry({
        requestId: '2',
        time: Date.parse('2026-11-27T09:00:00.000Z'),
        subject: 'bob',
        tool: 'write_file',
        outcome: 'denied',
        decision: 'denied',
        rule: '{"code":-31003,"missingScopes":["files:write"]}',
        errorCode: -31003,
        detail: 'Forbidden: needs files:write',
        resultBytes: null,
      }),
      entry({
        requestId: '3',
        time: Date.parse('2026-11-27T10:00:00.000Z'),
        subject: HOSTILE,
        tool: HOSTILE,
        clientName: HOSTILE,
        arguments: JSON.stringify({ note: HOSTILE }),
        outcome: 'unknown_tool',
        errorCode: -32602,
        detail: `Unknown tool: "${HOSTILE}"`,
        resultBytes: null,
      }),
    ]);
    await store.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it(
    'lists the newest records, one line each, oldest first; filters by subject, tool, outcome, since',
    { timeout: TEST_MS },
    async () => {
      const all = await runCli(['audit', '--db', db, '--limit', '2']);
      assert.equal(all.code, 0, all.stderr);
      assert.equal(all.stderr, '');
      const lines = all.stdout.split('\n');
      assert.equal(lines.length, 3);
      assert.equal(
        lines[0],
        '2  2026-11-27T09:00:00.000Z  denied  bob via bearer  tools/call write_file  1.5 ms  client cursor  rule {"code":-31003,"missingScopes":["files:write"]}  error -31003 Forbidden: needs files:write  args {"text":"hi"}',
      );
      assert.match(lines[1] ?? '', /^3 {2}2026-11-27T10:00:00\.000Z {2}unknown_tool/);
      const bob = await runCli([
        'audit',
        '--db',
        db,
        '--subject',
        'bob',
        '--outcome',
        'denied',
        '--tool',
        'write_file',
        '--since',
        '2026-11-27T08:30:00Z',
      ]);
      assert.equal(bob.stdout.split('\n').filter(Boolean).length, 1);
      assert.match(bob.stdout, /^2 {2}/);
      const none = await runCli(['audit', '--db', db, '--subject', 'carol']);
      assert.deepEqual(none, { code: 0, stdout: '', stderr: '' });
    },
  );

  it(
    'H2 CRLF, ANSI, OSC, bidi and C1 characters in stored names and arguments print inert',
    { timeout: TEST_MS },
    async () => {
      const run = await runCli(['audit', '--db', db, '--subject', HOSTILE]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout.split('\n').length, 2, 'one record is one line');
      assert.equal(unsafeCharacter(run.stdout), undefined);
      assert.ok(
        run.stdout.includes('x␤{"outcome":"result"}␛[2J␛]0;PWNED␇<U+202E><U+0085> via bearer'),
        run.stdout,
      );
      assert.ok(
        run.stdout.includes(
          'args {"note":"x\\r\\n{\\"outcome\\":\\"result\\"}\\u001b[2J\\u001b]0;PWNED\\u0007\\u202e\\u0085"}',
        ),
      );
    },
  );

  it(
    'H2 --json prints each record exactly as stored, controls as \\u escapes',
    { timeout: TEST_MS },
    async () => {
      const run = await runCli(['audit', '--db', db, '--json']);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(unsafeCharacter(run.stdout), undefined);
      const printed = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as AuditRecord);
      assert.deepEqual(printed, records);
    },
  );

  it('H3 verify passes, then names the row an edit broke (exit 1)', { timeout: TEST_MS }, async () => {
    const copy = join(dir, 'tampered.db');
    const Database = createRequire(import.meta.url)('better-sqlite3') as new (path: string) => {
      exec(sql: string): void;
      close(): void;
    };
    const store = new SqliteAuditStore(copy);
    await store.append([entry({}), entry({ requestId: '2' }), entry({ requestId: '3' })]);
    await store.close();
    assert.deepEqual(await runCli(['audit', 'verify', '--db', copy]), {
      code: 0,
      stdout: `audit trail intact: 3 rows verified (sqlite ${copy})\n`,
      stderr: '',
    });
    const sqlite = new Database(copy);
    sqlite.exec("UPDATE audit SET subject = 'mallory' WHERE id = 2");
    sqlite.close();
    assert.deepEqual(await runCli(['audit', 'verify', '--db', copy]), {
      code: 1,
      stdout: `audit trail broken at row 2: row 2 was changed after it was written: its contents do not match its hash (sqlite ${copy})\n`,
      stderr: '',
    });
    const json = await runCli(['audit', 'verify', '--db', copy, '--json']);
    assert.deepEqual(JSON.parse(json.stdout), {
      ok: false,
      rows: 1,
      firstBadId: 2,
      problem: 'row 2 was changed after it was written: its contents do not match its hash',
    });
  });

  it('--config reads policy.audit (a path relative to the file)', { timeout: TEST_MS }, async () => {
    const config = join(dir, 'toolwire.json');
    writeFileSync(config, JSON.stringify({ policy: { audit: { sqlite: './audit.db' } } }));
    const run = await runCli(['audit', 'verify', '--config', config]);
    assert.deepEqual(run, {
      code: 0,
      stdout: `audit trail intact: 3 rows verified (sqlite ${db})\n`,
      stderr: '',
    });
    const fromCwd = await runCli(['audit', '--limit', '1'], { cwd: dir });
    assert.match(fromCwd.stdout, /^3 {2}/);
  });

  it('--follow prints records as they are written, until SIGINT', { timeout: TEST_MS }, async () => {
    let output = '';
    const run = runCli(['audit', '--db', db, '--follow', '--interval', '100', '--subject', 'carol'], {
      onSpawn: (spawned) => {
        spawned.stdout?.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes('carol via')) spawned.kill('SIGINT');
        });
      },
    });
    // The follower is running once it has printed nothing for the empty filter; write the record it waits for.
    const store = new SqliteAuditStore(db);
    await store.append([entry({ requestId: '9', subject: 'carol' })]);
    await store.close();
    const result = await run;
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^4 {2}2026-11-27T08:00:00\.000Z {2}result {2}carol via bearer/);
  });

  it('usage errors say what to give', { timeout: TEST_MS }, async () => {
    const cases: [string[], string][] = [
      [
        ['audit', '--db', db, '--since', 'yesterday'],
        '--since must be a duration like 30m, 1h or 7d, or an ISO date, got "yesterday"',
      ],
      [
        ['audit', '--db', db, '--outcome', 'ok'],
        '--outcome must be one of result, tool_error, protocol_error, timeout, cancelled, denied, rate_limited, unknown_tool, input_required, task, approval_requested, approval_approved, approval_denied, approval_redeemed, approval_refused, approval_expired, got "ok"',
      ],
      [['audit', '--db', db, '--limit', '0'], '--limit must be a whole number from 1 to 10000, got "0"'],
      [['audit', '--db', db, '--postgres', 'postgres://x/y'], 'give one of --db, --postgres or --config'],
      [['audit', 'check', '--db', db], 'unknown audit action "check": the only one is "verify"'],
      [['audit', 'verify', '--db', db, '--tool', 'x'], '--tool does not apply to audit verify'],
      [['audit'], 'say where the trail is: --db PATH, --postgres URL, or --config FILE with policy.audit'],
    ];
    for (const [args, message] of cases) {
      assert.deepEqual(await runCli(args, { cwd: tmpdir() }), {
        code: 2,
        stdout: '',
        stderr: `toolwire: ${message}\n${USAGE_HINT}`,
      });
    }
    const missing = join(dir, 'nope.db');
    assert.deepEqual(await runCli(['audit', '--db', missing]), {
      code: 3,
      stdout: '',
      stderr: `toolwire: no audit trail at ${missing} (the file does not exist)\n`,
    });
  });
});
