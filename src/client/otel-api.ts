// Loads the optional peer @opentelemetry/api once, synchronously, and answers undefined when it is not installed:
// no static import anywhere in src, so toolwire runs (and pays nothing) without it.

import { createRequire } from 'node:module';
import type * as OtelApiModule from '@opentelemetry/api';

export type OtelApi = typeof OtelApiModule;

/** How the api is obtained: a seam so tests can play "not installed" without uninstalling it. */
export type OtelApiLoader = () => OtelApi | undefined;

let cached: { api: OtelApi | undefined } | undefined;

/**
 * The installed @opentelemetry/api, or undefined. require (through createRequire) keeps setup synchronous; its CommonJS
 * build shares the global registrations (providers, context manager, propagator) of an ESM copy the application loads,
 * since the api keeps them on a global symbol for exactly this.
 */
export const loadOpenTelemetryApi: OtelApiLoader = () => {
  if (cached === undefined) {
    try {
      cached = { api: createRequire(import.meta.url)('@opentelemetry/api') as OtelApi };
    } catch {
      cached = { api: undefined }; // absent (or broken): telemetry stays off
    }
  }
  return cached.api;
};
