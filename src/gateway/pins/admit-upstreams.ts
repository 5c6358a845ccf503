// The gateway's side of server pins (threat C8): before any upstream starts, each one is admitted or held, the
// servers no longer configured are marked removed, and everything is logged — a server trusted on the first run and
// a held one with its full command line, each supply-chain finding on its own line.

import type { Logger } from '../../server/index.js';
import type { UpstreamConfig } from '../upstream/index.js';
import { admitServer, findingLine } from './admit-server.js';
import { ServerPinBook } from './server-pin-book.js';
import type { ServerPinStore } from './server-types.js';

export interface UpstreamAdmissionOptions {
  /** The config file: relative cwds are pinned resolved against its folder, and hold messages name it. */
  configFile: string;
  baseDir: string;
  /** The gateway's firstUse: 'quarantine' holds even the first run's servers until approved. */
  firstUse?: 'trust' | 'quarantine';
  /** Unpinned fetches (npx pkg, docker run image:tag): warned about (default) or not started. */
  unpinned?: 'warn' | 'deny';
  logger: Logger;
  now?: () => number;
}

/** What the gateway's status shows for an upstream it did not start. */
export interface HeldUpstream {
  name: string;
  state: 'held';
  failures: 0;
  restarts: 0;
  tools: 0;
  lastError: string;
}

/** Admits every upstream of the config (in its order): those to start, and those held, with their status rows. */
export function admitUpstreams(
  store: ServerPinStore,
  upstreams: readonly UpstreamConfig[],
  options: UpstreamAdmissionOptions,
): { start: UpstreamConfig[]; held: HeldUpstream[] } {
  const { logger } = options;
  const book = new ServerPinBook(store, {
    baseDir: options.baseDir,
    firstRun: options.firstUse === 'quarantine' ? 'hold' : 'trust',
    ...(options.now !== undefined && { now: options.now }),
  });
  try {
    for (const name of book.retire(upstreams.map((upstream) => upstream.name))) {
      logger.info(
        `gateway: upstream "${name}" is no longer in the config; if it is added again, it is held until approved`,
      );
    }
  } catch (error) {
    logger.warn(
      `gateway: the servers no longer configured could not be marked removed: ${(error as Error).message}`,
    );
  }
  const start: UpstreamConfig[] = [];
  const held: HeldUpstream[] = [];
  for (const upstream of upstreams) {
    const admission = admitServer(book, upstream, {
      configFile: options.configFile,
      ...(options.unpinned !== undefined && { unpinned: options.unpinned }),
    });
    for (const finding of admission.findings) logger.warn(`gateway: ${findingLine(upstream.name, finding)}`);
    if (admission.start) {
      if (admission.note !== undefined) logger.info(`gateway: ${admission.note}`);
      start.push(upstream);
      continue;
    }
    logger.warn(`gateway: ${admission.reason}`);
    held.push({
      name: upstream.name,
      state: 'held',
      failures: 0,
      restarts: 0,
      tools: 0,
      lastError: (admission.reason.split('\n')[0] ?? '').replace(/:$/, ''),
    });
  }
  return { start, held };
}
