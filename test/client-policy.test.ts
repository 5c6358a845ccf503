// The client's human in the loop and audit trail, against toolwire's fixture server on a memory pair:
// calls that are not known to be read-only need approval (an untrusted server's readOnlyHint does not count), and
// every call leaves exactly one audit entry with its outcome and duration.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import {
  ApprovalDeniedError,
  type ApprovalRequest,
  type AuditEntry,
  type ClientOptions,
} from '../src/client/index.js';
import { deferred, memoryClient, recordingLogger, within } from './fixtures/client/harness.js';

const SERVER_INFO = { name: 'toolwire-fixture', version: '1.0.0' };

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function open(options: ClientOptions) {
  const pair = await memoryClient(options);
  closers.push(pair.close);
  /** How many tools/call requests reached the wire. */
  const calls = (): number =>
    pair.traffic.filter(
      (entry) => entry.direction === 'client->server' && entry.text.includes('"tools/call"'),
    ).length;
  return { ...pair, calls };
}

const noHook = (tool: string, trusted: boolean): string =>
  `tool "${tool}" is not known to be read-only${trusted ? '' : ' (the server is not marked trusted)'}, and no ` +
  'approval hook is configured; pass approve to the client to confirm calls';

describe('client: approval', () => {
  it('without a hook, a tool that is not read-only is refused before anything is sent', async () => {
    const { client, calls } = await open({});
    await assert.rejects(client.callTool('remove', { name: 'x' }), (error: unknown) => {
      assert.ok(error instanceof ApprovalDeniedError);
      assert.equal(error.message, noHook('remove', false));
      assert.equal(error.tool, 'remove');
      return true;
    });
    assert.equal(calls(), 0);
  });

  it("an untrusted server's readOnlyHint is ignored: its read-only tool is refused too", async () => {
    const { client, calls } = await open({});
    await assert.rejects(client.callTool('add', { a: 1, b: 2 }), {
      name: 'ApprovalDeniedError',
      message: noHook('add', false),
    });
    assert.equal(calls(), 0);
  });

  it("a trusted server's readOnlyHint is honoured; its other tools still need approval", async () => {
    const { client, calls } = await open({ trusted: true });
    assert.deepEqual((await client.callTool('add', { a: 1, b: 2 })).structuredContent, { sum: 3 });
    await assert.rejects(client.callTool('remove', { name: 'x' }), {
      name: 'ApprovalDeniedError',
      message: noHook('remove', true),
    });
    assert.equal(calls(), 1);
  });

  it('the hook receives the tool, the arguments, the annotations and their reading', async () => {
    const requests: ApprovalRequest[] = [];
    const { client } = await open({ approve: (request) => (requests.push(request), true) });
    const result = await client.callTool('remove', { name: 'x' });
    assert.deepEqual(result.content, [{ type: 'text', text: 'removed x' }]);
    await client.callTool('add', { a: 1, b: 2 });
    assert.deepEqual(requests, [
      {
        server: 'toolwire-fixture',
        serverInfo: SERVER_INFO,
        tool: 'remove',
        arguments: { name: 'x' },
        annotations: { destructiveHint: true },
        trusted: false,
        readOnly: false,
        destructive: true,
      },
      {
        server: 'toolwire-fixture',
        serverInfo: SERVER_INFO,
        tool: 'add',
        arguments: { a: 1, b: 2 },
        annotations: { readOnlyHint: true },
        trusted: false,
        readOnly: false, // the hint is shown, but it did not count
        destructive: true,
      },
    ]);
  });

  it('with a trusted server, the hook is asked only for tools that are not read-only', async () => {
    const asked: string[] = [];
    const { client } = await open({
      trusted: true,
      serverName: 'fixture (trusted)',
      approve: (request) => {
        asked.push(
          `${request.server}/${request.tool} trusted=${request.trusted} readOnly=${request.readOnly}`,
        );
        return true;
      },
    });
    await client.callTool('add', { a: 1, b: 2 });
    await client.callTool('grow', {});
    assert.deepEqual(asked, ['fixture (trusted)/grow trusted=true readOnly=false']);
  });

  it('a hook that says no refuses the call; one that throws refuses it with its own error', async () => {
    const refusal = new Error('the user closed the dialog');
    let answer: 'no' | 'throw' = 'no';
    const { client, calls } = await open({
      approve: async () => {
        if (answer === 'throw') throw refusal;
        return false;
      },
    });
    await assert.rejects(client.callTool('remove', { name: 'x' }), {
      name: 'ApprovalDeniedError',
      message: 'the call to "remove" was not approved',
    });
    answer = 'throw';
    await assert.rejects(client.callTool('remove', { name: 'x' }), (error: unknown) => error === refusal);
    assert.equal(calls(), 0);
  });

  it("approve: 'always' allows everything", async () => {
    const { client } = await open({ approve: 'always' });
    assert.deepEqual((await client.callTool('remove', { name: 'y' })).content, [
      { type: 'text', text: 'removed y' },
    ]);
  });
});

