// The pin store kept in memory: for tests and for a gateway that re-pins on every start (nothing survives it).

import { MAX_SERVER_RECORDS, type ServerPinRecord, type ServerPinStore } from './server-types.js';
import { MAX_PIN_RECORDS, PinError, type PinRecord, type PinStore } from './types.js';

const keyOf = (server: string, tool: string): string => `${server}\0${tool}`;

/** Records are copied in and out, so a caller changing one it holds changes nothing stored. */
export function memoryPinStore(
  maxRecords: number = MAX_PIN_RECORDS,
  maxServers: number = MAX_SERVER_RECORDS,
): PinStore & ServerPinStore {
  const records = new Map<string, PinRecord>();
  const servers = new Map<string, ServerPinRecord>();
  return {
    get: (server, tool) => {
      const record = records.get(keyOf(server, tool));
      return record === undefined ? undefined : structuredClone(record);
    },
    put: (record) => {
      const key = keyOf(record.server, record.tool);
      if (!records.has(key) && records.size >= maxRecords) {
        throw new PinError('full', `the pin store holds ${maxRecords} tools already; no more are pinned`);
      }
      records.set(key, structuredClone(record));
    },
    count: (server) => {
      let n = 0;
      for (const record of records.values()) if (record.server === server) n += 1;
      return n;
    },
    list: () =>
      [...records.values()]
        .map((record) => structuredClone(record))
        .sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool)),
    getServer: (server) => {
      const record = servers.get(server);
      return record === undefined ? undefined : structuredClone(record);
    },
    putServer: (record) => {
      if (!servers.has(record.server) && servers.size >= maxServers) {
        const oldest = [...servers.values()]
          .filter((known) => known.state === 'removed')
          .sort((a, b) => compare(a.removedAt ?? '', b.removedAt ?? ''))[0];
        if (oldest === undefined) {
          throw new PinError('full', `the pin store holds ${maxServers} servers already; no more are pinned`);
        }
        servers.delete(oldest.server);
      }
      servers.set(record.server, structuredClone(record));
    },
    listServers: () =>
      [...servers.values()]
        .map((record) => structuredClone(record))
        .sort((a, b) => compare(a.server, b.server)),
    empty: () => records.size === 0 && servers.size === 0,
    toolServers: () => [...new Set([...records.values()].map((record) => record.server))].sort(compare),
    close: () => {
      records.clear();
      servers.clear();
    },
  };
}

/** Code-unit order, the order SQLite's BINARY collation gives: both stores list alike. */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
