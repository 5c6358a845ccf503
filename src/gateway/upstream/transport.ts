// The transport of one connection attempt to an upstream: a stdio child (the program run without a shell, with a
// minimal inherited environment plus its own "env") or the Streamable HTTP client, and a watch on its closing.

import { resolve } from 'node:path';
import type { Transport } from '../../protocol/index.js';
import { HttpClientTransport, createNodeFetch } from '../../transports/http-client/index.js';
import { StdioClientTransport, inheritedEnvironment } from '../../transports/stdio/index.js';
import type { UpstreamConfig } from './config.js';
import type { Environment, UpstreamAuth } from './credentials.js';

/** A stdio upstream's environment: what `toolwire call` passes on too (INHERITED_ENV), plus its own "env". */
export function childEnvironment(config: UpstreamConfig, env: Environment): Record<string, string> {
  return { ...inheritedEnvironment(env), ...(config.env ?? {}) };
}

let shared: typeof fetch | undefined;
/** One keep-alive fetch for every HTTP upstream of the process (its agents pool sockets per origin). */
const sharedFetch = (): typeof fetch => (shared ??= createNodeFetch());

export interface TransportSettings {
  env: Environment;
  /** Relative stdio working directories resolve against this (the config file's directory). */
  baseDir: string;
  /** Per step of a stdio shutdown: after closing stdin, and again after SIGTERM, before SIGKILL. */
  closeTimeoutMs: number;
  onStderr?: (chunk: string) => void;
}

export function createUpstreamTransport(
  config: UpstreamConfig,
  auth: UpstreamAuth,
  settings: TransportSettings,
): Transport {
  if (config.url !== undefined) {
    // node:http with keep-alive unless OAuth brings its own fetch: a gateway call costs an upstream request, and
    // undici's fetch was most of the gateway's CPU per call (createNodeFetch says by how much).
    return new HttpClientTransport(config.url, { headers: auth.headers, fetch: auth.fetch ?? sharedFetch() });
  }
  const transport = new StdioClientTransport({
    command: config.command as string, // checkUpstreamConfig: no url means a command
    args: config.args ?? [],
    env: childEnvironment(config, settings.env),
    cwd: resolve(settings.baseDir, config.cwd ?? '.'),
    stderr: 'capture',
    closeTimeoutMs: settings.closeTimeoutMs,
  });
  if (settings.onStderr !== undefined) transport.onstderr = settings.onStderr;
  return transport;
}

/**
 * Calls `listener` once when the transport closes, whoever set its onclose. The client's channel installs its own
 * onclose when it connects; an accessor keeps that one working and adds ours, without a wrapper transport.
 */
export function watchClose(transport: Transport, listener: () => void): void {
  let installed = transport.onclose;
  let fired = false;
  Object.defineProperty(transport, 'onclose', {
    configurable: true,
    enumerable: true,
    get: () => () => {
      installed?.();
      if (fired) return;
      fired = true;
      listener();
    },
    set: (value: (() => void) | undefined) => {
      installed = value;
    },
  });
}
