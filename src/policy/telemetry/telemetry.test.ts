// Telemetry in process (memory transport, both eras): span names, kinds and attributes as the MCP semantic conventions
// say, errors, trace context from params._meta, the client's span as the server span's parent, opt-in arguments and
// results, the duration histograms, and what happens without @opentelemetry/api.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { McpClient, McpError, type Era } from '../../client/index.js';
import { DURATION_BUCKETS } from '../../client/semconv.js';
import { clientTelemetry } from '../../client/telemetry.js';
import type { JsonObject } from '../../jsonrpc/index.js';
import { ToolError, type McpServer } from '../../server/index.js';
import { createLinkedPair } from '../../transports/memory/index.js';
import { testServer } from '../../../test/support/harness.js';
import { LATEST_LEGACY_REVISION, MODERN_REVISION } from '../../protocol/index.js';
import { inMemoryOtel, type Otel } from '../../../test/support/telemetry-otel.js';
import { TRUNCATED_MARKER } from './bounded-json.js';
import { createTelemetry } from './create.js';
import { telemetry, type TelemetryOptions } from './index.js';

const REMOTE_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const REMOTE_SPAN = '00f067aa0ba902b7';
const TRACEPARENT = `00-${REMOTE_TRACE}-${REMOTE_SPAN}-01`;

/** `started` is told when the tool "waits" begins (so a test cancels a call that is running). */
function toolServer(started: () => void = () => undefined): McpServer {
  const server = testServer();
  server.tool({ name: 'echo', inputSchema: z.object({ text: z.string() }), handler: ({ text }) => text });
  server.tool({
    name: 'fails',
    handler: () => {
      throw new ToolError('no such city');
    },
  });
  server.tool({
    name: 'waits',
    handler: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
        started();
      }),
  });
  server.prompt({ name: 'greet', get: () => 'hello' });
  server.resource({ uri: 'test://notes/today', name: 'notes', read: () => 'nothing yet' });
  return server;
}

interface Setup {
  otel: Otel;
  server: McpServer;
  client: McpClient;
}

/** A tool server with telemetry outermost, and a toolwire client over the memory pair (traced when `tracedClient`). */
async function setup(
  era: Era,
  options: TelemetryOptions = {},
  tracedClient = false,
  started?: () => void,
): Promise<Setup> {
  const otel = inMemoryOtel();
  const server = toolServer(started);
  const { middleware } = telemetry({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
    ...options,
  });
  assert.ok(middleware !== undefined);
  server.use(middleware);
  const [clientSide, serverSide] = createLinkedPair();
  await server.connect(serverSide);
  const client = new McpClient(
    { name: 'telemetry-test', version: '1.0.0' },
    {
      era,
      listenForChanges: false,
      trusted: true,
      approve: 'always',
      ...(tracedClient && {
        telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
      }),
    },
  );
  await client.connect(clientSide);
  otel.reset();
  return { otel, server, client };
}

const VERSION: Record<Era, string> = { modern: MODERN_REVISION, legacy: LATEST_LEGACY_REVISION };

