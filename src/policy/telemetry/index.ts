// OpenTelemetry for servers (policy middleware): the public face of src/policy/telemetry/.

export { telemetry, type Telemetry } from './telemetry.js';
export { checkTelemetryOptions, type TelemetryOptions } from './options.js';
