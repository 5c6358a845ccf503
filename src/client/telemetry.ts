// Client-side OpenTelemetry (opt-in with ClientOptions.telemetry): a CLIENT span per request named and attributed as
// the MCP semantic conventions say, W3C traceparent/tracestate injected into params._meta so the server's span becomes
// its child, and the mcp.client.operation.duration histogram. Without @opentelemetry/api it is off, silently.

import type { Attributes, Histogram, Meter, Span, Tracer } from '@opentelemetry/api';
import type { JsonObject, RequestId } from '../jsonrpc/index.js';
import type { Transport } from '../protocol/index.js';
import { McpError, RequestAbortedError, RequestTimeoutError } from './errors.js';
import { loadOpenTelemetryApi, type OtelApi, type OtelApiLoader } from './otel-api.js';
import {
  Attr,
  CANCELLED,
  DURATION_BUCKETS,
  EXECUTE_TOOL,
  INSTRUMENTATION_NAME,
  Metric,
  OTHER,
  TIMEOUT,
  TOOL_ERROR,
  spanName,
} from './semconv.js';
import type { ClientTelemetrySetting } from './telemetry-options.js';
import { formatTraceParent } from './trace-context.js';

/** Sends the request (params with the trace context added); onId learns the JSON-RPC id the channel gave it. */
export type TracedSend = (params: JsonObject, onId: (id: RequestId) => void) => Promise<JsonObject>;

export interface ClientTelemetry {
  request(
    method: string,
    params: JsonObject,
    protocolVersion: string | undefined,
    transport: Transport,
    send: TracedSend,
  ): Promise<JsonObject>;
}

/** The instrumentation for one client, or undefined when it is off or @opentelemetry/api is not installed. */
export function clientTelemetry(
  setting: ClientTelemetrySetting | undefined,
  load: OtelApiLoader = loadOpenTelemetryApi,
): ClientTelemetry | undefined {
  if (setting === undefined || setting === false) return undefined;
  if (setting !== true && (typeof setting !== 'object' || setting === null)) {
    throw new TypeError('telemetry must be true, false or { tracerProvider?, meterProvider? }');
  }
  const api = load();
  if (api === undefined) return undefined;
  const options = setting === true ? {} : setting;
  // The providers are typed structurally (telemetry-options.ts); they hand out the api's Tracer and Meter.
  const tracerProvider = options.tracerProvider ?? api.trace.getTracerProvider();
  const meterProvider = options.meterProvider ?? api.metrics.getMeterProvider();
  const tracer = tracerProvider.getTracer(INSTRUMENTATION_NAME) as Tracer;
  const meter = meterProvider.getMeter(INSTRUMENTATION_NAME) as Meter;
  const histogram = meter.createHistogram(Metric.ClientOperationDuration, {
    unit: 's',
    description:
      'The duration of the MCP request as observed on the sender from the time it was sent until the response is received.',
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
  });
  return new ClientSpans(api, tracer, histogram);
}

class ClientSpans implements ClientTelemetry {
  readonly #api: OtelApi;
  readonly #tracer: Tracer;
  readonly #histogram: Histogram;

  constructor(api: OtelApi, tracer: Tracer, histogram: Histogram) {
    this.#api = api;
    this.#tracer = tracer;
    this.#histogram = histogram;
  }

  async request(
    method: string,
    params: JsonObject,
    protocolVersion: string | undefined,
    transport: Transport,
    send: TracedSend,
  ): Promise<JsonObject> {
    const api = this.#api;
    const started = performance.now();
    const metric: Attributes = { [Attr.McpMethodName]: method };
    let target: string | undefined;
    if (method === 'tools/call' && typeof params.name === 'string') {
      target = params.name;
      metric[Attr.GenAiToolName] = target;
      metric[Attr.GenAiOperationName] = EXECUTE_TOOL;
    } else if (method === 'prompts/get' && typeof params.name === 'string') {
      target = params.name;
      metric[Attr.GenAiPromptName] = target;
    }
    if (protocolVersion !== undefined) metric[Attr.McpProtocolVersion] = protocolVersion;
    // The Transport contract says nothing of kinds; HTTP is the one that cancels by closing streams, stdio says false.
    if (transport.closesStreamToCancel === true) {
      metric[Attr.NetworkTransport] = 'tcp';
      metric[Attr.NetworkProtocolName] = 'http';
    } else if (transport.closesStreamToCancel === false) metric[Attr.NetworkTransport] = 'pipe';
    const attributes: Attributes = { ...metric };
    const sessionId = (transport as { sessionId?: unknown }).sessionId; // HttpClientTransport's legacy session
    if (typeof sessionId === 'string') attributes[Attr.McpSessionId] = sessionId;
    if (typeof params.uri === 'string' && method.startsWith('resources/'))
      attributes[Attr.McpResourceUri] = params.uri;

    const parent = api.context.active();
    const span = this.#tracer.startSpan(
      spanName(method, target),
      { kind: api.SpanKind.CLIENT, attributes },
      parent,
    );
    const traced = inject(api, span, params);
    try {
      const result = await api.context.with(api.trace.setSpan(parent, span), () =>
        send(traced, (id) => span.setAttribute(Attr.JsonRpcRequestId, String(id))),
      );
      if (method === 'tools/call' && result.isError === true) {
        metric[Attr.ErrorType] = TOOL_ERROR;
        span.setAttribute(Attr.ErrorType, TOOL_ERROR);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      }
      return result;
    } catch (error) {
      fail(api, span, metric, error);
      throw error;
    } finally {
      span.end();
      this.#histogram.record((performance.now() - started) / 1000, metric);
    }
  }
}

/** params with traceparent (and tracestate) in _meta; the caller's object is never changed. */
function inject(api: OtelApi, span: Span, params: JsonObject): JsonObject {
  const context = span.spanContext();
  if (!api.isSpanContextValid(context)) return params; // a no-op tracer without a parent: nothing to propagate
  const meta: JsonObject = {
    ...((params._meta as JsonObject | undefined) ?? {}),
    traceparent: formatTraceParent(context.traceId, context.spanId, context.traceFlags),
  };
  const state = context.traceState?.serialize();
  if (state !== undefined && state !== '') meta.tracestate = state;
  return { ...params, _meta: meta };
}

const MCP_ERROR_PREFIX = /^server error -?\d+: /;

/** error.type (and rpc.response.status_code for a JSON-RPC error) and the span's ERROR status. */
function fail(api: OtelApi, span: Span, metric: Attributes, error: unknown): void {
  let type: string;
  let description: string | undefined;
  if (error instanceof McpError) {
    type = String(error.code);
    metric[Attr.RpcResponseStatusCode] = type;
    span.setAttribute(Attr.RpcResponseStatusCode, type);
    description = error.message.replace(MCP_ERROR_PREFIX, ''); // the JSONRPCError.message, as the convention asks
  } else if (error instanceof RequestTimeoutError) type = TIMEOUT;
  else if (error instanceof RequestAbortedError) type = CANCELLED;
  else if (error instanceof Error && error.name !== 'Error' && /^[A-Za-z]{1,64}$/.test(error.name)) {
    type = error.name; // toolwire's own classes (TransportError, ConnectionClosedError…): few, and they say what broke
    description = error.message;
  } else type = OTHER;
  metric[Attr.ErrorType] = type;
  span.setAttribute(Attr.ErrorType, type);
  span.setStatus(
    description === undefined
      ? { code: api.SpanStatusCode.ERROR }
      : { code: api.SpanStatusCode.ERROR, message: description },
  );
}
