// The README's examples are real files: each one is run here, the way the README says to use it.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { McpClient } from '../src/client/index.js';
import { createLinkedPair } from '../src/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';

const quiet = { warn: () => undefined };

test('examples/calculator.ts answers calculate_sum over stdio on both eras', async () => {
  for (const era of ['auto', 'legacy'] as const) {
    const client = new McpClient(
      { name: 'examples-test', version: '1' },
      { era, trusted: true, logger: quiet },
    );
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['--import', 'tsx', 'examples/calculator.ts'],
      }),
    );
    try {
      assert.equal(client.era, era === 'auto' ? 'modern' : 'legacy');
      const progress: number[] = [];
      const result = await client.callTool(
        'calculate_sum',
        { a: 2, b: 3 },
        { onProgress: (p) => progress.push(p.progress) },
      );
      assert.deepEqual(result.structuredContent, { sum: 5 });
      assert.deepEqual(
        [...progress].sort((x, y) => x - y),
        progress,
        'progress never decreases',
      );
    } finally {
      await client.close();
    }
  }
});

test('examples/http-server.ts serves greet through the node:http adapter', async () => {
  const { http } = await import('../examples/http-server.js');
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const client = new McpClient({ name: 'examples-test', version: '1' }, { trusted: true, logger: quiet });
  try {
    await client.connect(new HttpClientTransport(`http://127.0.0.1:${port}/mcp`));
    assert.equal(client.era, 'modern');
    const result = await client.callTool('greet', { name: 'Ada' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'Hello, Ada!' }]);
  } finally {
    await client.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
});

test('examples/hono.ts serves greet through the fetch handler inside Hono', async () => {
  const { app } = await import('../examples/hono.js');
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const response = await app.request('http://localhost/mcp', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2026-07-28',
      'mcp-method': 'tools/call',
      'mcp-name': 'greet',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'greet', arguments: { name: 'Bo' }, _meta: meta },
    }),
  });
  assert.equal(response.status, 200);
  const body = (await response.json()) as { result: { content: unknown } };
  assert.deepEqual(body.result.content, [{ type: 'text', text: 'Hello, Bo!' }]);
});

test('examples/resources-prompts.ts serves its resources, template, prompt, completion and task tool', async () => {
  const { server } = await import('../examples/resources-prompts.js');
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new McpClient(
    { name: 'examples-test', version: '1' },
    { trusted: true, approve: 'always', logger: quiet },
  );
  await client.connect(clientSide);
  try {
    const readme = await client.readResource('docs://readme');
    assert.deepEqual(readme.contents, [
      {
        uri: 'docs://readme',
        mimeType: 'text/markdown',
        text: '# Notes\n\nThis text is a resource: clients read it with resources/read.\n',
      },
    ]);
    const ada = await client.readResource('users://ada/profile');
    assert.deepEqual(JSON.parse((ada.contents[0] as { text: string }).text), {
      name: 'Ada Lovelace',
      born: 1815,
    });
    const prompt = await client.getPrompt('review', { file: 'src/app.ts' });
    assert.deepEqual(prompt.messages, [
      { role: 'user', content: { type: 'text', text: 'Review src/app.ts for bugs.' } },
    ]);
    const completion = await client.request('completion/complete', {
      ref: { type: 'ref/resource', uri: 'users://{id}/profile' },
      argument: { name: 'id', value: 'a' },
    });
    assert.deepEqual((completion.completion as { values: string[] }).values, ['ada', 'alan']);
    const built = await client.callTool('build', { target: 'web' }, { timeoutMs: 30_000 });
    assert.deepEqual(built.content, [{ type: 'text', text: 'built web' }]);
  } finally {
    await client.close();
    await server.close();
  }
});

