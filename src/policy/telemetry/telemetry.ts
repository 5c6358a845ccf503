// telemetry(): OpenTelemetry for a toolwire server as the MCP semantic conventions describe it, or nothing at all when
// the optional peer @opentelemetry/api is not installed (no middleware, so not even a request view is made).

import { loadOpenTelemetryApi, type OtelApiLoader } from '../../client/otel-api.js';
import { DURATION_BUCKETS, INSTRUMENTATION_NAME, Metric } from '../../client/semconv.js';
import type { Middleware } from '../../server/index.js';
import { checkTelemetryOptions, type TelemetryOptions } from './options.js';
import { serverSpans } from './server-spans.js';

export interface Telemetry {
  /** False when @opentelemetry/api could not be loaded: then there is no middleware. */
  readonly enabled: boolean;
  /** The middleware to install outermost (before scopes, rate limits, approvals, audit), or undefined when off. */
  readonly middleware: Middleware | undefined;
}

const OFF: Telemetry = Object.freeze({ enabled: false, middleware: undefined });

/**
 * Spans and the duration histogram for every request. The options are checked first (a TypeError names the bad one)
 * whether or not the api is installed, so a configuration error shows on every machine. `load` is a seam for tests.
 */
export function telemetry(
  options: TelemetryOptions = {},
  load: OtelApiLoader = loadOpenTelemetryApi,
): Telemetry {
  const settings = checkTelemetryOptions(options);
  const api = load();
  if (api === undefined) return OFF;
  const tracer = (settings.tracerProvider ?? api.trace.getTracerProvider()).getTracer(INSTRUMENTATION_NAME);
  const histogram = (settings.meterProvider ?? api.metrics.getMeterProvider())
    .getMeter(INSTRUMENTATION_NAME)
    .createHistogram(Metric.ServerOperationDuration, {
      unit: 's',
      description:
        'MCP request duration as observed on the receiver from the time it was received until the result is sent.',
      advice: { explicitBucketBoundaries: [...DURATION_BUCKETS] },
    });
  return Object.freeze({ enabled: true, middleware: serverSpans(api, { tracer, histogram }, settings) });
}