describe('client: audit', () => {
  it('one entry per call: success, tool-error, timeout, cancelled, error and denied, each with a duration', async () => {
    const entries: AuditEntry[] = [];
    const slowStarted: Array<() => void> = [];
    const pair = await memoryClient(
      { approve: (request) => request.tool !== 'remove', audit: (entry) => entries.push(entry) },
      { onSlowStarted: () => slowStarted.shift()?.() },
    );
    closers.push(pair.close);
    const { client } = pair;

    await client.callTool('add', { a: 2, b: 3 });
    await client.callTool('fail', {});
    // within() also keeps the event loop alive: the client's own timers are unref'd, and a memory pair holds nothing.
    await within(
      assert.rejects(client.callTool('slow', {}, { timeoutMs: 50 }), { name: 'RequestTimeoutError' }),
      5000,
      'the time-out',
    );
    const controller = new AbortController();
    const started = deferred();
    slowStarted.push(started.resolve);
    const cancelled = client.callTool('slow', {}, { signal: controller.signal });
    await within(started.promise, 5000, 'slow to start');
    controller.abort();
    await assert.rejects(cancelled, { name: 'RequestAbortedError', message: 'tools/call was cancelled' });
    await assert.rejects(client.callTool('nope', {}), { name: 'McpError' });
    await assert.rejects(client.callTool('remove', { name: 'z' }), { name: 'ApprovalDeniedError' });

    for (const entry of entries) {
      assert.equal(typeof entry.durationMs, 'number');
      assert.ok(entry.durationMs >= 0 && entry.durationMs < 10_000, `durationMs ${entry.durationMs}`);
    }
    assert.ok((entries[2]?.durationMs ?? 0) >= 50, 'the timed-out call lasted its time limit');
    const server = 'toolwire-fixture';
    assert.deepEqual(
      entries.map(({ durationMs: _durationMs, ...rest }) => rest),
      [
        { server, tool: 'add', arguments: { a: 2, b: 3 }, outcome: 'success' },
        { server, tool: 'fail', arguments: {}, outcome: 'tool-error' },
        {
          server,
          tool: 'slow',
          arguments: {},
          outcome: 'timeout',
          error: 'tools/call timed out after 50 ms (the request was cancelled on the server)',
        },
        {
          server,
          tool: 'slow',
          arguments: {},
          outcome: 'cancelled',
          error: 'tools/call was cancelled',
        },
        {
          server,
          tool: 'nope',
          arguments: {},
          outcome: 'error',
          error: 'server error -32602: Unknown tool: "nope"',
        },
        {
          server,
          tool: 'remove',
          arguments: { name: 'z' },
          outcome: 'denied',
          error: 'the call to "remove" was not approved',
        },
      ],
    );
  });

  it('an audit hook that throws is reported as a warning; the call still returns its result', async () => {
    const recorder = recordingLogger();
    const { client } = await open({
      approve: 'always',
      logger: recorder.logger,
      audit: () => {
        throw new Error('disk full');
      },
    });
    assert.deepEqual((await client.callTool('add', { a: 1, b: 1 })).structuredContent, { sum: 2 });
    assert.deepEqual(recorder.warnings, ['audit hook threw: disk full']);
  });
});
