// The gateway's upstreams: one Upstream per mcpServers entry, with its lifecycle, circuit, limits and credentials.

export { Upstream } from './upstream.js';
export type { UpstreamHealth, UpstreamOptions } from './options.js';
export { CHANGE_KINDS, type ChangeKind } from './changes.js';
export {
  checkUpstreamConfig,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_LIST_TIMEOUT_MS,
  type UpstreamConfig,
  type UpstreamCredentials,
} from './config.js';
export {
  UpstreamConfigError,
  UpstreamTimeout,
  UpstreamUnavailable,
  type UpstreamConfigErrorCode,
} from './errors.js';
export { expandEnv, upstreamAuth, type Environment, type UpstreamAuth } from './credentials.js';
export { childEnvironment } from './transport.js';
export { INHERITED_ENV } from '../../transports/stdio/index.js';
export { CircuitBreaker, DEFAULT_CIRCUIT, type CircuitOptions, type CircuitState } from './circuit.js';
export { backoffDelay, DEFAULT_RESTART, type RestartOptions } from './backoff.js';
export { realScheduler, type Scheduler } from './scheduler.js';
export { ManualScheduler, type ManualTimer } from './manual-scheduler.js';
