// The transport of one connection attempt to an upstream: a stdio child (the program run without a shell, with a
// minimal inherited environment plus its own "env") or the Streamable HTTP client, and a watch on its closing.

import { resolve } from 'node:path';
import type { Transport } from '../../protocol/index.js';
import { HttpClientTransport } from '../../transports/http-client/index.js';
import { StdioClientTransport } from '../../transports/stdio/index.js';
import type { UpstreamConfig } from './config.js';
import type { Environment, UpstreamAuth } from './credentials.js';

/**
 * The variables a stdio upstream inherits from the gateway; everything else must be in its "env". The same rule
 * as `toolwire call` (src/cli/target.ts) and Claude Desktop: a configured server does not get every secret of the
 * shell that started the gateway.
 */
export const INHERITED_ENV: readonly string[] = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'TERM',
  'USER',
  'LANG',
  'LC_ALL',
  'TMPDIR',
  'TZ',
  'SYSTEMROOT',
];

export function childEnvironment(config: UpstreamConfig, env: Environment): Record<string, string> {
  const picked: Record<string, string> = {};
  for (const name of INHERITED_ENV) {
    const value = env[name];
    if (value !== undefined) picked[name] = value;
  }
  return { ...picked, ...(config.env ?? {}) };
}

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
    return new HttpClientTransport(config.url, {
      headers: auth.headers,
      ...(auth.fetch !== undefined && { fetch: auth.fetch }),
    });
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