test('examples/client.ts lists and calls calculate_sum of examples/calculator.ts, asking approval first', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/client.ts'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), { tools: ['calculate_sum'], result: { sum: 5 } });
  // Not trusted, so its readOnlyHint does not count: the approval hook is asked, and the audit hook told.
  assert.match(run.stderr, /^approving calculate_sum \{"a":2,"b":3\}$/m);
  assert.match(run.stderr, /^audit: \{"server":"calculator","tool":"calculate_sum",.*"outcome":"success"/m);
});

test('examples/policy-hooks.ts: a challenge without a token, metadata beside the endpoint, tools by scope', async () => {
  const { listenPolicyServer } = await import('../examples/policy-hooks.js');
  const listening = await listenPolicyServer(0);
  const base = listening.url.replace(/\/mcp$/, '');
  try {
    const anonymous = await fetch(listening.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: '{}',
    });
    assert.equal(anonymous.status, 401);
    assert.equal(
      anonymous.headers.get('www-authenticate'),
      `Bearer resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"`,
    );
    const metadata = await fetch(`${base}/.well-known/oauth-protected-resource/mcp`);
    assert.deepEqual(await metadata.json(), {
      resource: listening.url,
      authorization_servers: ['https://auth.example.com'],
    });
    const session = async (token: string): Promise<McpClient> => {
      const client = new McpClient(
        { name: 'examples-test', version: '1' },
        { trusted: true, approve: 'always', logger: quiet },
      );
      await client.connect(
        new HttpClientTransport(listening.url, { headers: { authorization: `Bearer ${token}` } }),
      );
      return client;
    };
    const reader = await session('reader-token');
    const writer = await session('writer-token');
    try {
      assert.deepEqual(
        (await reader.listTools()).map((tool) => tool.name),
        ['list_notes'],
      );
      assert.deepEqual(
        (await writer.listTools()).map((tool) => tool.name),
        ['list_notes', 'clear_notes'],
      );
      const cleared = await writer.callTool('clear_notes', {});
      assert.deepEqual(cleared.content, [{ type: 'text', text: 'cleared 0 notes' }]);
      await assert.rejects(reader.request('tools/call', { name: 'clear_notes', arguments: {} }), {
        message: /Unknown tool: "clear_notes"/,
      });
    } finally {
      await reader.close();
      await writer.close();
    }
  } finally {
    await listening.close();
  }
});

test('examples/protect-server.ts: allowed, step-up 403 and rate-limited 429, as its README section shows', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/protect-server.ts'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.equal(lines.length, 5, run.stdout);
  assert.equal(lines[0], 'list_notes: 200 buy milk');
  assert.match(
    lines[1] ?? '',
    /^clear_notes: 403 Forbidden: tool "clear_notes" needs the scope\(s\) notes:write \[Bearer resource_metadata="http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp", scope="notes:write", error="insufficient_scope"/,
  );
  assert.equal(lines[2], 'list_notes: 200 buy milk');
  assert.equal(lines[3], 'list_notes: 200 buy milk');
  assert.match(lines[4] ?? '', /^list_notes: 429 Rate limited: .* \[\d+\]$/);
});

test('examples/oversight.ts: a destructive call waits for an approver, runs once, and the trail shows each step', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'examples/oversight.ts'], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  assert.equal(run.status, 0, run.stderr);
  const lines = run.stdout.trim().split('\n');
  assert.match(lines[0] ?? '', /^approval needed: http:\/\/127\.0\.0\.1:\d+\/approvals\/[A-Za-z0-9_-]{24}$/);
  assert.match(lines[1] ?? '', /^approved [A-Za-z0-9_-]{24}: tool "delete_notes" of agent$/);
  assert.equal(lines[2], 'result: deleted 2 notes');
  const trail = lines.slice(3, -1).map((line) => line.split(/\s{2,}/)[2]);
  assert.deepEqual(trail, [
    'approval_requested',
    'input_required',
    'approval_approved',
    'approval_redeemed',
    'result',
  ]);
  assert.match(lines.at(-1) ?? '', /^audit trail intact: 5 rows verified/);
});
