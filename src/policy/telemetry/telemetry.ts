// telemetry(): OpenTelemetry for a toolwire server as the MCP semantic conventions describe it — a SERVER span per
// request and the mcp.server.operation.duration histogram — or nothing at all without the optional @opentelemetry/api.

import { createTelemetry } from './create.js';
import type { Telemetry, TelemetryOptions } from './options.js';

/** The middleware to install outermost, or `{ enabled: false, middleware: undefined }` when the api is absent. */
export function telemetry(options: TelemetryOptions = {}): Telemetry {
  return createTelemetry(options);
}
