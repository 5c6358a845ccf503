// The csv pack's configuration (`packs.csv` in the config file): two size limits, checked at startup.

import { ConfigReader } from '../config-reader.js';

export interface CsvConfig {
  /** Largest file analysed, in bytes. Default 2 GiB. */
  readonly maxFileBytes: number;
  /** Longest record, in characters (a UTF-8 byte count is never smaller, so a record of this many bytes fits). Default 1 MiB. */
  readonly maxRecordBytes: number;
}

export const CSV_DEFAULTS: CsvConfig = { maxFileBytes: 2 * 1024 ** 3, maxRecordBytes: 1024 ** 2 };

/** V8 cannot hold a string much longer than 2**29 characters; a record limit is kept well below. */
const MAX_RECORD_LIMIT = 256 * 1024 ** 2;

export function parseCsvConfig(raw: unknown, key: string): CsvConfig {
  const reader = new ConfigReader(raw, key, ['maxFileBytes', 'maxRecordBytes']);
  return {
    maxFileBytes: reader.integer(
      'maxFileBytes',
      CSV_DEFAULTS.maxFileBytes,
      1,
      Number.MAX_SAFE_INTEGER,
      'bytes',
    ),
    maxRecordBytes: reader.integer(
      'maxRecordBytes',
      CSV_DEFAULTS.maxRecordBytes,
      1,
      MAX_RECORD_LIMIT,
      'characters',
    ),
  };
}
