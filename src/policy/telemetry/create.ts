// Makes the server's telemetry from checked options and a loader of @opentelemetry/api: the middleware, or nothing at
// all when the api cannot be loaded (no middleware, so not even a request view is made). telemetry() is its public face.

import type { Meter, Tracer } from '@opentelemetry/api';
import { loadOpenTelemetryApi, type OtelApiLoader } from '../../client/otel-api.js';
import { DURATION_BUCKETS, INSTRUMENTATION_NAME, Metric } from '../../client/semconv.js';
import { checkTelemetryOptions, type Telemetry } from './options.js';
import { serverSpans } from './server-spans.js';

const OFF: Telemetry = Object.freeze({ enabled: false, middleware: undefined });

/**
 * The options are checked first (a TypeError names the bad one) whether or not the api is installed, so a
 * configuration error shows on every machine. `load` is the seam tests use to play "not installed".
 */
export function createTelemetry(options: unknown, load: OtelApiLoader = loadOpenTelemetryApi): Telemetry {
  const settings = checkTelemetryOptions(options);
  const api = load();
  if (api === undefined) return OFF;
  // The providers are typed structurally (client/telemetry-options.ts); they hand out the api's Tracer and Meter.
  const tracerProvider = settings.tracerProvider ?? api.trace.getTracerProvider();
  const meterProvider = settings.meterProvider ?? api.metrics.getMeterProvider();
  const tracer = tracerProvider.getTracer(INSTRUMENTATION_NAME) as Tracer;
  const meter = meterProvider.getMeter(INSTRUMENTATION_NAME) as Meter;
  const histogram = meter.createHistogram(Metric.ServerOperationDuration, {
    unit: 's',
    description:
      'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
    advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
  });
  return Object.freeze({ enabled: true, middleware: serverSpans(api, { tracer, histogram }, settings) });
}