for (const era of ['modern', 'legacy'] as const) {
  describe(`telemetry, server spans (${era}, memory)`, () => {
    it('tools/call: a SERVER span "tools/call echo" with the convention attributes, nothing recorded of arguments', async () => {
      const { otel, client } = await setup(era);
      const outcome = await client.callTool('echo', { text: 'secret-argument' });
      assert.equal(outcome.isError, undefined);
      const span = otel.span('tools/call echo');
      assert.equal(span.kind, SpanKind.SERVER);
      assert.equal(span.status.code, SpanStatusCode.UNSET);
      assert.equal(span.instrumentationScope.name, 'toolwire');
      const { 'jsonrpc.request.id': id, ...rest } = span.attributes;
      assert.match(String(id), /^\d+$/);
      assert.deepEqual(rest, {
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': VERSION[era],
        'gen_ai.tool.name': 'echo',
        'gen_ai.operation.name': 'execute_tool',
      });
      assert.equal(span.parentSpanContext, undefined, 'no traceparent and no ambient span: a root span');
      assert.ok(!JSON.stringify(span.attributes).includes('secret-argument'));
    });

    it('isError: error.type tool_error and status ERROR', async () => {
      const { otel, client } = await setup(era);
      const outcome = await client.callTool('fails', {});
      assert.equal(outcome.isError, true);
      const span = otel.span('tools/call fails');
      assert.equal(span.attributes['error.type'], 'tool_error');
      assert.equal(span.attributes['rpc.response.status_code'], undefined);
      assert.equal(span.status.code, SpanStatusCode.ERROR);
    });

    it('an unknown tool: span named by the method only, error.type and rpc.response.status_code -32602', async () => {
      const { otel, client } = await setup(era);
      await assert.rejects(client.callTool('nope', {}), (error: unknown) => {
        assert.ok(error instanceof McpError);
        assert.equal(error.code, -32602);
        return true;
      });
      const span = otel.span('tools/call');
      assert.equal(span.attributes['gen_ai.tool.name'], 'nope');
      assert.equal(span.attributes['error.type'], '-32602');
      assert.equal(span.attributes['rpc.response.status_code'], '-32602');
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(span.status.message, 'Unknown tool: "nope"');
      const points = await otel.histogram('mcp.server.operation.duration');
      const failed = points.find((point) => point.attributes['error.type'] === '-32602');
      assert.ok(failed !== undefined);
      assert.equal(
        failed.attributes['gen_ai.tool.name'],
        undefined,
        'an unknown name never becomes a series',
      );
    });

    it('prompts/get: span "prompts/get greet" with gen_ai.prompt.name and no gen_ai.operation.name', async () => {
      const { otel, client } = await setup(era);
      await client.getPrompt('greet');
      const span = otel.span('prompts/get greet');
      assert.equal(span.attributes['gen_ai.prompt.name'], 'greet');
      assert.equal(span.attributes['gen_ai.operation.name'], undefined);
    });

    it('resources/read: span named by the method alone (URIs are unbounded), mcp.resource.uri on the span only', async () => {
      const { otel, client } = await setup(era);
      await client.readResource('test://notes/today');
      const span = otel.span('resources/read');
      assert.equal(span.attributes['mcp.resource.uri'], 'test://notes/today');
      const points = await otel.histogram('mcp.server.operation.duration');
      const read = points.find((point) => point.attributes['mcp.method.name'] === 'resources/read');
      assert.equal(read?.attributes['mcp.resource.uri'], undefined);
    });

    it('a call the client gives up on: the client span says timeout, the server span cancelled', async () => {
      let running!: () => void;
      const started = new Promise<void>((resolve) => (running = resolve));
      const { otel, client } = await setup(era, {}, true, running);
      const call = client.callTool('waits', {}, { timeoutMs: 50 });
      await started;
      await assert.rejects(call, { name: 'RequestTimeoutError' });
      const caller = await otel.ended('tools/call waits', SpanKind.CLIENT);
      const server = await otel.ended('tools/call waits', SpanKind.SERVER);
      assert.equal(caller.attributes['error.type'], 'timeout');
      assert.equal(server.attributes['error.type'], 'cancelled');
    });

    it('a denial from later middleware: its code as error.type, its message as the status description', async () => {
      const otel = inMemoryOtel();
      const server = toolServer();
      server.use(
        telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider }).middleware!,
      );
      server.use((request, next) =>
        request.method === 'tools/call' ? request.deny(-31003, 'Insufficient scope: tools:write') : next(),
      );
      const [clientSide, serverSide] = createLinkedPair();
      await server.connect(serverSide);
      const client = new McpClient(
        { name: 't', version: '1' },
        { era, listenForChanges: false, approve: 'always' },
      );
      await client.connect(clientSide);
      await assert.rejects(client.callTool('echo', { text: 'x' }), McpError);
      const span = otel.span('tools/call echo');
      assert.equal(span.attributes['error.type'], '-31003');
      assert.equal(span.attributes['rpc.response.status_code'], '-31003');
      assert.deepEqual(span.status, {
        code: SpanStatusCode.ERROR,
        message: 'Insufficient scope: tools:write',
      });
    });

    it('parent/child: the server span is the child of the client CLIENT span, same trace, same request id', async () => {
      const { otel, client } = await setup(era, {}, true);
      await client.callTool('echo', { text: 'hi' });
      const server = otel
        .spans()
        .find((span) => span.name === 'tools/call echo' && span.kind === SpanKind.SERVER);
      const caller = otel
        .spans()
        .find((span) => span.name === 'tools/call echo' && span.kind === SpanKind.CLIENT);
      assert.ok(server !== undefined && caller !== undefined);
      assert.equal(server.spanContext().traceId, caller.spanContext().traceId);
      assert.equal(server.parentSpanContext?.spanId, caller.spanContext().spanId);
      assert.equal(server.parentSpanContext?.isRemote, true);
      assert.equal(server.attributes['jsonrpc.request.id'], caller.attributes['jsonrpc.request.id']);
      assert.equal(caller.attributes['gen_ai.tool.name'], 'echo');
      assert.equal(caller.attributes['gen_ai.operation.name'], 'execute_tool');
      assert.equal(caller.attributes['mcp.protocol.version'], VERSION[era]);
      const points = await otel.histogram('mcp.client.operation.duration');
      const call = points.find((point) => point.attributes['mcp.method.name'] === 'tools/call');
      assert.equal(call?.count, 1);
      assert.deepEqual(call?.boundaries, DURATION_BUCKETS);
    });

    it('the client span records tool_error for isError and the JSON-RPC code for an error response', async () => {
      const { otel, client } = await setup(era, {}, true);
      await client.callTool('fails', {});
      await assert.rejects(client.callTool('nope', {}), McpError);
      const clients = otel.spans().filter((span) => span.kind === SpanKind.CLIENT);
      const failed = clients.find((span) => span.name === 'tools/call fails');
      const unknown = clients.find((span) => span.name === 'tools/call nope');
      assert.equal(failed?.attributes['error.type'], 'tool_error');
      assert.equal(unknown?.attributes['error.type'], '-32602');
      assert.equal(unknown?.attributes['rpc.response.status_code'], '-32602');
      assert.deepEqual(unknown?.status, { code: SpanStatusCode.ERROR, message: 'Unknown tool: "nope"' });
    });

    it('a call the client cancels: error.type cancelled on both spans', async () => {
      let running!: () => void;
      const started = new Promise<void>((resolve) => (running = resolve));
      const { otel, client } = await setup(era, {}, true, running);
      const controller = new AbortController();
      const call = client.callTool('waits', {}, { signal: controller.signal });
      await started;
      controller.abort();
      await assert.rejects(call);
      const caller = await otel.ended('tools/call waits', SpanKind.CLIENT);
      const server = await otel.ended('tools/call waits', SpanKind.SERVER);
      assert.equal(caller.attributes['error.type'], 'cancelled');
      assert.equal(server.attributes['error.type'], 'cancelled');
      assert.equal(server.status.code, SpanStatusCode.ERROR);
    });
  });
}

