// The telemetry middleware driven directly with a hand-made request view: the outcomes a real pipeline reaches only
// through timing (a transport's time limit, a handler that answered itself) and the attributes of each transport kind.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Caller, TransportFacts } from '../../protocol/index.js';
import type { Outcome, RequestView } from '../../server/index.js';
import { inMemoryOtel } from '../../../test/support/telemetry-otel.js';
import { telemetry } from './index.js';
import { formatTraceParent, parseTraceParent, readTraceState } from '../../client/trace-context.js';

const CALLER: Caller = Object.freeze({ subject: 'tester', via: 'local', scopes: Object.freeze([]) });

function view(
  overrides: { transport?: TransportFacts; signal?: AbortSignal; method?: string } = {},
): RequestView {
  return {
    id: 'r-1',
    method: overrides.method ?? 'tools/call',
    params: { name: 'echo', arguments: {} },
    era: 'modern',
    protocolVersion: '2026-07-28',
    meta: undefined,
    clientInfo: undefined,
    clientCapabilities: {},
    caller: CALLER,
    transport: overrides.transport ?? { kind: 'memory' },
    signal: overrides.signal ?? new AbortController().signal,
    target: undefined,
    deny: () => {
      throw new Error('not used');
    },
    addResultMeta: () => undefined,
    requireInput: () => {
      throw new Error('not used');
    },
    inputState: () => undefined,
    askClient: () => {
      throw new Error('not used');
    },
  };
}

function aborted(reason: unknown): AbortSignal {
  const controller = new AbortController();
  controller.abort(reason);
  return controller.signal;
}

async function run(request: RequestView, next: () => Promise<Outcome>) {
  const otel = inMemoryOtel();
  const middleware = telemetry({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
  }).middleware!;
  let thrown: unknown;
  const outcome = await Promise.resolve(middleware(request, next)).catch((error: unknown) => {
    thrown = error;
    return undefined;
  });
  return {
    outcome,
    thrown,
    span: otel.spans()[0]!,
    points: await otel.histogram('mcp.server.operation.duration'),
  };
}

describe('telemetry middleware, outcomes without an answer', () => {
  const CASES: [string, unknown, string][] = [
    ['the HTTP time limit', new Error('timed out after 65000 ms'), 'timeout'],
    ['AbortSignal.timeout', new DOMException('The operation timed out.', 'TimeoutError'), 'timeout'],
    ['a client cancel', new Error('cancelled'), 'cancelled'],
    ['the client closed the response', new Error('the client closed the response'), 'cancelled'],
    ['a reason that is no Error', 'gone', 'cancelled'],
  ];
  for (const [label, reason, type] of CASES) {
    it(`nothing returned and the signal aborted by ${label}: error.type ${type}`, async () => {
      const { span, points } = await run(view({ signal: aborted(reason) }), () => Promise.resolve(undefined));
      assert.equal(span.attributes['error.type'], type);
      assert.equal(span.status.code, SpanStatusCode.ERROR);
      assert.equal(points[0]?.attributes['error.type'], type);
    });
  }

  it('nothing returned and the signal not aborted (the handler answered itself): no error', async () => {
    const { span } = await run(view(), () => Promise.resolve(undefined));
    assert.equal(span.attributes['error.type'], undefined);
    assert.equal(span.status.code, SpanStatusCode.UNSET);
  });

  it('a throw that is no JSON-RPC error: -32603 and a neutral description, the same error passed on', async () => {
    const failure = new Error('ECONNREFUSED 10.0.0.7:5432 (internal host)');
    const { span, thrown } = await run(view(), () => Promise.reject(failure));
    assert.equal(thrown, failure);
    assert.equal(span.attributes['error.type'], '-32603');
    assert.equal(span.attributes['rpc.response.status_code'], '-32603');
    assert.deepEqual(span.status, { code: SpanStatusCode.ERROR, message: 'Internal error' });
    const recorded = JSON.stringify({
      attributes: span.attributes,
      status: span.status,
      events: span.events,
    });
    assert.ok(!recorded.includes('10.0.0.7'), 'internals stay in the log');
  });

  it('a string outcome (a serialised list) is a success', async () => {
    const { span, outcome } = await run(view({ method: 'tools/list' }), () =>
      Promise.resolve('{"tools":[]}'),
    );
    assert.equal(outcome, '{"tools":[]}');
    assert.equal(span.name, 'tools/list');
    assert.equal(span.attributes['gen_ai.operation.name'], undefined);
    assert.equal(span.attributes['error.type'], undefined);
  });
});

describe('telemetry middleware, transports', () => {
  it('stdio: network.transport pipe, no client address', async () => {
    const { span } = await run(view({ transport: { kind: 'stdio' } }), () =>
      Promise.resolve({ content: [] }),
    );
    assert.equal(span.attributes['network.transport'], 'pipe');
    assert.equal(span.attributes['network.protocol.name'], undefined);
    assert.equal(span.attributes['client.address'], undefined);
  });

  it('memory: no network attributes (in process)', async () => {
    const { span } = await run(view(), () => Promise.resolve({ content: [] }));
    assert.equal(span.attributes['network.transport'], undefined);
    assert.equal(span.attributes['jsonrpc.request.id'], 'r-1');
  });
});

describe('W3C trace context codec', () => {
  it('formats what it parses, flags included', () => {
    const text = formatTraceParent('4bf92f3577b34da6a3ce929d0e0e4736', '00f067aa0ba902b7', 1);
    assert.equal(text, '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01');
    assert.deepEqual(parseTraceParent(text), {
      traceId: '4bf92f3577b34da6a3ce929d0e0e4736',
      spanId: '00f067aa0ba902b7',
      traceFlags: 1,
    });
    assert.equal(parseTraceParent(text.replace(/-01$/, '-00'))?.traceFlags, 0);
  });

  it('tracestate: printable ASCII up to 512 characters, else dropped', () => {
    assert.equal(readTraceState('a=1,b=2'), 'a=1,b=2');
    assert.equal(readTraceState(''), undefined);
    assert.equal(readTraceState('a=\u00e9'), undefined);
    assert.equal(readTraceState(`a=${'x'.repeat(511)}`), undefined);
    assert.equal(readTraceState(7), undefined);
  });
});
