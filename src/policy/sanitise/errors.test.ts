// Clean outputs for errors and task results (threat E5, and E1 for tasks): tool errors and protocol errors masked for
// the client, the original kept for the audit through originalOf and onMasked.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  capturingLogger,
  connect,
  modern,
  testServer,
  type WireMessage,
} from '../../../test/support/harness.js';
import { RpcError } from '../../jsonrpc/index.js';
import { ToolError, type McpServer, type Outcome, type RequestView } from '../../server/index.js';
import { sanitise, type SanitiseOptions, type Sanitiser } from './index.js';

const ESC = '\x1b';

interface Setup {
  server: McpServer;
  sanitiser: Sanitiser;
  call(name: string, args?: Record<string, unknown>): Promise<WireMessage>;
  request(method: string, params: Record<string, unknown>): Promise<WireMessage>;
  /** What an outer middleware (the audit's place) saw for each request: the cleaned outcome and the original. */
  seen: { outcome: Outcome; original: Outcome | RpcError | undefined }[];
}

async function setup(options: SanitiseOptions, register: (server: McpServer) => void): Promise<Setup> {
  const server = testServer();
  const sanitiser = sanitise({ logger: capturingLogger(), ...options });
  const seen: Setup['seen'] = [];
  // Where the audit sits: outside the sanitiser, reading the original through originalOf.
  server.use(async (request: RequestView, next) => {
    const outcome = await next();
    seen.push({ outcome, original: sanitiser.originalOf(request) });
    return outcome;
  });
  server.use(sanitiser.middleware);
  register(server);
  const client = await connect(server);
  return {
    server,
    sanitiser,
    seen,
    call: (name, args = {}) => client.request('tools/call', modern({ name, arguments: args })),
    request: (method, params) => client.request(method, modern(params)),
  };
}

const textsOf = (response: WireMessage): string[] =>
  ((response.result?.content ?? []) as { type: string; text?: string }[]).map(
    (block) => block.text ?? `<${block.type}>`,
  );

describe('sanitise: errors (E5)', () => {
  const TRACE = [
    'Error: connect ECONNREFUSED 10.0.3.7:5432 (db-1.prod.internal, redis.svc.cluster.local)',
    '    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1555:16)',
    '    at query (/srv/app/dist/db.js:12:5)',
    '    at async Promise.all (index 0)',
    'config read from /home/deploy/app/.env and C:\\Users\\svc\\app.ini via 192.168.1.20 and fd12:3456::9',
  ].join('\n');
  const MASKED = [
    'Error: connect ECONNREFUSED [internal host]:5432 ([internal host], [internal host])',
    '    [stack trace removed]',
    'config read from [internal path] and [internal path] via [internal host] and [internal host]',
  ].join('\n');

  it('E5 a tool error with a stack trace, paths and internal hosts is masked for the client; the original stays for the audit', async () => {
    const masked: [RequestView, Outcome | RpcError][] = [];
    const { call, seen } = await setup(
      { onMasked: (view, original) => masked.push([view, original]) },
      (server) =>
        server.tool({
          name: 'failing',
          handler: () => {
            throw new ToolError(TRACE);
          },
        }),
    );
    const response = await call('failing');
    assert.equal(response.result?.isError, true);
    assert.deepEqual(textsOf(response), [MASKED]);
    const original = { content: [{ type: 'text', text: TRACE }], isError: true };
    assert.deepEqual(seen[0]?.original, original);
    assert.equal(masked.length, 1);
    assert.deepEqual(masked[0]?.[1], original);
    assert.equal(masked[0]?.[0].method, 'tools/call');
  });

  it('E5 a successful result keeps its paths and hosts (masking is for errors)', async () => {
    const { call } = await setup({}, (server) =>
      server.tool({ name: 'paths', handler: () => 'saved to /home/me/x.txt on 10.0.0.2' }),
    );
    assert.deepEqual(textsOf(await call('paths')), ['saved to /home/me/x.txt on 10.0.0.2']);
  });

  it('E5 a protocol error thrown inside (an upstream failure) is masked; a policy Denial passes as it is', async () => {
    const { call, seen } = await setup({}, (server) => {
      server.use((request, next) => {
        const name = request.params?.name;
        if (name === 'upstream')
          throw new RpcError(-32603, 'upstream at 10.1.2.3 failed: /opt/gw/lib/x.js:3:9', {
            host: 'gw.corp',
          });
        if (name === 'denied') request.deny(-31003, 'Insufficient scope: tools:write is needed');
        return next();
      });
      server.tool({ name: 'upstream', handler: () => 'never' });
      server.tool({ name: 'denied', handler: () => 'never' });
    });
    const upstream = await call('upstream');
    assert.deepEqual(upstream.error, {
      code: -32603,
      message: 'upstream at [internal host] failed: [internal path]:3:9',
      data: { host: '[internal host]' },
    });
    assert.ok(seen.length === 0); // the outer middleware saw the error thrown, not an outcome
    const denied = await call('denied');
    assert.equal(denied.error?.message, 'Insufficient scope: tools:write is needed');
  });

  it('E5 maskErrors: false lets them through and warns once', async () => {
    const logger = capturingLogger();
    const { call } = await setup({ maskErrors: false, logger }, (server) =>
      server.tool({
        name: 'failing',
        handler: () => {
          throw new ToolError(TRACE);
        },
      }),
    );
    assert.deepEqual(textsOf(await call('failing')), [TRACE]);
    assert.equal(logger.lines.length, 1);
    assert.match(
      logger.lines[0]?.message ?? '',
      /error masking \(stack traces, paths and internal hosts reach clients: E5\)/,
    );
  });
});

describe('sanitise: task results (E1, E5)', () => {
  const TASKS = {
    'io.modelcontextprotocol/clientCapabilities': { extensions: { 'io.modelcontextprotocol/tasks': {} } },
  };

  it('E1 E5 a task result read through tasks/get is cleaned and masked like a direct call', async () => {
    const server = testServer();
    const sanitiser = sanitise({ logger: capturingLogger() });
    server.use(sanitiser.middleware);
    server.tool({ name: 'job', task: 'optional', handler: () => `done${ESC}[2J\u202e` });
    server.tool({
      name: 'failing-job',
      task: 'optional',
      handler: () => {
        throw new ToolError('failed at /srv/app/job.js:3:4');
      },
    });
    const client = await connect(server);
    const settled = async (name: string): Promise<WireMessage> => {
      const created = await client.request('tools/call', modern({ name, arguments: {} }, TASKS));
      const taskId = created.result?.taskId as string;
      assert.equal(typeof taskId, 'string', JSON.stringify(created));
      // Bounded: a task this small completes within a few polls; each poll is a real round trip, not a sleep.
      for (let attempt = 0; attempt < 200; attempt++) {
        const task = await client.request('tasks/get', modern({ taskId }, TASKS));
        if (task.result?.status === 'completed') return task;
        await new Promise((resolve) => setImmediate(resolve));
      }
      throw new Error('the task did not complete');
    };
    const done = await settled('job');
    assert.deepEqual((done.result?.result as { content: unknown }).content, [{ type: 'text', text: 'done' }]);
    const failed = await settled('failing-job');
    assert.deepEqual((failed.result?.result as { content: unknown }).content, [
      { type: 'text', text: 'failed at [internal path]:3:4' },
    ]);
  });
});
