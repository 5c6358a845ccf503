// The pin store kept in memory: for tests and for a gateway that re-pins on every start (nothing survives it).

import { MAX_PIN_RECORDS, PinError, type PinRecord, type PinStore } from './types.js';

const keyOf = (server: string, tool: string): string => `${server}\0${tool}`;

/** Records are copied in and out, so a caller changing one it holds changes nothing stored. */
export function memoryPinStore(maxRecords: number = MAX_PIN_RECORDS): PinStore {
  const records = new Map<string, PinRecord>();
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
    list: () =>
      [...records.values()]
        .map((record) => structuredClone(record))
        .sort((a, b) => compare(a.server, b.server) || compare(a.tool, b.tool)),
    close: () => records.clear(),
  };
}

/** Code-unit order, the order SQLite's BINARY collation gives: both stores list alike. */
export const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
