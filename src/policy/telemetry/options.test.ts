// Telemetry's options: arguments and results recorded only when opted in and bounded, what happens without
// @opentelemetry/api (nothing, and no throw), and the exact error for each bad option.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { McpClient } from '../../client/index.js';
import { clientTelemetry } from '../../client/telemetry.js';
import type { JsonObject } from '../../jsonrpc/index.js';
import { createLinkedPair } from '../../transports/memory/index.js';
import { setup, toolServer } from '../../../test/support/telemetry-pair.js';
import { TRUNCATED_MARKER } from './bounded-json.js';
import { createTelemetry } from './create.js';
import { telemetry } from './index.js';

describe('telemetry, arguments and results (opt-in)', () => {
  it('recordArguments and recordResults: gen_ai.tool.call.arguments and .result as JSON', async () => {
    const { otel, client } = await setup('modern', { recordArguments: true, recordResults: true });
    await client.callTool('echo', { text: 'hello' });
    const span = otel.span('tools/call echo');
    assert.equal(span.attributes['gen_ai.tool.call.arguments'], '{"text":"hello"}');
    const result = JSON.parse(String(span.attributes['gen_ai.tool.call.result'])) as JsonObject;
    assert.deepEqual(result.content, [{ type: 'text', text: 'hello' }]);
  });

  it('a failed call records its arguments but no result (the convention: results of successful calls)', async () => {
    const { otel, client } = await setup('modern', { recordArguments: true, recordResults: true });
    await client.callTool('fails', {});
    const span = otel.span('tools/call fails');
    assert.equal(span.attributes['gen_ai.tool.call.arguments'], '{}');
    assert.equal(span.attributes['gen_ai.tool.call.result'], undefined);
  });

  it('maxAttributeBytes bounds both, cut on a character boundary with a marker', async () => {
    const { otel, client } = await setup('modern', {
      recordArguments: true,
      recordResults: true,
      maxAttributeBytes: 100,
    });
    await client.callTool('echo', { text: 'é'.repeat(500) });
    const span = otel.span('tools/call echo');
    for (const key of ['gen_ai.tool.call.arguments', 'gen_ai.tool.call.result']) {
      const value = String(span.attributes[key]);
      assert.ok(value.endsWith(TRUNCATED_MARKER), key);
      assert.ok(Buffer.byteLength(value) <= 100, `${key}: ${Buffer.byteLength(value)} bytes`);
      assert.ok(!value.includes('\uFFFD'), key);
    }
  });
});

describe('telemetry, @opentelemetry/api absent or options wrong', () => {
  it('the api cannot be loaded: no middleware, no throw, and the client is not instrumented', () => {
    const absent = (): undefined => undefined;
    assert.deepEqual(createTelemetry({ recordArguments: true }, absent), {
      enabled: false,
      middleware: undefined,
    });
    assert.equal(clientTelemetry(true, absent), undefined);
    assert.equal(clientTelemetry({}, absent), undefined);
  });

  it('telemetry off on the client (the default) never asks for the api', () => {
    let asked = 0;
    const loader = (): undefined => {
      asked++;
      return undefined;
    };
    assert.equal(clientTelemetry(undefined, loader), undefined);
    assert.equal(clientTelemetry(false, loader), undefined);
    assert.equal(asked, 0);
  });

  it('with the api installed and no provider registered: the middleware runs on the no-op tracer', async () => {
    const server = toolServer();
    const { enabled, middleware } = telemetry();
    assert.equal(enabled, true);
    server.use(middleware!);
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const client = new McpClient(
      { name: 't', version: '1' },
      { listenForChanges: false, approve: 'always', telemetry: true },
    );
    await client.connect(clientSide);
    assert.equal((await client.callTool('echo', { text: 'x' })).isError, undefined);
  });

  const BAD: [string, unknown, string][] = [
    ['not an object', 'yes', 'telemetry: options must be an object'],
    ['an unknown key', { recordArgs: true }, 'telemetry: unknown option "recordArgs"'],
    [
      'a tracer provider without getTracer',
      { tracerProvider: {} },
      'telemetry: tracerProvider must be an OpenTelemetry TracerProvider (with getTracer)',
    ],
    [
      'a meter provider without getMeter',
      { meterProvider: 1 },
      'telemetry: meterProvider must be an OpenTelemetry MeterProvider (with getMeter)',
    ],
    [
      'recordArguments a string',
      { recordArguments: 'true' },
      'telemetry: recordArguments must be true or false',
    ],
    [
      'maxAttributeBytes too small',
      { maxAttributeBytes: 10 },
      'telemetry: maxAttributeBytes must be an integer from 64 to 1048576',
    ],
    [
      'maxAttributeBytes fractional',
      { maxAttributeBytes: 100.5 },
      'telemetry: maxAttributeBytes must be an integer from 64 to 1048576',
    ],
  ];
  for (const [label, options, message] of BAD) {
    it(`bad options (${label}) are refused, even without the api`, () => {
      assert.throws(() => createTelemetry(options, () => undefined), {
        name: 'TypeError',
        message,
      });
    });
  }

  it('a client telemetry setting of the wrong type is refused', () => {
    assert.throws(() => clientTelemetry('on' as never, () => undefined), {
      name: 'TypeError',
      message: 'telemetry must be true, false or { tracerProvider?, meterProvider? }',
    });
  });
});
