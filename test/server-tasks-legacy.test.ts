// §7.2: the tasks extension is modern-only; a legacy session calling a task-only tool is told why (2025-11-25 used
// -32601 for a required-task tool called without a task), and optional task tools simply run.

import assert from 'node:assert/strict';
import { it } from 'node:test';
import { connect, initializeLegacy, testServer } from './support/harness.js';

it('a legacy session gets -32601 for a task-only tool, and a synchronous result from an optional one', async () => {
  const server = testServer();
  server.tool({ name: 'only-task', task: 'required', handler: () => 'never' });
  server.tool({ name: 'maybe-task', task: 'optional', handler: () => 'ran now' });
  const client = await connect(server);
  await initializeLegacy(client, '2025-11-25');
  const refused = await client.request('tools/call', { name: 'only-task', arguments: {} }, { id: 1 });
  assert.deepEqual(refused, {
    jsonrpc: '2.0',
    id: 1,
    error: {
      code: -32601,
      message:
        'Tool "only-task" runs only as a task (io.modelcontextprotocol/tasks), which needs protocol revision 2026-07-28',
    },
  });
  const ran = await client.request('tools/call', { name: 'maybe-task', arguments: {} }, { id: 2 });
  assert.deepEqual(ran.result, { content: [{ type: 'text', text: 'ran now' }] });
});
