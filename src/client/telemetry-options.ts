// The shapes telemetry is configured with, in toolwire's public types without naming @opentelemetry/api: a project
// that does not install the optional peer must still type-check against toolwire's declarations.

/** Structurally an OpenTelemetry TracerProvider (the SDK's BasicTracerProvider, NodeTracerProvider…). */
export interface TracerProviderLike {
  getTracer(name: string, version?: string, options?: object): unknown;
}

/** Structurally an OpenTelemetry MeterProvider (the SDK's MeterProvider). */
export interface MeterProviderLike {
  getMeter(name: string, version?: string, options?: object): unknown;
}

export interface ClientTelemetryOptions {
  /** Default: the globally registered provider (trace.setGlobalTracerProvider, or the NodeSDK). */
  tracerProvider?: TracerProviderLike;
  /** Default: the globally registered provider (metrics.setGlobalMeterProvider, or the NodeSDK). */
  meterProvider?: MeterProviderLike;
}

/** true: the global providers; an object: the providers given; false or absent: no telemetry at all. */
export type ClientTelemetrySetting = boolean | ClientTelemetryOptions;
