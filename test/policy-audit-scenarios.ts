// The audit trail's scenarios over real HTTP, run against each store (SQLite, PostgreSQL): every outcome of a
// tools/call leaves exactly one record on both eras (H1), hostile names and arguments are stored as data (H2),
// secrets are redacted before the row is written (E3), and an edited or deleted row fails verify (H3).

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ErrorCode } from '../src/jsonrpc/index.js';
import type { Caller } from '../src/protocol/index.js';
import { Denial, McpServer, silentLogger, type Middleware } from '../src/server/index.js';
import { argumentsDigest } from '../src/server/request-state.js';
import { listenHttp, type HttpListening } from '../src/transports/http/index.js';
import {
  openAudit,
  queryAudit,
  verifyAudit,
  type Audit,
  type AuditOptions,
  type AuditRecord,
} from '../src/policy/audit/index.js';
import {
  LEGACY,
  MODERN,
  callTool,
  legacySession,
  modernMeta,
  postMcp,
  type HttpAnswer,
} from './support/http-mcp.js';

/** A store for one describe block, a way to change its rows behind the trail's back, and its removal. */
export interface StoreUnderTest {
  readonly store: AuditOptions['store'];
  /** Runs SQL on the audit table directly ("audit" is replaced by the table's name). */
  tamper(sql: string, params?: unknown[]): Promise<void>;
  cleanup(): Promise<void>;
}

const ALICE: Caller = Object.freeze({
  subject: 'alice',
  via: 'bearer',
  scopes: Object.freeze(['files:read']),
  clientId: 'client-7',
});

/** Stand-ins for the scopes and rate-limit middleware: they refuse as those will, inside the audit middleware. */
const standInPolicy: Middleware = (request, next) => {
  if (request.target?.name === 'guarded') {
    request.deny(ErrorCode.InsufficientScope, 'Forbidden: tool "guarded" needs scope files:write', {
      data: { requiredScopes: ['files:write'], missingScopes: ['files:write'] },
      httpStatus: 403,
    });
  }
  if (request.target?.name === 'limited') {
    throw new Denial(ErrorCode.RateLimited, 'Too many requests: 2 calls per minute; retry in 30 s', {
      data: { limit: 2, retryAfterMs: 30_000 },
      httpStatus: 429,
      httpHeaders: { 'Retry-After': '30' },
    });
  }
  return next();
};

/** Resolves when the hanging tool has started (the test then cancels it). */
let hangStarted: (() => void) | undefined;

function auditedServer(audit: Audit): McpServer {
  const server = new McpServer({ name: 'audited', version: '1.0.0' }, { logger: silentLogger });
  server.use(audit.middleware); // outermost: sees the refusals of the policy inside it
  server.use(standInPolicy);
  const any = { type: 'object', properties: {}, additionalProperties: true } as const;
  server.tool({
    name: 'echo',
    description: 'Echoes',
    inputSchema: any,
    handler: (args) => JSON.stringify(args),
  });
  server.tool({
    name: 'fail',
    description: 'Fails',
    inputSchema: any,
    handler: () => ({ content: [{ type: 'text', text: 'no such file' }], isError: true }),
  });
  server.tool({
    name: 'slow',
    description: 'Outlives its time limit',
    inputSchema: any,
    timeoutMs: 100,
    handler: (_args, ctx) =>
      new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve('late'))),
  });
  server.tool({
    name: 'hang',
    description: 'Waits to be cancelled',
    inputSchema: any,
    handler: (_args, ctx) =>
      new Promise((resolve) => {
        ctx.signal.addEventListener('abort', () => resolve('cancelled'));
        hangStarted?.();
      }),
  });
  for (const name of ['guarded', 'limited']) {
    server.tool({ name, description: 'Refused by policy', inputSchema: any, handler: () => 'never' });
  }
  return server;
}

/**
 * A call cancelled once its tool runs: on a legacy session by notifications/cancelled, on 2026-07-28 by the client
 * going away (aborting the POST), which is how a stateless HTTP call is cancelled.
 */
