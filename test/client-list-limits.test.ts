// The client's bounds on paginated lists (threat C6): a cursor handed back twice stops the read at once, and a list
// over maxListItems is cut with a warning, for tools/list and the other lists alike.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { ProtocolError } from '../src/client/index.js';
import type { JsonObject } from '../src/jsonrpc/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { memoryClient, recordingLogger } from './fixtures/client/harness.js';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/**
 * A server whose `method` answers pages of `perPage` entries made by `entry`, with the next cursor chosen by
 * `cursorAfter` (undefined: the last page). Counts the requests.
 */
function pagingServer(
  method: string,
  field: string,
  entry: (index: number) => JsonObject,
  perPage: number,
  cursorAfter: (page: number) => string | undefined,
): { server: McpServer; requests: () => number } {
  const server = new McpServer({ name: 'paging', version: '1.0.0' }, { logger: silentLogger });
  server.tool({ name: 'noop', handler: () => 'ok' });
  let requests = 0;
  server.setRequestHandler(method, () => {
    const page = requests++;
    const entries = Array.from({ length: perPage }, (_, i) => entry(page * perPage + i));
    const next = cursorAfter(page);
    return next === undefined ? { [field]: entries } : { [field]: entries, nextCursor: next };
  });
  return { server, requests: () => requests };
}

const tool = (index: number): JsonObject => ({ name: `t${index}`, inputSchema: { type: 'object' } });

describe('client: list bounds (C6)', () => {
  it('C6 a tools/list cursor that repeats stops after the second page with an error naming the cursor', async () => {
    const upstream = pagingServer('tools/list', 'tools', tool, 2, () => 'same');
    const pair = await memoryClient({}, {}, upstream.server);
    closers.push(pair.close);
    await assert.rejects(pair.client.listTools(), new ProtocolError('tools/list repeated the cursor "same"'));
    assert.equal(upstream.requests(), 2);
  });

  it('C6 a cursor that comes back after others (a loop of three) is caught too', async () => {
    const upstream = pagingServer('tools/list', 'tools', tool, 1, (page) => `c${page % 3}`);
    const pair = await memoryClient({}, {}, upstream.server);
    closers.push(pair.close);
    await assert.rejects(pair.client.listTools(), new ProtocolError('tools/list repeated the cursor "c0"'));
    assert.equal(upstream.requests(), 4);
  });

  it('C6 a long repeating cursor is cut in the error', async () => {
    const cursor = 'x'.repeat(10_000);
    const upstream = pagingServer('tools/list', 'tools', tool, 1, () => cursor);
    const pair = await memoryClient({}, {}, upstream.server);
    closers.push(pair.close);
    await assert.rejects(
      pair.client.listTools(),
      new ProtocolError(`tools/list repeated the cursor "${'x'.repeat(64)}..."`),
    );
  });

  it('C6 maxListItems cuts a tools/list with a warning and reads no further page', async () => {
    const recorder = recordingLogger();
    const upstream = pagingServer('tools/list', 'tools', tool, 3, (page) => `p${page + 1}`);
    const pair = await memoryClient({ maxListItems: 5, logger: recorder.logger }, {}, upstream.server);
    closers.push(pair.close);
    const tools = await pair.client.listTools();
    assert.deepEqual(
      tools.map((entry) => entry.name),
      ['t0', 't1', 't2', 't3', 't4'],
    );
    assert.equal(upstream.requests(), 2);
    assert.deepEqual(recorder.warnings, [
      'tools/list has more than 5 entries: kept the first 5 and stopped reading (raise maxListItems if the server is that large)',
    ]);
  });

  it('C6 100,000 tools in one page are capped at the default of 10,000 with a warning', async () => {
    const recorder = recordingLogger();
    const upstream = pagingServer('tools/list', 'tools', tool, 100_000, () => 'more');
    const pair = await memoryClient({ logger: recorder.logger }, {}, upstream.server);
    closers.push(pair.close);
    const tools = await pair.client.listTools();
    assert.equal(tools.length, 10_000);
    assert.equal(tools.at(-1)?.name, 't9999');
    assert.equal(upstream.requests(), 1);
    assert.deepEqual(recorder.warnings, [
      'tools/list has more than 10000 entries: kept the first 10000 and stopped reading (raise maxListItems if the server is that large)',
    ]);
  });

  it('C6 exactly maxListItems entries is no warning', async () => {
    const recorder = recordingLogger();
    const upstream = pagingServer('tools/list', 'tools', tool, 2, (page) => (page === 0 ? 'p1' : undefined));
    const pair = await memoryClient({ maxListItems: 4, logger: recorder.logger }, {}, upstream.server);
    closers.push(pair.close);
    assert.equal((await pair.client.listTools()).length, 4);
    assert.deepEqual(recorder.warnings, []);
  });

  it('C6 maxListItems and the cursor check hold for prompts/list as well', async () => {
    const recorder = recordingLogger();
    const prompt = (index: number): JsonObject => ({ name: `p${index}` });
    const capped = pagingServer('prompts/list', 'prompts', prompt, 2, (page) => `n${page}`);
    const pair = await memoryClient({ maxListItems: 3, logger: recorder.logger }, {}, capped.server);
    closers.push(pair.close);
    assert.deepEqual(
      (await pair.client.listPrompts()).map((entry) => entry.name),
      ['p0', 'p1', 'p2'],
    );
    assert.deepEqual(recorder.warnings, [
      'prompts/list has more than 3 entries: kept the first 3 and stopped reading (raise maxListItems if the server is that large)',
    ]);

    const looping = pagingServer('prompts/list', 'prompts', prompt, 1, () => 'again');
    const second = await memoryClient({}, {}, looping.server);
    closers.push(second.close);
    await assert.rejects(
      second.client.listPrompts(),
      new ProtocolError('prompts/list repeated the cursor "again"'),
    );
    assert.equal(looping.requests(), 2);
  });
});
