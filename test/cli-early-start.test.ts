// list and call start a stdio server before the client is loaded: what happens meanwhile reaches the client.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startedEarly } from '../src/cli/early-start.js';
import { StdioClientTransport } from '../src/transports/stdio/index.js';

const child = (source: string): StdioClientTransport =>
  new StdioClientTransport({ command: process.execPath, args: ['-e', source], stderr: 'capture' });

test('a server that speaks and exits before the client attaches: its line, then the close, replayed in start()', async () => {
  const inner = child('process.stdout.write(\'{"jsonrpc":"2.0","method":"notifications/message"}\\n\')');
  const transport = startedEarly(inner);
  // Wait until the child is gone, as a slow client load would: chained in front of the early close handler.
  const early = inner.onclose;
  await new Promise<void>((resolve) => {
    inner.onclose = () => {
      early?.();
      resolve();
    };
  });
  const seen: string[] = [];
  transport.onmessage = (message) =>
    seen.push(`message ${typeof message === 'string' ? message : JSON.stringify(message)}`);
  transport.onclose = () => seen.push('close');
  assert.deepEqual(seen, []);
  await transport.start();
  assert.deepEqual(seen, ['message {"jsonrpc":"2.0","method":"notifications/message"}', 'close']);
});

test('a command that cannot start: the client start() rejects with the reason, nothing unhandled before', async () => {
  const transport = startedEarly(
    new StdioClientTransport({ command: '/nonexistent/toolwire-test-server', args: [], stderr: 'capture' }),
  );
  await new Promise((resolve) => setImmediate(resolve));
  await assert.rejects(transport.start(), /cannot start "\/nonexistent\/toolwire-test-server": not found/);
});

test('after start(), sends and callbacks are the transport itself: a real exchange', async () => {
  const inner = child("process.stdin.on('data', (d) => { process.stdout.write(d); process.exit(0); });");
  const transport = startedEarly(inner);
  const lines: unknown[] = [];
  const closed = new Promise<void>((resolve) => {
    transport.onclose = () => resolve();
  });
  transport.onmessage = (message) => lines.push(message);
  await transport.start();
  transport.send('{"jsonrpc":"2.0","id":1,"method":"ping"}');
  await closed;
  assert.deepEqual(lines, ['{"jsonrpc":"2.0","id":1,"method":"ping"}']);
});
