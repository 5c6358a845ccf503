// Telemetry over real HTTP on loopback, both eras: toolwire's client and server in one trace (the server span the
// child of the client span), network.transport tcp, the legacy session id, a traceparent sent by a plain HTTP client,
// and the link to an ambient HTTP span when the endpoint runs inside one (a fetch handler under an instrumented app).

import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ROOT_CONTEXT, SpanKind, context, trace } from '@opentelemetry/api';
import { z } from 'zod';
import { McpClient, type Era } from '../src/client/index.js';
import { McpServer, silentLogger } from '../src/server/index.js';
import { createFetchHandler, listenHttp, type HttpListening } from '../src/transports/http/index.js';
import { HttpClientTransport } from '../src/transports/http-client/index.js';
import { telemetry } from '../src/policy/telemetry/index.js';
import { legacySession, modernMeta, MODERN } from './support/http-mcp.js';
import { inMemoryOtel, type Otel } from './support/telemetry-otel.js';

const TRACE = '0af7651916cd43dd8448eb211c80319c';
const PARENT = 'b7ad6b7169203331';
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`;

function tracedServer(otel: Otel): McpServer {
  const server = new McpServer({ name: 'telemetry-http', version: '1.0.0' }, { logger: silentLogger });
  server.tool({ name: 'echo', inputSchema: z.object({ text: z.string() }), handler: ({ text }) => text });
  server.use(
    telemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider }).middleware!,
  );
  return server;
}

describe('telemetry over HTTP (loopback)', () => {
  const listening: HttpListening[] = [];
  after(async () => {
    for (const http of listening) await http.close();
  });

  for (const era of ['modern', 'legacy'] as const satisfies readonly Era[]) {
    it(`${era}: client and server spans in one trace, tcp, the server span the client span's child`, async () => {
      const otel = inMemoryOtel();
      const http = await listenHttp(tracedServer(otel), { port: 0, logger: silentLogger });
      listening.push(http);
      const transport = new HttpClientTransport(http.url);
      const client = new McpClient(
        { name: 'telemetry-http-client', version: '1.0.0' },
        {
          era,
          listenForChanges: false,
          approve: 'always',
          telemetry: { tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider },
        },
      );
      await client.connect(transport);
      const outcome = await client.callTool('echo', { text: 'over the wire' });
      assert.equal(outcome.isError, undefined);
      const caller = await otel.ended('tools/call echo', SpanKind.CLIENT);
      const server = await otel.ended('tools/call echo', SpanKind.SERVER);
      assert.equal(server.spanContext().traceId, caller.spanContext().traceId);
      assert.equal(server.parentSpanContext?.spanId, caller.spanContext().spanId);
      for (const span of [server, caller]) {
        assert.equal(span.attributes['network.transport'], 'tcp');
        assert.equal(span.attributes['network.protocol.name'], 'http');
        assert.equal(span.attributes['gen_ai.tool.name'], 'echo');
        assert.equal(span.attributes['mcp.protocol.version'], client.protocolVersion);
      }
      assert.equal(server.attributes['client.address'], '127.0.0.1');
      if (era === 'legacy') {
        assert.equal(typeof transport.sessionId, 'string');
        assert.equal(server.attributes['mcp.session.id'], transport.sessionId);
        assert.equal(caller.attributes['mcp.session.id'], transport.sessionId);
        const initialize = await otel.ended('initialize', SpanKind.SERVER);
        assert.equal(initialize.attributes['mcp.method.name'], 'initialize');
      } else {
        assert.equal(server.attributes['mcp.session.id'], undefined);
      }
      const points = await otel.histogram('mcp.server.operation.duration');
      const call = points.find((point) => point.attributes['mcp.method.name'] === 'tools/call');
      assert.equal(call?.count, 1);
      assert.equal(call?.attributes['network.transport'], 'tcp');
      await client.close();
    });
  }

  it('a plain HTTP client: the traceparent in params._meta is the parent (modern and legacy)', async () => {
    const otel = inMemoryOtel();
    const http = await listenHttp(tracedServer(otel), { port: 0, logger: silentLogger });
    listening.push(http);
    const modernAnswer = await fetch(http.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 'call-1',
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { text: 'a' },
          _meta: { ...modernMeta(), traceparent: TRACEPARENT },
        },
      }),
    });
    assert.equal(modernAnswer.status, 200);
    await modernAnswer.text();
    const modernSpan = await otel.ended('tools/call echo', SpanKind.SERVER);
    assert.equal(modernSpan.spanContext().traceId, TRACE);
    assert.equal(modernSpan.parentSpanContext?.spanId, PARENT);
    assert.equal(modernSpan.attributes['jsonrpc.request.id'], 'call-1');
    otel.reset();

    const session = await legacySession(http.url);
    const legacyAnswer = await session.request('tools/call', {
      name: 'echo',
      arguments: { text: 'b' },
      _meta: { traceparent: TRACEPARENT, tracestate: 'vendor=x' },
    });
    assert.equal(legacyAnswer.status, 200);
    const legacySpan = await otel.ended('tools/call echo', SpanKind.SERVER);
    assert.equal(legacySpan.parentSpanContext?.spanId, PARENT);
    assert.equal(legacySpan.spanContext().traceState?.serialize(), 'vendor=x');
    assert.equal(legacySpan.attributes['mcp.session.id'], session.sessionId);
  });

  it('inside an ambient HTTP server span (fetch handler): parent from _meta, a link to the HTTP span', async () => {
    const otel = inMemoryOtel();
    const handler = createFetchHandler(tracedServer(otel));
    // What an instrumented framework does: the HTTP server span is current while the handler runs.
    const httpSpan = otel.tracerProvider.getTracer('http').startSpan('POST /mcp', { kind: SpanKind.SERVER });
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: {
        host: '127.0.0.1',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': MODERN,
        'mcp-method': 'tools/call',
        'mcp-name': 'echo',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: {
          name: 'echo',
          arguments: { text: 'c' },
          _meta: { ...modernMeta(), traceparent: TRACEPARENT },
        },
      }),
    });
    const response = await context.with(trace.setSpan(ROOT_CONTEXT, httpSpan), () => handler(request));
    assert.equal(response.status, 200);
    await response.text();
    httpSpan.end();
    const span = await otel.ended('tools/call echo', SpanKind.SERVER);
    assert.equal(span.parentSpanContext?.spanId, PARENT);
    assert.deepEqual(
      span.links.map((link) => link.context.spanId),
      [httpSpan.spanContext().spanId],
    );
  });
});
