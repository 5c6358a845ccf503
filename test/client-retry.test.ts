// Safe retries against a loopback proxy that drops connections, refuses them while "restarting", and answers 503
// and 429: requests safe to repeat succeed within the limits; a destructive call is never sent twice (counted at
// the server). Zero delays (Retry-After: 0, baseDelayMs 0): nothing here waits on a clock.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { McpClient, McpError, type ClientOptions, type Progress } from '../src/client/index.js';
import { resolveRetry, retryDelay, type RetryEvent } from '../src/client/retry.js';
import { McpServer, silentLogger } from '../src/index.js';
import { TransportError } from '../src/protocol/index.js';
import { listenHttp } from '../src/transports/http/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { parseRetryAfter } from '../src/transports/http-client/failures.js';
import { startFaultProxy, type FaultProxy } from './fixtures/client/fault-proxy.js';
import { CLIENT_INFO, runCli } from './fixtures/client/harness.js';

const ZERO = { baseDelayMs: 0, maxDelayMs: 0 };

describe('client retries', () => {
  const ran = new Map<string, number>();
  const count = (name: string): number => ran.get(name) ?? 0;
  const server = new McpServer({ name: 'retry-target', version: '1.0.0' }, { logger: silentLogger });
  const bump = (name: string): void => void ran.set(name, count(name) + 1);
  server.tool({
    name: 'lookup',
    description: 'Reads',
    annotations: { readOnlyHint: true },
    handler: () => (bump('lookup'), 'found'),
  });
  server.tool({
    name: 'put',
    description: 'Writes the same value however often it runs',
    annotations: { readOnlyHint: false, idempotentHint: true, destructiveHint: false },
    handler: () => (bump('put'), 'stored'),
  });
  server.tool({
    name: 'delete',
    description: 'Destroys',
    annotations: { destructiveHint: true },
    handler: () => (bump('delete'), 'deleted'),
  });
  server.tool({
    name: 'steps',
    description: 'Reads, with progress',
    annotations: { readOnlyHint: true },
    handler: (_args, ctx) => {
      bump('steps');
      ctx.progress(1, 1, 'one step');
      return 'stepped';
    },
  });
  let upstream: { url: string; close(): Promise<void> };
  let proxy: FaultProxy;
  const clients: McpClient[] = [];

  before(async () => {
    upstream = await listenHttp(server, { port: 0 });
    proxy = await startFaultProxy(upstream.url);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await proxy.close();
    await upstream.close();
    await server.close();
  });

  async function client(options: ClientOptions = {}): Promise<{ client: McpClient; retries: RetryEvent[] }> {
    const retries: RetryEvent[] = [];
    const made = new McpClient(CLIENT_INFO, {
      approve: 'always',
      trusted: true,
      listenForChanges: false,
      ...options,
      retry:
        options.retry === false
          ? false
          : {
              ...ZERO,
              ...options.retry,
              onRetry: (event) => {
                retries.push(event);
                if (options.retry !== false) options.retry?.onRetry?.(event);
              },
            },
    });
    clients.push(made);
    await made.connect(new HttpClientTransport(new URL('/mcp', proxy.url)));
    return { client: made, retries };
  }

  it('a read-only call of a trusted server succeeds after a dropped connection, a 503 and a 429', async () => {
    const { client: c, retries } = await client();
    proxy.fail('tools/call:lookup', 'drop', '503', '429');
    const before = count('lookup');
    const result = await c.callTool('lookup', {});
    assert.deepEqual(result.content, [{ type: 'text', text: 'found' }]);
    assert.equal(count('lookup') - before, 1);
    assert.equal(proxy.posts('tools/call:lookup').length, 4);
    assert.deepEqual(
      retries.map(({ method, attempt, maxAttempts, delayMs }) => ({ method, attempt, maxAttempts, delayMs })),
      [2, 3, 4].map((attempt) => ({ method: 'tools/call', attempt, maxAttempts: 4, delayMs: 0 })),
    );
    assert.match(retries[0]?.reason ?? '', /^POST failed: fetch failed/);
    assert.equal(retries[1]?.reason, 'POST answered HTTP 503 Service Unavailable: busy, come back later');
    assert.equal(retries[2]?.reason, 'server error -31429: Rate limited');
  });

  it('an idempotent call is retried too, and keeps its request id and progress token', async () => {
    const { client: c } = await client();
    proxy.fail('tools/call:put', 'drop-after');
    const before = count('put');
    await c.callTool('put', {});
    assert.equal(count('put') - before, 2, 'idempotent: running twice is what the server allowed');
    proxy.fail('tools/call:steps', 'drop');
    const progress: Progress[] = [];
    const stepped = await c.callTool('steps', {}, { onProgress: (p) => progress.push(p) });
    assert.deepEqual(stepped.content, [{ type: 'text', text: 'stepped' }]);
    assert.deepEqual(progress, [{ progress: 1, total: 1, message: 'one step' }]);
    const [first, second] = proxy
      .posts('tools/call:steps')
      .map((body) => JSON.parse(body) as { id: number; params: { _meta: { progressToken: unknown } } });
    assert.deepEqual(second, first, 'the very same message: same id, same progress token');
    assert.equal(first?.params._meta.progressToken, first?.id);
  });

  it('retries stop after maxAttempts with the last failure', async () => {
    const { client: c, retries } = await client({ retry: { maxAttempts: 3 } });
    proxy.fail('tools/call:lookup', '503', '503', '503');
    const sent = proxy.posts('tools/call:lookup').length;
    await assert.rejects(c.callTool('lookup', {}), (error: unknown) => {
      assert.ok(error instanceof TransportError);
      assert.equal(error.message, 'POST answered HTTP 503 Service Unavailable: busy, come back later');
      return true;
    });
    assert.equal(proxy.posts('tools/call:lookup').length - sent, 3);
    assert.equal(retries.length, 2);
  });

  it('a destructive call is never sent twice: not after a 503, not after a dropped connection', async () => {
    const { client: c, retries } = await client();
    proxy.fail('tools/call:delete', '503');
    await assert.rejects(c.callTool('delete', {}), /POST answered HTTP 503/);
    assert.equal(proxy.posts('tools/call:delete').length, 1);
    assert.equal(count('delete'), 0);
    proxy.fail('tools/call:delete', 'drop-after');
    await assert.rejects(c.callTool('delete', {}), /POST failed/);
    assert.equal(proxy.posts('tools/call:delete').length, 2, 'one POST per call');
    assert.equal(count('delete'), 1, 'the server ran it once');
    assert.deepEqual(retries, []);
  });

  it("an untrusted server's read-only annotation does not make its tool safe to repeat", async () => {
    const { client: c } = await client({ trusted: false });
    proxy.fail('tools/call:lookup', '503');
    const sent = proxy.posts('tools/call:lookup').length;
    await assert.rejects(c.callTool('lookup', {}), /POST answered HTTP 503/);
    assert.equal(proxy.posts('tools/call:lookup').length - sent, 1);
  });

  it('discovery and lists are retried; retry: false sends everything once', async () => {
    proxy.fail('server/discover', '503', 'drop');
    proxy.fail('tools/list', '429');
    const { client: c, retries } = await client();
    assert.equal(c.era, 'modern');
    assert.ok((await c.listTools()).some((tool) => tool.name === 'lookup'));
    assert.deepEqual(
      retries.map((event) => event.method),
      ['server/discover', 'server/discover', 'tools/list'],
    );
    const { client: once } = await client({ retry: false });
    proxy.fail('tools/list', '503');
    const sent = proxy.posts('tools/list').length;
    await assert.rejects(once.listTools({ refresh: true }), /POST answered HTTP 503/);
    assert.equal(proxy.posts('tools/list').length - sent, 1);
  });

  it('a Retry-After longer than maxDelayMs ends the retries (waiting less would be refused again)', async () => {
    const { client: c, retries } = await client({ retry: { maxDelayMs: 1000 } });
    proxy.retryAfter = '120';
    try {
      proxy.fail('tools/list', '429');
      await assert.rejects(c.listTools({ refresh: true }), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.httpStatus, 429);
        assert.equal(error.retryAfterMs, 120_000);
        return true;
      });
      assert.deepEqual(retries, []);
    } finally {
      proxy.retryAfter = '0';
    }
  });

  it('connections refused while the server restarts: the list succeeds once it is back', async () => {
    // Restarted once the client reports a refused connection (the first failure may be the pooled connection the
    // stop closed): a server that is back answers the next attempt.
    let restarted = false;
    const { client: c, retries } = await client({
      retry: {
        maxAttempts: 10,
        baseDelayMs: 1,
        maxDelayMs: 20,
        onRetry: (event) => {
          if (/ECONNREFUSED/.test(event.reason) && !restarted) {
            restarted = true;
            proxy.start();
          }
        },
      },
    });
    await proxy.stop();
    assert.ok((await c.listTools({ refresh: true })).length > 0);
    assert.ok(restarted, `no refused connection among: ${retries.map((event) => event.reason).join('; ')}`);
  });

  it('the CLI says on stderr when it retried', async () => {
    proxy.fail('tools/list', '503');
    const run = await runCli(['list', new URL('/mcp', proxy.url).href]);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /lookup/);
    assert.match(
      run.stderr,
      /^toolwire: tools\/list failed \(POST answered HTTP 503 Service Unavailable: busy, come back later\); retrying in 0 ms \(attempt 2 of 4\)$/m,
    );
  });
});

