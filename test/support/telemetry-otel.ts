// The OpenTelemetry SDK's in-memory pieces for telemetry tests: a tracer provider exporting to memory, a meter provider
// with a reader the test collects from, and the AsyncLocalStorage context manager the api needs to carry context.

import { context, type Attributes, type SpanKind } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  DataPointType,
  MeterProvider,
  MetricReader,
  type HistogramMetricData,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

let contextManager: AsyncLocalStorageContextManager | undefined;

/** Installs the context manager once per test process (the api's global; test files run in processes of their own). */
export function enableContext(): void {
  if (contextManager !== undefined) return;
  contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
}

/** A reader the test pulls from: collect() gives what the meter provider holds now. */
class PullReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export interface HistogramPoint {
  attributes: Attributes;
  count: number;
  sum: number;
  boundaries: number[];
}

export interface Otel {
  exporter: InMemorySpanExporter;
  tracerProvider: BasicTracerProvider;
  meterProvider: MeterProvider;
  spans(): ReadableSpan[];
  /** The finished span named `name` (exactly one expected). */
  span(name: string): ReadableSpan;
  /** Resolves with the span named `name` (of `kind`, if given) once it has ended (at once if it already has). */
  ended(name: string, kind?: SpanKind): Promise<ReadableSpan>;
  /** The points of the histogram `name`, as collected now. */
  histogram(name: string): Promise<HistogramPoint[]>;
  reset(): void;
}

export function inMemoryOtel(): Otel {
  enableContext();
  const exporter = new InMemorySpanExporter();
  const waiting = new Set<(span: ReadableSpan) => boolean>();
  // Tells waiting tests of each span that ends: an event to wait for, instead of polling the exporter.
  const notifier: SpanProcessor = {
    onStart: () => undefined,
    onEnd: (span) => {
      for (const waiter of waiting) if (waiter(span)) waiting.delete(waiter);
    },
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter), notifier],
  });
  const reader = new PullReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spans = (): ReadableSpan[] => exporter.getFinishedSpans();
  return {
    exporter,
    tracerProvider,
    meterProvider,
    spans,
    span(name) {
      const found = spans().filter((span) => span.name === name);
      if (found.length !== 1) {
        throw new Error(
          `expected one span "${name}", found ${found.length} among ${JSON.stringify(spans().map((s) => s.name))}`,
        );
      }
      return found[0]!;
    },
    ended(name, kind) {
      const wanted = (span: ReadableSpan): boolean =>
        span.name === name && (kind === undefined || span.kind === kind);
      const done = spans().find(wanted);
      if (done !== undefined) return Promise.resolve(done);
      return new Promise((resolve) => {
        waiting.add((span) => {
          if (!wanted(span)) return false;
          resolve(span);
          return true;
        });
      });
    },
    async histogram(name) {
      const { resourceMetrics, errors } = await reader.collect();
      if (errors.length > 0) throw new Error(`metric collection failed: ${String(errors[0])}`);
      const points: HistogramPoint[] = [];
      for (const scope of resourceMetrics.scopeMetrics) {
        for (const metric of scope.metrics) {
          if (metric.descriptor.name !== name || metric.dataPointType !== DataPointType.HISTOGRAM) continue;
          for (const point of (metric as HistogramMetricData).dataPoints) {
            points.push({
              attributes: point.attributes,
              count: point.value.count,
              sum: point.value.sum ?? 0,
              boundaries: point.value.buckets.boundaries,
            });
          }
        }
      }
      return points;
    },
    reset: () => exporter.reset(),
  };
}