async function abortedCall(
  url: string,
  message: { id: number },
  headers: Record<string, string>,
  notify: boolean,
): Promise<void> {
  const controller = new AbortController();
  const started = new Promise<void>((resolve) => (hangStarted = resolve));
  const posted = fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body: JSON.stringify(message),
    signal: controller.signal,
  }).then((response) => response.text());
  await started;
  if (notify) {
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: message.id } };
    assert.equal((await postMcp(url, cancel, headers)).status, 202);
  }
  controller.abort();
  await posted.catch(() => undefined);
}

const idOf = (answer: HttpAnswer): string => JSON.stringify(answer.body?.id);

export function auditScenarios(label: string, makeStore: () => Promise<StoreUnderTest>): void {
  describe(`audit trail over HTTP (${label})`, () => {
    let under: StoreUnderTest;
    let audit: Audit;
    let http: HttpListening;
    let url = '';
    before(async () => {
      under = await makeStore();
      audit = await openAudit({ store: under.store, logger: silentLogger });
      http = await listenHttp(auditedServer(audit), { port: 0, authenticate: () => ALICE });
      url = http.url;
    });
    after(async () => {
      await http?.close();
      await audit?.close();
      await under?.cleanup();
    });

    const all = (): Promise<AuditRecord[]> => queryAudit(audit.store, { limit: 10_000 });
    const recordsOf = async (requestId: string): Promise<AuditRecord[]> =>
      (await all()).filter((record) => record.requestId === requestId);
    /** The one record of a request: exactly one, or the test fails. */
    async function onlyRecord(requestId: string): Promise<AuditRecord> {
      const records = await recordsOf(requestId);
      assert.equal(records.length, 1, `request ${requestId} has ${records.length} records`);
      return records[0] as AuditRecord;
    }

    for (const era of ['modern', 'legacy'] as const) {
      it(`H1 every tools/call outcome leaves exactly one record (${era})`, { timeout: 60_000 }, async () => {
        const before = (await all()).length;
        let call: (name: string, args?: Record<string, unknown>) => Promise<HttpAnswer>;
        let cancelHeaders: Record<string, string>;
        let cancelMessage: (id: number) => { id: number };
        if (era === 'modern') {
          call = (name, args = {}) => callTool(url, name, args as never);
          cancelHeaders = { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'hang' };
          cancelMessage = (id) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'hang', arguments: {}, _meta: modernMeta() },
          });
        } else {
          const session = await legacySession(url);
          call = (name, args = {}) => session.request('tools/call', { name, arguments: args as never });
          cancelHeaders = { 'mcp-session-id': session.sessionId, 'mcp-protocol-version': LEGACY };
          cancelMessage = (id) => ({
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'hang', arguments: {} },
          });
        }
        const expected: [HttpAnswer, Partial<AuditRecord>][] = [];
        const result = await call('echo', { text: 'hi' });
        assert.equal(result.status, 200);
        expected.push([result, { outcome: 'result', decision: 'allowed', tool: 'echo', errorCode: null }]);
        const failed = await call('fail');
        assert.equal(failed.body?.result?.isError, true);
        expected.push([failed, { outcome: 'tool_error', decision: 'allowed', detail: 'no such file' }]);
        const slow = await call('slow');
        assert.match(String(JSON.stringify(slow.body?.result)), /timed out after 100 ms/);
        expected.push([
          slow,
          { outcome: 'timeout', decision: 'allowed', detail: 'Tool "slow" timed out after 100 ms' },
        ]);
        const denied = await call('guarded');
        assert.equal(denied.body?.error?.code, -31003);
        expected.push([
          denied,
          {
            outcome: 'denied',
            decision: 'denied',
            errorCode: -31003,
            rule: '{"code":-31003,"missingScopes":["files:write"],"requiredScopes":["files:write"]}',
          },
        ]);
        const limited = await call('limited');
        assert.equal(limited.body?.error?.code, -31429);
        expected.push([
          limited,
          {
            outcome: 'rate_limited',
            decision: 'denied',
            rule: '{"code":-31429,"limit":2,"retryAfterMs":30000}',
          },
        ]);
        const unknown = await call('nope');
        assert.equal(unknown.body?.error?.code, -32602);
        expected.push([
          unknown,
          { outcome: 'unknown_tool', decision: 'allowed', tool: 'nope', errorCode: -32602 },
        ]);
        const malformed = await call('echo', 'not an object' as never);
        assert.equal(malformed.body?.error?.code, -32602);
        expected.push([malformed, { outcome: 'protocol_error', errorCode: -32602 }]);
        for (const [answer, fields] of expected) {
          const record = await onlyRecord(idOf(answer));
          for (const [key, value] of Object.entries(fields)) {
            assert.deepEqual(record[key as keyof AuditRecord], value, `${fields.outcome}: ${key}`);
          }
          assert.equal(record.subject, 'alice');
          assert.equal(record.authMethod, 'bearer');
          assert.equal(record.clientId, 'client-7');
          assert.equal(record.clientName, 'policy-test');
          assert.equal(record.era, era);
          assert.equal(record.approvalId, null);
          assert.ok(record.latencyMs >= 0);
        }
        // Cancelled: the client goes away while the tool runs; its record is written all the same.
        const cancelId = 900_000 + (era === 'modern' ? 1 : 2);
        await abortedCall(url, cancelMessage(cancelId), cancelHeaders, era === 'legacy');
        let cancelled: AuditRecord[] = [];
        await waitForAsync(async () => (cancelled = await recordsOf(String(cancelId))).length > 0);
        assert.equal(cancelled.length, 1);
        assert.equal(cancelled[0]?.outcome, 'cancelled');
        assert.equal((await all()).length, before + expected.length + 1, 'no other records were written');
        assert.deepEqual(await verifyAudit(audit.store), { ok: true, rows: (await all()).length });
      });
    }

    it('H1 the record carries the trace id from params._meta.traceparent and the result size', async () => {
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const answer = await postMcp(
        url,
        {
          jsonrpc: '2.0',
          id: 'trace-1',
          method: 'tools/call',
          params: {
            name: 'echo',
            arguments: { b: 1, a: [true, null] },
            _meta: { ...modernMeta(), traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
          },
        },
        { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': 'echo' },
      );
      assert.equal(answer.status, 200);
      const record = await onlyRecord('"trace-1"');
      assert.equal(record.traceId, traceId);
      assert.equal(record.argsDigest, argumentsDigest({ a: [true, null], b: 1 }));
      assert.equal(record.arguments, '{"b":1,"a":[true,null]}');
      // The result as the tool chain produced it, before the modern envelope adds its _meta.
      const content = JSON.stringify(answer.body?.result?.content);
      assert.ok(record.resultBytes !== null && record.resultBytes > Buffer.byteLength(content));
      assert.ok(record.resultBytes < Buffer.byteLength(JSON.stringify(answer.body?.result)));
    });

    it('H2 CRLF, ANSI escapes and JSON fragments in names and arguments are stored as data', async () => {
      const hostile = 'x\r\n{"outcome":"result","subject":"root"}\u001b[2J\u001b]0;PWNED\u0007\u0000\ud800';
      // On a legacy session: a modern request mirrors the name in an HTTP header, which cannot carry CR LF at all.
      const session = await legacySession(url);
      const unknown = await session.request('tools/call', { name: hostile, arguments: { note: hostile } });
      assert.equal(unknown.body?.error?.code, -32602);
      const record = await onlyRecord(idOf(unknown));
      assert.equal(record.outcome, 'unknown_tool');
      assert.equal(record.subject, 'alice');
      // Stored as sent, but for NUL and the lone surrogate, which neither store can hold (U+FFFD instead).
      const stored = hostile.replace('\u0000', '\ufffd').replace('\ud800', '\ufffd');
      assert.equal(record.tool, stored);
      // Arguments are JSON text: NUL survives as \u0000, the lone surrogate as the \ud800 escape of JSON.stringify.
      assert.deepEqual(JSON.parse(record.arguments ?? ''), { note: hostile });
      assert.equal((await verifyAudit(audit.store)).ok, true);
    });

    it('E3 an AWS key, a JWT, a private key and a bearer token in arguments never reach the store', async () => {
      const secrets = {
        aws: 'AKIAIOSFODNN7EXAMPLE',
        jwt: 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
        key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----',
        bearer: 'Bearer 4f9c1e2d8b7a6c5d4e3f2a1b0c9d8e7f',
      };
      const args = {
        command: `deploy --key ${secrets.aws} --token ${secrets.jwt}`,
        pem: secrets.key,
        headers: [`Authorization: ${secrets.bearer}`],
        password: 'hunter2-correct-horse',
      };
      const answer = await callTool(url, 'echo', args);
      assert.equal(answer.status, 200);
      const record = await onlyRecord(idOf(answer));
      const stored = record.arguments ?? '';
      for (const secret of [...Object.values(secrets), '4f9c1e2d8b7a6c5d4e3f2a1b0c9d8e7f', 'hunter2']) {
        assert.ok(!stored.includes(secret), `the stored row holds ${secret.slice(0, 12)}…`);
      }
      assert.deepEqual(JSON.parse(stored), {
        command: 'deploy --key [redacted:aws-access-key-id] --token [redacted:jwt]',
        pem: '[redacted:private-key]',
        headers: ['Authorization: Bearer [redacted:bearer-token]'],
        password: '[redacted:secret-field]',
      });
      // The digest is of the arguments as sent: approvals and audit name the same call.
      assert.equal(record.argsDigest, argumentsDigest(args));
    });

    it('H3 an edited row fails verify, naming its id', async () => {
      const answer = await callTool(url, 'echo', { n: 1 });
      const record = await onlyRecord(idOf(answer));
      await callTool(url, 'echo', { n: 2 }); // a row after it, so the edit is not at the end
      assert.equal((await verifyAudit(audit.store)).ok, true);
      await under.tamper("UPDATE audit SET outcome = 'denied' WHERE id = $1", [record.id]);
      const verdict = await verifyAudit(audit.store);
      assert.equal(verdict.ok, false);
      assert.equal(verdict.ok === false && verdict.firstBadId, record.id);
      assert.equal(
        verdict.ok === false && verdict.problem,
        `row ${record.id} was changed after it was written: its contents do not match its hash`,
      );
      await under.tamper("UPDATE audit SET outcome = 'result' WHERE id = $1", [record.id]);
      assert.equal((await verifyAudit(audit.store)).ok, true);
    });

    it('H3 a deleted row fails verify, naming its id; so do rows deleted at the end', async () => {
      const first = await onlyRecord(idOf(await callTool(url, 'echo', { n: 3 })));
      await callTool(url, 'echo', { n: 4 });
      await under.tamper('DELETE FROM audit WHERE id = $1', [first.id]);
      assert.deepEqual(await verifyAudit(audit.store), {
        ok: false,
        rows: first.id - 1,
        firstBadId: first.id,
        problem: `row ${first.id} is missing (deleted): the chain goes on at row ${first.id + 1}`,
      });
      await under.tamper('DELETE FROM audit WHERE id > $1', [first.id - 1]);
      const verdict = await verifyAudit(audit.store);
      assert.equal(verdict.ok === false && verdict.firstBadId, first.id);
      assert.equal(
        verdict.ok === false && verdict.problem,
        `rows ${first.id}–${first.id + 1} are missing (deleted): the chain head says the last row is ${first.id + 1}`,
      );
    });
  });
}

/** Like waitFor, for an asynchronous condition (a store query). */
async function waitForAsync(condition: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
