// The server half of `toolwire pins` (threat C8, SEP-1024 style consent): upstream servers pinned by the gateway,
// what a held one would run (the full command line or URL, secrets only as hashes) and what changed, and approving
// it — printing first exactly what is approved.

import {
  describeLaunch,
  heldWhy,
  ServerPinBook,
  type PinStore,
  type ServerPinRecord,
  type ServerPinStore,
} from '../gateway/pins/index.js';
import { UsageError } from './errors.js';
import { didYouMean } from './suggest.js';
import { terminalLine, terminalText } from './terminal-text.js';

export type FullStore = PinStore & ServerPinStore;

const short = (digest: string): string => (digest === '' ? 'none' : digest.slice(0, 12));

const WHY = {
  new: 'new: never approved',
  changed: 'changed since it was approved',
  're-added': 'removed from the config and added again',
} as const;

/** The table row of a server record: NAME KIND STATE SHA256 FIRST SEEN CHANGED. */
export const serverRow = (record: ServerPinRecord): string[] => [
  terminalLine(record.server),
  'server',
  record.state,
  record.state === 'held'
    ? `${short(record.digest)} → ${short(record.pending?.digest ?? '')}`
    : short(record.digest),
  record.firstSeen,
  record.changedAt ?? record.removedAt ?? '',
];

/** A server record for --json: the definitions carry only hashes of secrets. */
export const serverJson = (record: ServerPinRecord): Record<string, unknown> => ({
  name: record.server,
  kind: 'server',
  server: record.server,
  state: record.state,
  digest: record.digest,
  definition: record.definition,
  firstSeen: record.firstSeen,
  ...(record.changedAt !== undefined && { changedAt: record.changedAt }),
  ...(record.removedAt !== undefined && { removedAt: record.removedAt }),
  ...(record.pending !== undefined && {
    pendingDigest: record.pending.digest,
    pendingDefinition: record.pending.definition,
  }),
});

/** The server record for NAME, or a usage error naming the closest pinned server. */
export function findServer(store: FullStore, file: string, name: string): ServerPinRecord {
  const record = store.getServer(name);
  if (record !== undefined) return record;
  const names = store.listServers().map((known) => known.server);
  throw new UsageError(
    `no pinned server ${JSON.stringify(name.slice(0, 120))} in ${file}${didYouMean(name, names)} ("toolwire pins list" shows them; a tool is named server___tool)`,
  );
}

/** What `pins diff SERVER` prints: the configured definition and the diff, or (stderr) that nothing is held. */
export function serverDiffText(
  store: FullStore,
  record: ServerPinRecord,
): { stdout: string; stderr?: string } {
  const diff = new ServerPinBook(store).diff(record.server);
  if (diff === undefined || record.pending === undefined) {
    return {
      stdout: `${terminalText(`${record.server} (${record.state}):\n${describeLaunch(record.definition)}`)}\n`,
      stderr: `toolwire: ${terminalText(`server ${record.server} is ${record.state === 'removed' ? 'removed from the config' : 'pinned and unchanged'} (sha256 ${short(record.digest)}): nothing held to show`)}\n`,
    };
  }
  return {
    stdout: `${terminalText(`${record.server} is held (${WHY[heldWhy(record)]}); it would run:\n${describeLaunch(record.pending.definition)}\n${diff}`)}\n`,
  };
}

/** `pins approve SERVER`: prints what it approves (the full command or URL), then approves it. */
export function approveServerText(
  store: FullStore,
  record: ServerPinRecord,
  digest: string | undefined,
): string {
  const book = new ServerPinBook(store);
  const approved = book.approve(record.server, digest);
  const why = record.state === 'held' ? WHY[heldWhy(record)] : record.state;
  return `${terminalText(
    `approving server ${approved.server} (${why}), which runs:\n${describeLaunch(approved.definition)}\napproved ${approved.server}: its launch definition sha256 ${short(approved.digest)} is now the pinned one; the gateway starts it at its next start`,
  )}\n`;
}
