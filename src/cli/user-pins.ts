// The pins `toolwire list` and `call` keep (threat C2 on the client side): one SQLite store in the user's toolwire
// config directory, as login's tokens are kept — $XDG_CONFIG_HOME/toolwire/pins.sqlite, else ~/.config/toolwire/…
// A server is known by where it is reached (its URL, or its command line and directory), not by the name it gives.

import { homedir } from 'node:os';
import { join } from 'node:path';
// The client's own files, not its index: list and call over stdio never load the OAuth client.
import { canonicalResource } from '../client/oauth/resource.js';
import type { ToolPins } from '../client/options.js';
import { openPinStore, PinBook, type PinStore } from '../gateway/pins/index.js';
import { shellCommand } from './shell-quote.js';
import type { ResolvedTarget } from './target.js';

/** Far above what one person's servers list; the records first seen longest ago make room beyond it. */
const USER_MAX_RECORDS = 20_000;

export function userPinStorePath(env: NodeJS.ProcessEnv): string {
  const config =
    env.XDG_CONFIG_HOME !== undefined && env.XDG_CONFIG_HOME !== '' ? env.XDG_CONFIG_HOME : undefined;
  return join(config ?? join(env.HOME ?? homedir(), '.config'), 'toolwire', 'pins.sqlite');
}

/** The server part of a pin: the canonical URL, or a command line with the directory it ran in. */
export function pinServerKey(target: Pick<ResolvedTarget, 'url' | 'label'>, cwd: string): string {
  if (target.url !== undefined) {
    try {
      return canonicalResource(target.url);
    } catch {
      return target.url;
    }
  }
  return `${target.label} (in ${cwd})`;
}

export interface UserPins {
  hook: ToolPins;
  close(): void;
}

/**
 * The hook for a client of `target`, or undefined when TOOLWIRE_PINS=off. The store opens at the first check (a
 * command that lists no tools never opens it); an error opening it reaches the client, which warns and goes on.
 */
export function userPins(target: ResolvedTarget, env: NodeJS.ProcessEnv, cwd: string): UserPins | undefined {
  if (env.TOOLWIRE_PINS === 'off') return undefined;
  const path = userPinStorePath(env);
  const server = pinServerKey(target, cwd);
  let store: PinStore | undefined;
  let book: PinBook | undefined;
  return {
    hook: {
      check: (_name, tool) => {
        store ??= openPinStore(path, { maxRecords: USER_MAX_RECORDS, evict: true });
        book ??= new PinBook(store);
        return book.check(server, tool);
      },
      note: (_name, tool) =>
        `toolwire keeps the tools it has seen in ${path}; if the change is expected, accept it with: ` +
        `${shellCommand(['toolwire', 'pins', 'approve', '--user', server, tool])} (TOOLWIRE_PINS=off turns this off)`,
    },
    close: () => store?.close(),
  };
}
