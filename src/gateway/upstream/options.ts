// What an Upstream is built with, and what its health() reports.

import type { ClientOptions, InputHandlers } from '../../client/index.js';
import type { Implementation } from '../../protocol/index.js';
import type { Logger } from '../../server/index.js';
import type { RestartOptions } from './backoff.js';
import type { CircuitOptions } from './circuit.js';
import type { Environment } from './credentials.js';
import type { Scheduler } from './scheduler.js';

export type UpstreamHealth = {
  name: string;
  /** 'held': never started by the gateway, its server pin not approved (C8; the gateway's status, not an Upstream's). */
  state: 'connecting' | 'ready' | 'backoff' | 'open' | 'closed' | 'held';
  era?: string;
  failures: number;
  restarts: number;
  lastError?: string;
  nextAttemptAt?: string;
  tools: number;
};

export interface UpstreamOptions {
  clientInfo: Implementation;
  logger: Logger;
  /** Answers to the upstream's input requests (elicitation, sampling, roots): the gateway forwards them. */
  handlers: InputHandlers;
  restart?: Partial<RestartOptions>;
  circuit?: Partial<CircuitOptions>;
  /** The clock, in ms since the epoch (default: the scheduler's). */
  clock?: () => number;
  /** Timers for restarts, list time limits, debouncing and the handshake limit (default: real, unref'd). */
  scheduler?: Scheduler;
  /** [0, 1) for the backoff jitter. Default Math.random. */
  random?: () => number;
  /** The gateway's environment: ${ENV} in headers, credential secrets, what a stdio child inherits. */
  env?: Environment;
  /** What a relative stdio `cwd` is resolved against (the config file's directory). Default process.cwd(). */
  baseDir?: string;
  /** Coalescing window of list_changed notifications, in ms. Default 250. */
  debounceMs?: number;
  /** How long the transport start and handshake may take, in ms. Default 30,000. */
  connectTimeoutMs?: number;
  /** Per step of a stdio child's shutdown (stdin closed, then SIGTERM) before SIGKILL, in ms. Default 2,000. */
  closeTimeoutMs?: number;
  /** For HTTP upstreams and their token requests (proxies, tests). Default the global fetch. */
  fetch?: typeof fetch;
  /** Each piece of a stdio upstream's stderr as it arrives. */
  onStderr?: (chunk: string) => void;
  /** More client options (maxListPages, validateOutput, retry, telemetry…); the ones the Upstream sets win. */
  client?: Omit<ClientOptions, 'handlers' | 'logger' | 'timeoutMs' | 'trusted' | 'serverName'>;
}
