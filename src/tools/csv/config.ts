// The csv pack's configuration (`packs.csv` in the config file): two size limits, checked at startup.

import { ConfigError } from '../pack.js';

export interface CsvConfig {
  /** Largest file analysed, in bytes. Default 2 GiB. */
  readonly maxFileBytes: number;
  /** Longest record, in characters (a UTF-8 byte count is never smaller, so a record of this many bytes fits). Default 1 MiB. */
  readonly maxRecordBytes: number;
}

export const CSV_DEFAULTS: CsvConfig = { maxFileBytes: 2 * 1024 ** 3, maxRecordBytes: 1024 ** 2 };

/** V8 cannot hold a string much longer than 2**29 characters; a record limit is kept well below. */
const MAX_RECORD_LIMIT = 256 * 1024 ** 2;

const RANGES: Readonly<Record<keyof CsvConfig, readonly [number, number]>> = {
  maxFileBytes: [1, Number.MAX_SAFE_INTEGER],
  maxRecordBytes: [1, MAX_RECORD_LIMIT],
};

const KEYS = Object.keys(RANGES) as (keyof CsvConfig)[]; // the keys of a literal with exactly these keys

const isKey = (key: string): key is keyof CsvConfig => Object.hasOwn(RANGES, key);

const describeValue = (value: unknown): string =>
  value === null
    ? 'null'
    : Array.isArray(value)
      ? 'an array'
      : typeof value === 'string'
        ? JSON.stringify(value)
        : String(value);

export function parseCsvConfig(raw: unknown, key: string): CsvConfig {
  if (raw === undefined) return CSV_DEFAULTS;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(
      `${key} must be an object with the keys ${KEYS.join(', ')} (got ${describeValue(raw)})`,
    );
  }
  const config = { ...CSV_DEFAULTS };
  for (const [name, value] of Object.entries(raw)) {
    if (!isKey(name)) {
      throw new ConfigError(
        `${key}.${name} is not an option of the csv pack; allowed keys: ${KEYS.join(', ')}`,
      );
    }
    const [min, max] = RANGES[name];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw new ConfigError(
        `${key}.${name} must be an integer from ${min} to ${max} (got ${describeValue(value)})`,
      );
    }
    config[name] = value;
  }
  return config;
}
