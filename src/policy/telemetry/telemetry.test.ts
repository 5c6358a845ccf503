// Telemetry in process (memory transport, both eras): span names, kinds and attributes as the MCP semantic conventions
// say, errors and cancellations, the client's span as the server span's parent, and the duration histograms.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { McpClient, McpError } from '../../client/index.js';
import { DURATION_BUCKETS } from '../../client/semconv.js';
import { createLinkedPair } from '../../transports/memory/index.js';
import { inMemoryOtel } from '../../../test/support/telemetry-otel.js';
import { VERSION, setup, toolServer } from '../../../test/support/telemetry-pair.js';
import { telemetry } from './index.js';

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