describe('retry arithmetic', () => {
  it('capped exponential backoff with equal jitter', () => {
    const policy = resolveRetry({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0.5 });
    assert.ok(policy);
    assert.deepEqual(
      [2, 3, 4, 5, 6, 7].map((next) => retryDelay(policy, next, undefined)),
      [75, 150, 300, 600, 750, 750],
    );
    const low = resolveRetry({ baseDelayMs: 100, maxDelayMs: 1000, random: () => 0 });
    assert.ok(low);
    assert.equal(retryDelay(low, 2, undefined), 50);
    assert.equal(retryDelay(policy, 2, 800), 800, 'the server said when');
    assert.equal(retryDelay(policy, 2, 1001), undefined, 'too long: no retry');
  });

  it('bad limits are refused when the client is made', () => {
    assert.throws(() => new McpClient(CLIENT_INFO, { retry: { maxAttempts: 0 } }), {
      name: 'RangeError',
      message: 'retry.maxAttempts must be an integer from 1 to 100, got 0',
    });
    assert.throws(() => new McpClient(CLIENT_INFO, { retry: { baseDelayMs: -1 } }), {
      message: 'retry.baseDelayMs must be a non-negative number, got -1',
    });
    assert.throws(() => new McpClient(CLIENT_INFO, { retry: { baseDelayMs: 10, maxDelayMs: 5 } }), {
      message: 'retry.maxDelayMs must be a number no smaller than baseDelayMs, got 5',
    });
    assert.equal(resolveRetry(false), undefined);
  });

  it('Retry-After: seconds or an HTTP date; anything else is ignored', () => {
    const now = Date.parse('2026-11-27T08:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('Fri, 27 Nov 2026 08:00:05 GMT', now), 5000);
    assert.equal(parseRetryAfter('Fri, 27 Nov 2026 07:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('-1', now), undefined);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });
});
