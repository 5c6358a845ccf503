// The gateway's health view on disk: the running gateway rewrites one JSON file (atomically, mode 0600) with the
// health of each upstream, and `toolwire gateway status` reads it. A file, not an admin endpoint: it works the same
// for a stdio gateway (which has no port), needs no credential of its own, and exposes nothing on the network.

import { mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { replaceFile } from '../replace-file.js';
import type { UpstreamHealth } from './upstream/index.js';

export interface GatewayStatus {
  /** The process that writes the file, to tell a running gateway from one that died without cleaning up. */
  pid: number;
  name: string;
  transport: 'stdio' | 'http';
  url?: string;
  startedAt: string;
  updatedAt: string;
  /** Set when the gateway stopped on purpose. */
  stoppedAt?: string;
  upstreams: UpstreamHealth[];
}

/** How often a running gateway rewrites the file. */
export const STATUS_INTERVAL_MS = 2000;

export function writeStatus(file: string, status: GatewayStatus): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  replaceFile(file, `${JSON.stringify(status, null, 2)}\n`); // readers never see half a file
}

/** Rewrites the file every STATUS_INTERVAL_MS from `current()` until the returned stop. */
export function keepStatus(
  file: string,
  current: () => GatewayStatus,
  onError: (error: Error) => void,
): () => void {
  let failing = false;
  const write = (): void => {
    try {
      writeStatus(file, current());
      failing = false;
    } catch (error) {
      // Said once per run of failures, not every interval: a read-only folder must not flood the log.
      if (!failing) onError(error as Error);
      failing = true;
    }
  };
  write();
  const timer = setInterval(write, STATUS_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** The status file's contents, or undefined when there is none; anything else wrong with it throws, saying what. */
export function readStatus(file: string): GatewayStatus | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const parsed = JSON.parse(text) as Partial<GatewayStatus> | null;
  if (parsed === null || typeof parsed.pid !== 'number' || !Array.isArray(parsed.upstreams))
    throw new Error(`${file} is not a gateway status file`);
  return parsed as GatewayStatus; // the fields read are checked above; the file is our own
}

/** Whether process `pid` still runs (signal 0 checks without sending anything). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // it exists, but belongs to someone else
  }
}
