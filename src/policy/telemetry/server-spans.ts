// The telemetry middleware: a SERVER span per request as the MCP semantic conventions say (parented on the client's
// traceparent from params._meta, linked to the ambient transport context), and the mcp.server.operation.duration
// histogram. Installed outermost, so its span covers every other policy decision and the handler.

import type { Attributes, Context, Histogram, Link, Span, Tracer } from '@opentelemetry/api';
import type { OtelApi } from '../../client/otel-api.js';
import { Attr, CANCELLED, TIMEOUT, TOOL_ERROR } from '../../client/semconv.js';
import { parseTraceParent, readTraceState } from '../../client/trace-context.js';
import { ErrorCode, RpcError, type JsonObject } from '../../jsonrpc/index.js';
import type { Middleware, Outcome, ReadonlyJson } from '../../server/index.js';
import { boundedJson } from './bounded-json.js';
import { describeRequest } from './describe.js';
import type { TelemetrySettings } from './options.js';

export interface ServerInstruments {
  tracer: Tracer;
  histogram: Histogram;
}

export function serverSpans(
  api: OtelApi,
  instruments: ServerInstruments,
  settings: TelemetrySettings,
): Middleware {
  const { tracer, histogram } = instruments;
  const { recordArguments, recordResults, maxAttributeBytes, clientTraceContext } = settings;
  return async (request, next) => {
    const started = performance.now();
    const described = describeRequest(request);
    const isCall = request.method === 'tools/call';
    if (recordArguments && isCall && request.params?.arguments !== undefined) {
      described.span[Attr.GenAiToolCallArguments] = boundedJson(request.params.arguments, maxAttributeBytes);
    }
    const ambient = api.context.active();
    const parent =
      clientTraceContext === 'ignore'
        ? { context: ambient, link: undefined }
        : parentOf(api, ambient, request.meta, clientTraceContext === 'link');
    const span = tracer.startSpan(
      described.name,
      {
        kind: api.SpanKind.SERVER,
        attributes: described.span,
        ...(parent.link !== undefined && { links: [parent.link] }),
      },
      parent.context,
    );
    const metric = described.metric;
    let outcome: Outcome;
    try {
      outcome = await api.context.with(api.trace.setSpan(parent.context, span), next);
    } catch (error) {
      failed(api, span, metric, error);
      end(span, histogram, metric, started);
      throw error;
    }
    if (outcome === undefined) {
      // The handler answered itself, or nobody is left to answer (cancelled, client gone, time limit): the view's
      // signal says which, and is made only on this rare path.
      if (request.signal.aborted) unanswered(api, span, metric, request.signal.reason);
    } else if (isCall && typeof outcome === 'object') {
      // A tools/call outcome object is a result; only its isError member is read, and checked.
      if ((outcome as { isError?: unknown }).isError === true) {
        metric[Attr.ErrorType] = TOOL_ERROR;
        span.setAttribute(Attr.ErrorType, TOOL_ERROR);
        span.setStatus({ code: api.SpanStatusCode.ERROR });
      } else if (recordResults) {
        span.setAttribute(Attr.GenAiToolCallResult, boundedJson(outcome, maxAttributeBytes));
      }
    }
    end(span, histogram, metric, started);
    return outcome;
  };
}

interface Parent {
  context: Context;
  link: Link | undefined;
}

/**
 * The convention: the context in params._meta is the parent, and the ambient one (an HTTP server span, when HTTP is
 * instrumented) a link, since one MCP request may span several HTTP requests and one HTTP request several MCP ones.
 * Without a valid traceparent the ambient context is the parent, as for any other server span. `linkOnly` keeps the
 * ambient parent and links to the client's context instead.
 */
function parentOf(
  api: OtelApi,
  ambient: Context,
  meta: ReadonlyJson<JsonObject> | undefined,
  linkOnly: boolean,
): Parent {
  const remote = meta === undefined ? undefined : parseTraceParent(meta.traceparent);
  if (remote === undefined) return { context: ambient, link: undefined };
  const state = readTraceState(meta?.tracestate);
  const client = {
    ...remote,
    isRemote: true,
    ...(state !== undefined && { traceState: api.createTraceState(state) }),
  };
  if (linkOnly) return { context: ambient, link: { context: client } };
  const current = api.trace.getSpanContext(ambient);
  return {
    context: api.trace.setSpanContext(ambient, client),
    link: current !== undefined && api.isSpanContextValid(current) ? { context: current } : undefined,
  };
}

/** A JSON-RPC error: error.type and rpc.response.status_code are its code, the status description its message. */
function failed(api: OtelApi, span: Span, metric: Attributes, error: unknown): void {
  // Anything else thrown is answered -32603 by the pipeline, with a reference; its details stay in the server's log.
  const rpc = error instanceof RpcError;
  const code = String(rpc ? error.code : ErrorCode.InternalError);
  metric[Attr.ErrorType] = metric[Attr.RpcResponseStatusCode] = code;
  span.setAttribute(Attr.ErrorType, code);
  span.setAttribute(Attr.RpcResponseStatusCode, code);
  span.setStatus({ code: api.SpanStatusCode.ERROR, message: rpc ? error.message : 'Internal error' });
}

/** The HTTP transport's own time limit aborts with "timed out after N ms"; AbortSignal.timeout with a TimeoutError. */
const TIMED_OUT = /^timed out after \d+ ms$/;

function unanswered(api: OtelApi, span: Span, metric: Attributes, reason: unknown): void {
  const timedOut =
    reason instanceof Error && (reason.name === 'TimeoutError' || TIMED_OUT.test(reason.message));
  const type = timedOut ? TIMEOUT : CANCELLED;
  metric[Attr.ErrorType] = type;
  span.setAttribute(Attr.ErrorType, type);
  span.setStatus({ code: api.SpanStatusCode.ERROR });
}

function end(span: Span, histogram: Histogram, metric: Attributes, started: number): void {
  span.end();
  histogram.record((performance.now() - started) / 1000, metric);
}
