// The client against servers that break the rules (test/fixtures/client/raw-server.mjs, a real stdio child): each
// misbehaviour ends in one clear error, quickly, and never in a hang.

import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { McpClient, type ClientOptions } from '../src/client/index.js';
import type { StdioClientTransport } from '../src/transports/stdio/index.js';
import {
  CLIENT_INFO,
  recordingLogger,
  stderrLine,
  stdioTransport,
  within,
} from './fixtures/client/harness.js';

const TEST_MS = 20_000;
/** Nothing here should take long: an error that only comes from a time limit would blow this bound. */
const FAST_MS = 8_000;

const live = new Set<McpClient>();
afterEach(async () => {
  await Promise.all([...live].map((client) => client.close()));
  live.clear();
});

async function connectRaw(mode: string, options: ClientOptions = {}) {
  const recorder = recordingLogger();
  const transport: StdioClientTransport = stdioTransport('raw-server.mjs', mode);
  const client = new McpClient(CLIENT_INFO, { approve: 'always', logger: recorder.logger, ...options });
  live.add(client);
  await within(client.connect(transport), FAST_MS, 'connect');
  assert.equal(client.era, 'legacy');
  return { client, transport, recorder };
}

/** The raw server notes each message it receives on stderr; request ids 1-3 go to discover, initialize, list. */
const CALL_ID = 4;

describe('client: misbehaving servers', () => {
  it(
    'invalid JSON on stdout fails the open call at once with ProtocolError',
    { timeout: TEST_MS },
    async () => {
      const { client, recorder } = await connectRaw('invalid-json');
      const message = 'the server sent something that is not JSON: "this is not json {"';
      await within(
        assert.rejects(client.callTool('work', { job: 'x' }), { name: 'ProtocolError', message }),
        FAST_MS,
        'the ProtocolError (not a time-out)',
      );
      assert.deepEqual(
        recorder.warnings,
        [],
        'the reason reaches the open call, so it is not also a warning',
      );
    },
  );

  it(
    'a response with an unknown id is ignored with a warning; the call times out and is cancelled',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client, transport, recorder } = await connectRaw('unknown-id');
      await assert.rejects(client.callTool('work', {}, { timeoutMs: 300 }), {
        name: 'RequestTimeoutError',
        message: 'tools/call timed out after 300 ms (the request was cancelled on the server)',
      });
      assert.deepEqual(recorder.warnings, ['ignored a response with unknown id 9999']);
      assert.equal(
        await stderrLine(transport, /notifications\/cancelled/),
        `got notifications/cancelled ${CALL_ID}`,
      );
    },
  );

  it(
    'a server that never answers: RequestTimeoutError after the client-wide timeoutMs, and notifications/cancelled',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client, transport, recorder } = await connectRaw('silent', { timeoutMs: 500 });
      const started = Date.now();
      await assert.rejects(client.callTool('work', {}), {
        name: 'RequestTimeoutError',
        message: 'tools/call timed out after 500 ms (the request was cancelled on the server)',
      });
      assert.ok(Date.now() - started >= 500);
      assert.equal(
        await stderrLine(transport, /notifications\/cancelled/),
        `got notifications/cancelled ${CALL_ID}`,
      );
      assert.deepEqual(recorder.warnings, []);
    },
  );

  it(
    'a server that crashes mid-call: ConnectionClosedError, and its stderr is kept',
    { timeout: TEST_MS },
    async () => {
      const { client, transport } = await connectRaw('crash');
      await within(
        assert.rejects(client.callTool('work', {}), {
          name: 'ConnectionClosedError',
          message: 'the connection to the server closed',
        }),
        FAST_MS,
        'the ConnectionClosedError (not a time-out)',
      );
      assert.equal(transport.exitCode, 1);
      assert.match(transport.stderrText, /raw server: out of cheese, giving up\n$/);
    },
  );

  it(
    'after a crash, later requests reject (never throw) with ConnectionClosedError',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client } = await connectRaw('crash');
      await assert.rejects(client.callTool('work', {}), { name: 'ConnectionClosedError' });
      let pending: Promise<unknown> | undefined;
      assert.doesNotThrow(() => (pending = client.request('ping')));
      await assert.rejects(pending ?? Promise.resolve(), { name: 'ConnectionClosedError' });
      await assert.rejects(client.callTool('work', {}), { name: 'ConnectionClosedError' });
    },
  );

  it(
    '10,000 progress notifications: every one reaches onProgress in order, then the result',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client } = await connectRaw('flood');
      const seen: number[] = [];
      let outOfOrder = 0;
      const result = await within(
        client.callTool(
          'work',
          {},
          {
            onProgress: ({ progress, total }) => {
              if (progress !== seen.length + 1 || total !== 10_000) outOfOrder++;
              seen.push(progress);
            },
          },
        ),
        FAST_MS,
        'the flooded call',
      );
      assert.equal(seen.length, 10_000);
      assert.equal(outOfOrder, 0);
      assert.deepEqual(result.structuredContent, { count: 10_000 });
    },
  );

  it(
    'structuredContent that breaks the outputSchema: OutputValidationError naming the field',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client } = await connectRaw('bad-output');
      const raw = { content: [{ type: 'text', text: 'done' }], structuredContent: { count: 'many' } };
      await assert.rejects(client.callTool('work', {}), (error: unknown) => {
        assert.ok(error instanceof Error);
        assert.equal(error.name, 'OutputValidationError');
        assert.equal(
          error.message,
          'structuredContent of tool "work" does not match its outputSchema:\n- count: must be integer, got string',
        );
        assert.equal((error as { tool?: unknown }).tool, 'work');
        assert.deepEqual((error as { result?: unknown }).result, raw);
        return true;
      });
    },
  );

  it(
    'C5 an outputSchema pattern that backtracks is not run on the output: the result comes back, with a warning',
    { timeout: TEST_MS },
    async () => {
      // Run, ^(a+)+$ on 40 a's and a "!" takes hours (each two more a's, four times longer), whatever the time limit.
      const { client, recorder } = await connectRaw('redos-output');
      const result = await within(client.callTool('work', {}), FAST_MS, 'the result');
      assert.deepEqual(result.structuredContent, { label: `${'a'.repeat(40)}!` });
      assert.equal(recorder.warnings.length, 1, recorder.warnings.join('\n'));
      assert.match(
        recorder.warnings[0] ?? '',
        /^cannot validate the output of "work": outputSchema of tool "work" has a pattern "\^\(a\+\)\+\$" at \/properties\/label\/pattern /,
      );
    },
  );

  it('validateOutput "off" hands the same result back unchecked', { timeout: TEST_MS }, async () => {
    const { client } = await connectRaw('bad-output', { validateOutput: 'off' });
    assert.deepEqual((await client.callTool('work', {})).structuredContent, { count: 'many' });
  });

  it(
    'a tool with an invalid x-mcp-header is dropped from listTools, with a warning naming it',
    {
      timeout: TEST_MS,
    },
    async () => {
      const { client, recorder } = await connectRaw('bad-header');
      assert.deepEqual(
        (await client.listTools()).map((tool) => tool.name),
        ['work'],
      );
      assert.deepEqual(recorder.warnings, [
        'dropped tool "bad_header": invalid x-mcp-header: "Bad Region" at /properties/region is not a valid header ' +
          "name: it must be an RFC 9110 token (letters, digits and !#$%&'*+-.^_`|~; no spaces, colons, control or " +
          'non-ASCII characters)',
      ]);
    },
  );
});
