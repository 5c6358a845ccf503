// OpenTelemetry for servers (policy middleware): the public face of src/policy/telemetry/.

export { telemetry } from './telemetry.js';
export {
  checkTelemetryOptions,
  type ClientTraceContext,
  type Telemetry,
  type TelemetryOptions,
} from './options.js';