describe('telemetry, trace context from params._meta', () => {
  it('a valid traceparent and tracestate make the remote parent of the server span', async () => {
    const { otel, client } = await setup('modern');
    await client.request('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
      _meta: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7,congo=t61rcWkgMzE' },
    });
    const span = otel.span('tools/call echo');
    assert.equal(span.spanContext().traceId, REMOTE_TRACE);
    assert.equal(span.parentSpanContext?.spanId, REMOTE_SPAN);
    assert.equal(span.parentSpanContext?.isRemote, true);
    assert.equal(span.spanContext().traceState?.get('congo'), 't61rcWkgMzE');
    assert.deepEqual(span.links, []);
  });

  const INVALID: [string, unknown][] = [
    ['too short', '00-4bf92f3577b34da6a3ce929d0e0e473-00f067aa0ba902b7-01'],
    ['upper-case hex', TRACEPARENT.toUpperCase()],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${REMOTE_SPAN}-01`],
    ['all-zero span id', `00-${REMOTE_TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${REMOTE_TRACE}-${REMOTE_SPAN}-01`],
    ['version 00 with a fifth field', `${TRACEPARENT}-extra`],
    ['a number', 42],
    ['an object', { traceId: REMOTE_TRACE }],
    ['4 KiB of junk', 'x'.repeat(4096)],
  ];
  for (const [label, value] of INVALID) {
    it(`an invalid traceparent (${label}) is ignored: the call succeeds in a trace of its own`, async () => {
      const { otel, client } = await setup('modern');
      const result = await client.request('tools/call', {
        name: 'echo',
        arguments: { text: 'x' },
        _meta: { traceparent: value as string, tracestate: 'a=b' },
      });
      assert.equal(result.isError, undefined);
      const span = otel.span('tools/call echo');
      assert.notEqual(span.spanContext().traceId, REMOTE_TRACE);
      assert.equal(span.parentSpanContext, undefined);
      assert.equal(span.spanContext().traceState, undefined);
    });
  }

  it('a later traceparent version with extra fields is accepted, a tracestate with control characters dropped', async () => {
    const { otel, client } = await setup('modern');
    await client.request('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
      _meta: { traceparent: `cc-${REMOTE_TRACE}-${REMOTE_SPAN}-01-future`, tracestate: 'a=b\r\nc=d' },
    });
    const span = otel.span('tools/call echo');
    assert.equal(span.parentSpanContext?.spanId, REMOTE_SPAN);
    assert.equal(span.spanContext().traceState, undefined);
  });

  it('with an ambient span (an instrumented transport): _meta is the parent, the ambient span a link', async () => {
    const { otel, client } = await setup('modern');
    const ambient = otel.tracerProvider.getTracer('http').startSpan('POST', { kind: SpanKind.SERVER });
    // The memory pair delivers in the sender's async context: the server pipeline runs under `ambient`.
    await context.with(trace.setSpan(ROOT_CONTEXT, ambient), () =>
      client.request('tools/call', {
        name: 'echo',
        arguments: { text: 'x' },
        _meta: { traceparent: TRACEPARENT },
      }),
    );
    ambient.end();
    const span = otel.span('tools/call echo');
    assert.equal(span.parentSpanContext?.spanId, REMOTE_SPAN);
    assert.equal(span.links.length, 1);
    assert.equal(span.links[0]?.context.spanId, ambient.spanContext().spanId);
  });

  it("clientTraceContext 'link': the server span keeps its own trace and links to the client's context", async () => {
    const { otel, client } = await setup('modern', { clientTraceContext: 'link' });
    await client.request('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
      _meta: { traceparent: TRACEPARENT },
    });
    const span = otel.span('tools/call echo');
    assert.notEqual(span.spanContext().traceId, REMOTE_TRACE);
    assert.equal(span.parentSpanContext, undefined);
    assert.deepEqual(
      span.links.map((link) => [link.context.traceId, link.context.spanId]),
      [[REMOTE_TRACE, REMOTE_SPAN]],
    );
  });

  it("clientTraceContext 'ignore': the client's context is not read at all", async () => {
    const { otel, client } = await setup('modern', { clientTraceContext: 'ignore' });
    await client.request('tools/call', {
      name: 'echo',
      arguments: { text: 'x' },
      _meta: { traceparent: TRACEPARENT },
    });
    const span = otel.span('tools/call echo');
    assert.notEqual(span.spanContext().traceId, REMOTE_TRACE);
    assert.deepEqual(span.links, []);
  });

  it('with an ambient span and no traceparent: the ambient span is the parent, no link', async () => {
    const { otel, client } = await setup('modern');
    const ambient = otel.tracerProvider.getTracer('http').startSpan('POST', { kind: SpanKind.SERVER });
    await context.with(trace.setSpan(ROOT_CONTEXT, ambient), () => client.callTool('echo', { text: 'x' }));
    ambient.end();
    const span = otel.span('tools/call echo');
    assert.equal(span.parentSpanContext?.spanId, ambient.spanContext().spanId);
    assert.deepEqual(span.links, []);
  });

  it("the tool handler runs inside the server span: its own spans are the server span's children", async () => {
    const otel = inMemoryOtel();
    const server = testServer();
    server.tool({
      name: 'inner',
      handler: () => {
        otel.tracerProvider.getTracer('tool').startSpan('database query').end();
        return 'ok';
      },
    });
    server.use(
      telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider }).middleware!,
    );
    const [clientSide, serverSide] = createLinkedPair();
    await server.connect(serverSide);
    const client = new McpClient({ name: 't', version: '1' }, { listenForChanges: false, approve: 'always' });
    await client.connect(clientSide);
    await client.callTool('inner', {});
    assert.equal(
      otel.span('database query').parentSpanContext?.spanId,
      otel.span('tools/call inner').spanContext().spanId,
    );
  });
});

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

describe('telemetry, the duration histogram', () => {
  it('mcp.server.operation.duration in seconds, the convention buckets, attributes without ids', async () => {
    const { otel, client } = await setup('modern');
    await client.callTool('echo', { text: 'a' });
    await client.callTool('echo', { text: 'b' });
    await client.callTool('fails', {});
    const points = await otel.histogram('mcp.server.operation.duration');
    const ok = points.find(
      (point) =>
        point.attributes['gen_ai.tool.name'] === 'echo' && point.attributes['error.type'] === undefined,
    );
    assert.ok(ok !== undefined);
    assert.equal(ok.count, 2);
    assert.deepEqual(ok.boundaries, DURATION_BUCKETS);
    assert.ok(ok.sum > 0 && ok.sum < 60, `seconds, not milliseconds: ${ok.sum}`);
    assert.deepEqual(ok.attributes, {
      'mcp.method.name': 'tools/call',
      'mcp.protocol.version': VERSION.modern,
      'gen_ai.tool.name': 'echo',
      'gen_ai.operation.name': 'execute_tool',
    });
    const failed = points.find((point) => point.attributes['error.type'] === 'tool_error');
    assert.equal(failed?.count, 1);
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
