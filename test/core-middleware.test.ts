// The one place a policy layer hooks in: server.use((request, next) => …) wraps every request on both eras.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RpcError } from '../src/index.js';
import { connect, initializeLegacy, modern, testServer } from './support/harness.js';

describe('middleware (server.use)', () => {
  it('runs in the order added, outermost first, around every method of both eras', async () => {
    const server = testServer();
    server.tool({ name: 'echo', handler: () => 'hi' });
    const seen: string[] = [];
    server.use(async (scope, next) => {
      seen.push(`a>${scope.era}:${scope.method}`);
      const outcome = await next();
      seen.push(`a<${scope.method}`);
      return outcome;
    });
    server.use(async (scope, next) => {
      seen.push(`b>${scope.method}`);
      return next();
    });
    const client = await connect(server);
    await client.request('tools/call', modern({ name: 'echo', arguments: {} }));
    await initializeLegacy(client, '2025-11-25');
    await client.request('tools/list', {});
    assert.deepEqual(seen, [
      'a>modern:tools/call',
      'b>tools/call',
      'a<tools/call',
      'a>legacy:initialize',
      'b>initialize',
      'a<initialize',
      'a>legacy:tools/list',
      'b>tools/list',
      'a<tools/list',
    ]);
  });

  it('can refuse a call with a wire error before the handler runs (deny by policy; application codes sit outside -32768…-32000)', async () => {
    const server = testServer();
    let ran = false;
    server.tool({
      name: 'rm',
      handler: () => {
        ran = true;
        return 'gone';
      },
    });
    server.use(async (scope, next) => {
      if (scope.method === 'tools/call' && scope.params?.name === 'rm') {
        throw new RpcError(-31000, 'Forbidden: the policy does not allow rm');
      }
      return next();
    });
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'rm', arguments: {} }), { id: 7 });
    assert.deepEqual(response, {
      jsonrpc: '2.0',
      id: 7,
      error: { code: -31000, message: 'Forbidden: the policy does not allow rm' },
    });
    assert.equal(ran, false);
  });

  it('can replace the outcome (for example, filter a list)', async () => {
    const server = testServer();
    server.tool({ name: 'public', handler: () => 'p' });
    server.tool({ name: 'secret', handler: () => 's' });
    server.use(async (scope, next) => {
      const outcome = await next();
      if (scope.method !== 'tools/list' || typeof outcome !== 'string') return outcome;
      const result = JSON.parse(outcome) as { tools: { name: string }[] };
      return { ...result, tools: result.tools.filter((tool) => tool.name !== 'secret') };
    });
    const client = await connect(server);
    const response = await client.request('tools/list', modern());
    assert.deepEqual(
      (response.result?.tools as { name: string }[]).map((tool) => tool.name),
      ['public'],
    );
  });

  it('calling next() twice is an error answered neutrally, not a second run', async () => {
    const server = testServer();
    let runs = 0;
    server.tool({
      name: 'count',
      handler: () => {
        runs++;
        return String(runs);
      },
    });
    server.use(async (_scope, next) => {
      await next();
      return next();
    });
    const client = await connect(server);
    const response = await client.request('tools/call', modern({ name: 'count', arguments: {} }));
    assert.equal(response.error?.code, -32603);
    assert.match(response.error?.message ?? '', /^Internal error \(reference [0-9a-f]{8}\)$/);
    assert.equal(runs, 1);
  });
});

describe('setRequestHandler', () => {
  it('adds a method on the eras asked for only', async () => {
    const server = testServer();
    server.setRequestHandler('example/echo', (scope) => ({ echoed: scope.params?.value ?? null }), {
      legacy: false,
    });
    const client = await connect(server);
    const modernReply = await client.request('example/echo', modern({ value: 3 }), { id: 1 });
    assert.equal(modernReply.result?.echoed, 3);
    assert.equal(modernReply.result?.resultType, 'complete');
    await initializeLegacy(client, '2025-11-25');
    const legacyReply = await client.request('example/echo', { value: 3 }, { id: 2 });
    assert.deepEqual(legacyReply.error, { code: -32601, message: 'Method not found: example/echo' });
  });
});
