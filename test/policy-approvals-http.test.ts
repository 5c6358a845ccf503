// Approvals end to end over real HTTP on loopback: the MCP endpoint and the approvals admin endpoint, callers and
// approvers told apart by their own credentials. G4 with the official SDK v2 client and with toolwire's own client,
// the approver approving through `toolwire approvals approve`; G1 and G2 across principals.

import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as HttpTransportV2,
} from '@modelcontextprotocol/client';
import { McpClient } from '../src/client/index.js';
import { main } from '../src/cli/main.js';
import { McpServer, silentLogger } from '../src/index.js';
import type { JsonObject } from '../src/jsonrpc/index.js';
import {
  approvals,
  approvalsAdmin,
  type ApprovalEvent,
  type Approvals,
} from '../src/policy/approvals/index.js';
import type { Caller } from '../src/protocol/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { listenHttp, type HttpListening, type HttpRequestInfo } from '../src/transports/http/index.js';
import { runCli } from './fixtures/serve/harness.js';
import { callTool } from './support/http-mcp.js';

const caller = (subject: string, scopes: string[]): Caller =>
  Object.freeze({ subject, via: 'api-key', scopes: Object.freeze(scopes) });
/** One frozen caller per credential (caches key on the object). */
const CALLERS: Record<string, Caller> = {
  'agent-key': caller('agent', ['tools']),
  'mallory-key': caller('mallory', ['tools']),
  'zoe-key': caller('zoe', ['approvals:decide']),
  'agent-approver-key': caller('agent', ['approvals:decide']),
  'nobody-key': caller('nobody', []),
};
const authenticate = (
  request: HttpRequestInfo,
): Caller | { status: number; message: string; headers: Record<string, string> } => {
  const match = /^Bearer (\S+)$/.exec(request.header('authorization') ?? '');
  const found = match === null ? undefined : CALLERS[match[1] as string];
  return (
    found ?? { status: 401, message: 'Unauthorized: send a key', headers: { 'www-authenticate': 'Bearer' } }
  );
};
const auth = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` });
const CLIENT_INFO = { name: 'approvals-e2e', version: '0.0.0' };
const ID = /\/approvals\/([A-Za-z0-9_-]{24})$/;

/** Captures what `main()` prints. */
function captured() {
  let stdout = '';
  let stderr = '';
  return {
    io: {
      stdout: { write: (text: string) => ((stdout += text), true) } as unknown as NodeJS.WritableStream,
      stderr: { write: (text: string) => ((stderr += text), true) } as unknown as NodeJS.WritableStream,
    },
    out: () => stdout,
    err: () => stderr,
  };
}

describe('approvals over HTTP', () => {
  let mcp: HttpListening;
  let admin: Server;
  let adminUrl: string;
  let policy: Approvals;
  const events: ApprovalEvent[] = [];
  const runs: JsonObject[] = [];

  before(async () => {
    admin = createServer();
    await new Promise<void>((resolve) => admin.listen(0, '127.0.0.1', resolve));
    adminUrl = `http://127.0.0.1:${(admin.address() as AddressInfo).port}/approvals`;
    policy = approvals({
      approvalUrl: adminUrl,
      onEvent: (event) => events.push(event),
      logger: silentLogger,
    });
    admin.on('request', approvalsAdmin(policy, { authenticate }));
    const server = new McpServer({ name: 'approvals-e2e', version: '1.0.0' }, { logger: silentLogger });
    policy.install(server);
    server.tool({
      name: 'remove',
      description: 'Removes a file (no annotations: needs approval by default)',
      inputSchema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
      handler: (args: { path?: string }) => {
        runs.push({ ...args });
        return `removed ${String(args.path)}`;
      },
    });
    mcp = await listenHttp(server, { port: 0, authenticate, logger: silentLogger });
  });
  after(async () => {
    await mcp.close();
    await new Promise((resolve) => admin.close(resolve));
  });

  const cli = async (args: string[]) => {
    const capture = captured();
    const code = await main(args, capture.io);
    return { code, stdout: capture.out(), stderr: capture.err() };
  };

  it(
    'G4 the official SDK v2 client: input_required → approver approves with the CLI → the retry runs the tool once',
    { timeout: 60_000 },
    async () => {
      const before = runs.length;
      const client = new ClientV2(CLIENT_INFO, {
        versionNegotiation: { mode: { pin: '2026-07-28' } },
        capabilities: { elicitation: { url: {} } },
      });
      const seen: string[] = [];
      client.setRequestHandler('elicitation/create', async (request) => {
        const params = request.params as { mode?: string; url?: string };
        assert.equal(params.mode, 'url');
        const id = ID.exec(String(params.url))?.[1];
        assert.ok(id !== undefined, String(params.url));
        seen.push(id);
        if (seen.length === 1) {
          const run = await cli([
            'approvals',
            'approve',
            id,
            '--url',
            adminUrl,
            '--header',
            'Authorization: Bearer zoe-key',
            '--reason',
            'ok',
          ]);
          assert.equal(run.code, 0, run.stderr);
          assert.equal(run.stdout, `approved ${id}: tool "remove" of agent\n`);
        }
        return { action: 'accept' };
      });
      await client.connect(
        new HttpTransportV2(new URL(mcp.url), { requestInit: { headers: auth('agent-key') } }),
      );
      try {
        const result = (await client.callTool({ name: 'remove', arguments: { path: '/tmp/sdk' } })) as {
          content: unknown;
          isError?: boolean;
        };
        assert.deepEqual(result.content, [{ type: 'text', text: 'removed /tmp/sdk' }]);
        assert.equal(seen.length, 1);
        assert.deepEqual(runs.slice(before), [{ path: '/tmp/sdk' }]);
      } finally {
        await client.close();
      }
    },
  );

  it(
    "G4 toolwire's own client and the toolwire CLI (a real process): the retry succeeds, the tool ran once",
    { timeout: 90_000 },
    async () => {
      const before = runs.length;
      const urls: string[] = [];
      const client = new McpClient(CLIENT_INFO, {
        approve: 'always',
        capabilities: { elicitation: { url: {} } },
        handlers: {
          elicitation: async (params) => {
            assert.equal(params.mode, 'url');
            const url = String((params as { url: string }).url);
            urls.push(url);
            const id = ID.exec(url)?.[1] ?? '';
            const run = await runCli([
              'approvals',
              'approve',
              id,
              '--url',
              adminUrl,
              '--header',
              'Authorization: Bearer zoe-key',
            ]);
            assert.equal(run.code, 0, run.stderr);
            return { action: 'accept' };
          },
        },
      });
      await client.connect(new HttpClientTransport(mcp.url, { headers: auth('agent-key') }));
      try {
        const result = await client.callTool('remove', { path: '/tmp/own' });
        assert.deepEqual(result.content, [{ type: 'text', text: 'removed /tmp/own' }]);
        assert.equal(urls.length, 1);
        assert.deepEqual(runs.slice(before), [{ path: '/tmp/own' }]);
      } finally {
        await client.close();
      }
    },
  );

  it(
    'G4 legacy wire, SDK v2 client with URL elicitation: the call waits for the CLI approval and runs once',
    { timeout: 60_000 },
    async () => {
      const before = runs.length;
      const client = new ClientV2(CLIENT_INFO, { capabilities: { elicitation: { url: {} } } });
      client.setRequestHandler('elicitation/create', async (request) => {
        const id = ID.exec(String((request.params as { url?: string }).url))?.[1] ?? '';
        // Accept first (the user opened the page); the approver decides a moment later, while the call waits.
        setImmediate(() => {
          void cli([
            'approvals',
            'approve',
            id,
            '--url',
            adminUrl,
            '--header',
            'Authorization: Bearer zoe-key',
          ]);
        });
        return { action: 'accept' };
      });
      await client.connect(
        new HttpTransportV2(new URL(mcp.url), { requestInit: { headers: auth('agent-key') } }),
      );
      try {
        const result = (await client.callTool({ name: 'remove', arguments: { path: '/tmp/legacy' } })) as {
          content: unknown;
        };
        assert.deepEqual(result.content, [{ type: 'text', text: 'removed /tmp/legacy' }]);
        assert.deepEqual(runs.slice(before), [{ path: '/tmp/legacy' }]);
      } finally {
        await client.close();
      }
    },
  );

  it("G4 legacy wire, toolwire's own client: the same", { timeout: 60_000 }, async () => {
    const before = runs.length;
    const client = new McpClient(CLIENT_INFO, {
      era: 'legacy',
      approve: 'always',
      capabilities: { elicitation: { url: {} } },
      handlers: {
        elicitation: (params) => {
          const id = ID.exec(String((params as { url: string }).url))?.[1] ?? '';
          setImmediate(() => void policy.approve(CALLERS['zoe-key'] as Caller, id));
          return { action: 'accept' };
        },
      },
    });
    await client.connect(new HttpClientTransport(mcp.url, { headers: auth('agent-key') }));
    try {
      const result = await client.callTool('remove', { path: '/tmp/legacy-own' });
      assert.deepEqual(result.content, [{ type: 'text', text: 'removed /tmp/legacy-own' }]);
      assert.deepEqual(runs.slice(before), [{ path: '/tmp/legacy-own' }]);
    } finally {
      await client.close();
    }
  });

  /** A modern tools/call over raw HTTP as `key`, declaring URL-mode elicitation. */
  const call = async (key: string, args: JsonObject, extra: JsonObject = {}) => {
    const answer = await callTool(mcp.url, 'remove', args, auth(key), extra, { elicitation: { url: {} } });
    assert.ok(answer.body !== undefined, answer.text);
    return answer.body;
  };

  async function ask(key: string, args: JsonObject): Promise<{ id: string; state: string }> {
    const answer = await call(key, args);
    const result = answer.result as JsonObject;
    assert.equal(result.resultType, 'input_required', JSON.stringify(answer));
    const url = String(
      ((result.inputRequests as JsonObject).approval as { params: { url: string } }).params.url,
    );
    return { id: ID.exec(url)?.[1] ?? '', state: String(result.requestState) };
  }

  it('G1 over HTTP: the caller cannot approve its own call, and an approver needs the decide scope', async () => {
    const { id } = await ask('agent-key', { path: '/tmp/g1' });
    const self = await cli([
      'approvals',
      'approve',
      id,
      '--url',
      adminUrl,
      '--header',
      'Authorization: Bearer agent-approver-key',
    ]);
    assert.equal(self.code, 1);
    assert.equal(
      self.stderr,
      'toolwire: refused (403): the caller of a tool may not decide its own approval\n',
    );
    const scopeless = await cli([
      'approvals',
      'deny',
      id,
      '--url',
      adminUrl,
      '--header',
      'Authorization: Bearer nobody-key',
    ]);
    assert.equal(
      scopeless.stderr,
      'toolwire: refused (403): deciding approvals needs the scope "approvals:decide"\n',
    );
    const anonymous = await cli(['approvals', 'list', '--url', adminUrl]);
    assert.equal(anonymous.stderr, 'toolwire: refused (401): Unauthorized: send a key\n');
    const listed = await cli([
      'approvals',
      'list',
      '--json',
      '--url',
      adminUrl,
      '--header',
      'Authorization: Bearer zoe-key',
    ]);
    assert.ok((JSON.parse(listed.stdout) as { id: string }[]).some((approval) => approval.id === id));
    const hostile = await ask('agent-key', { path: '\u001b]8;;https://evil.example\u0007click\u001b[2J' });
    const table = await cli([
      'approvals',
      'list',
      '--url',
      adminUrl,
      '--header',
      'Authorization: Bearer zoe-key',
    ]);
    assert.equal(table.code, 0, table.stderr);
    assert.match(table.stdout, /^ID +TOOL +STATUS +CALLER +ASKED +EXPIRES +ARGUMENTS\n/);
    assert.ok(table.stdout.includes(hostile.id) && table.stdout.includes(id));
    assert.ok(
      !table.stdout.includes('\u001b') && !table.stdout.includes('\u0007'),
      'no terminal escapes reach the table',
    );
  });

  it('G2 over HTTP: another principal replaying the sealed state is refused, and its own call needs its own approval', async () => {
    const before = runs.length;
    const { id, state } = await ask('agent-key', { path: '/tmp/g2' });
    assert.equal(
      (
        await cli([
          'approvals',
          'approve',
          id,
          '--url',
          adminUrl,
          '--header',
          'Authorization: Bearer zoe-key',
        ])
      ).code,
      0,
    );
    const replay = await call(
      'mallory-key',
      { path: '/tmp/g2' },
      { inputResponses: { approval: { action: 'accept' } }, requestState: state },
    );
    assert.deepEqual(replay.error, {
      code: -32602,
      message: 'Invalid params: requestState was issued to another caller; send the request again without it',
    });
    const own = await ask('mallory-key', { path: '/tmp/g2' });
    assert.notEqual(own.id, id, "mallory's plain call does not pick up agent's approval");
    const done = await call(
      'agent-key',
      { path: '/tmp/g2' },
      { inputResponses: { approval: { action: 'accept' } }, requestState: state },
    );
    assert.deepEqual((done.result as JsonObject).content, [{ type: 'text', text: 'removed /tmp/g2' }]);
    assert.deepEqual(runs.slice(before), [{ path: '/tmp/g2' }]);
    assert.ok(events.some((event) => event.type === 'redeemed' && event.approval.id === id));
  });
});
