// Telemetry's options and what it gives back: their shapes, and the check at construction whose every error names
// the option at fault. No @opentelemetry/api type appears here, so toolwire's declarations need no optional peer.

import type { MeterProviderLike, TracerProviderLike } from '../../client/telemetry-options.js';
import type { Middleware } from '../../server/index.js';

export interface TelemetryOptions {
  /** Default: the globally registered provider (trace.setGlobalTracerProvider, or the NodeSDK). */
  tracerProvider?: TracerProviderLike;
  /** Default: the globally registered provider (metrics.setGlobalMeterProvider, or the NodeSDK). */
  meterProvider?: MeterProviderLike;
  /**
   * Record tools/call arguments as gen_ai.tool.call.arguments (JSON, at most maxAttributeBytes). Default false: they
   * may hold secrets, and the semantic conventions make them opt-in.
   */
  recordArguments?: boolean;
  /** Record successful tools/call results as gen_ai.tool.call.result (JSON, bounded). Default false. */
  recordResults?: boolean;
  /** Largest recorded argument or result, in UTF-8 bytes; longer ones are cut with a marker. Default 4096. */
  maxAttributeBytes?: number;
  /**
   * What a client's traceparent/tracestate in params._meta becomes. 'parent' (default, as the semantic conventions
   * say): the server span joins the client's trace. 'link': the server span starts its own trace (under the ambient
   * context) and links to the client's, for endpoints open to clients whose trace ids and sampling flags should not
   * decide the server's traces. 'ignore': not read at all.
   */
  clientTraceContext?: ClientTraceContext;
}

export type ClientTraceContext = 'parent' | 'link' | 'ignore';

export interface Telemetry {
  /** False when @opentelemetry/api could not be loaded: then there is no middleware. */
  readonly enabled: boolean;
  /** The middleware to install outermost (before scopes, rate limits, approvals, audit), or undefined when off. */
  readonly middleware: Middleware | undefined;
}

export interface TelemetrySettings {
  tracerProvider: TracerProviderLike | undefined;
  meterProvider: MeterProviderLike | undefined;
  recordArguments: boolean;
  recordResults: boolean;
  maxAttributeBytes: number;
  clientTraceContext: ClientTraceContext;
}

export const DEFAULT_MAX_ATTRIBUTE_BYTES = 4096;
const MIN_ATTRIBUTE_BYTES = 64;
const MAX_ATTRIBUTE_BYTES = 1024 * 1024;
const KNOWN = new Set([
  'tracerProvider',
  'meterProvider',
  'recordArguments',
  'recordResults',
  'maxAttributeBytes',
  'clientTraceContext',
]);
const CLIENT_TRACE_CONTEXT: readonly unknown[] = ['parent', 'link', 'ignore'];

const hasMethod = (value: unknown, name: string): boolean =>
  typeof value === 'object' &&
  value !== null &&
  typeof (value as Record<string, unknown>)[name] === 'function';

/** The options with their defaults; a TypeError naming the option for anything else. */
export function checkTelemetryOptions(options: unknown): TelemetrySettings {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new TypeError('telemetry: options must be an object');
  }
  const given = options as Record<string, unknown>;
  for (const key of Object.keys(given)) {
    if (!KNOWN.has(key)) throw new TypeError(`telemetry: unknown option "${key}"`);
  }
  const {
    tracerProvider,
    meterProvider,
    recordArguments,
    recordResults,
    maxAttributeBytes,
    clientTraceContext,
  } = given;
  if (tracerProvider !== undefined && !hasMethod(tracerProvider, 'getTracer')) {
    throw new TypeError('telemetry: tracerProvider must be an OpenTelemetry TracerProvider (with getTracer)');
  }
  if (meterProvider !== undefined && !hasMethod(meterProvider, 'getMeter')) {
    throw new TypeError('telemetry: meterProvider must be an OpenTelemetry MeterProvider (with getMeter)');
  }
  for (const [name, value] of [
    ['recordArguments', recordArguments],
    ['recordResults', recordResults],
  ] as const) {
    if (value !== undefined && typeof value !== 'boolean') {
      throw new TypeError(`telemetry: ${name} must be true or false`);
    }
  }
  if (
    maxAttributeBytes !== undefined &&
    (typeof maxAttributeBytes !== 'number' ||
      !Number.isInteger(maxAttributeBytes) ||
      maxAttributeBytes < MIN_ATTRIBUTE_BYTES ||
      maxAttributeBytes > MAX_ATTRIBUTE_BYTES)
  ) {
    throw new TypeError(
      `telemetry: maxAttributeBytes must be an integer from ${MIN_ATTRIBUTE_BYTES} to ${MAX_ATTRIBUTE_BYTES}`,
    );
  }
  if (clientTraceContext !== undefined && !CLIENT_TRACE_CONTEXT.includes(clientTraceContext)) {
    throw new TypeError('telemetry: clientTraceContext must be "parent", "link" or "ignore"');
  }
  return {
    tracerProvider: tracerProvider as TracerProviderLike | undefined, // checked above: it has getTracer
    meterProvider: meterProvider as MeterProviderLike | undefined, // checked above: it has getMeter
    recordArguments: recordArguments === true,
    recordResults: recordResults === true,
    maxAttributeBytes: (maxAttributeBytes as number | undefined) ?? DEFAULT_MAX_ATTRIBUTE_BYTES,
    clientTraceContext: (clientTraceContext as ClientTraceContext | undefined) ?? 'parent', // checked above
  };
}
