// Telemetry and W3C trace context in params._meta: a valid traceparent is the server span's parent, an invalid one is
// ignored, an ambient (transport) span becomes a link, clientTraceContext 'link' and 'ignore', and the tool's own spans
// nest under the server span.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { McpClient } from '../../client/index.js';
import { createLinkedPair } from '../../transports/memory/index.js';
import { testServer } from '../../../test/support/harness.js';
import { inMemoryOtel } from '../../../test/support/telemetry-otel.js';
import { REMOTE_SPAN, REMOTE_TRACE, TRACEPARENT, setup } from '../../../test/support/telemetry-pair.js';
import { telemetry } from './index.js';

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
