// A configured stdio server gets a minimal environment plus its own "env" (as Claude Desktop does), so secrets of
// the shell running toolwire do not leak to third-party servers; a command line typed as TARGET keeps the caller's.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli, shellQuote } from './fixtures/client/harness.js';

// A raw legacy stdio server whose one tool reports two environment variables.
const SERVER = `
import { createInterface } from 'node:readline';
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
createInterface({ input: process.stdin }).on('line', (line) => {
  const m = JSON.parse(line);
  if (m.id === undefined) return;
  if (m.method === 'initialize') return send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 'env', version: '1' } } });
  if (m.method === 'tools/list') return send({ jsonrpc: '2.0', id: m.id, result: { tools: [{ name: 'env', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true } }] } });
  if (m.method === 'tools/call') return send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: (process.env.TW_SECRET ?? 'unset') + ' ' + (process.env.TW_GIVEN ?? 'unset') + ' ' + (process.env.PATH ? 'path' : 'nopath') }] } });
  send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } });
});
`;

describe('the environment of stdio servers', () => {
  let dir = '';
  let server = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'tw-env-'));
    server = join(dir, 'server.mjs');
    await writeFile(server, SERVER);
    const config = {
      mcpServers: {
        env: { command: process.execPath, args: [server], env: { TW_GIVEN: 'given' }, trusted: true },
      },
    };
    await writeFile(join(dir, 'toolwire.json'), JSON.stringify(config));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  const env = { ...process.env, TW_SECRET: 'secret' };

  it('a configured server sees PATH and its own env, not the caller secrets', async () => {
    const run = await runCli(['call', 'env', 'env', '--config', join(dir, 'toolwire.json')], { env });
    assert.equal(run.stdout, 'unset given path\n');
    assert.equal(run.code, 0);
  });

  it('a command line typed as TARGET runs with the caller environment, as in a shell', async () => {
    const run = await runCli(['call', shellQuote([process.execPath, server]), 'env', '--trust'], { env });
    assert.equal(run.stdout, 'secret unset path\n');
    assert.equal(run.code, 0);
  });
});
