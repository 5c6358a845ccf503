// The csv pack's configuration (`packs.csv` in the config file): size limits and distinct-value bounds, checked at startup.

import { ConfigReader } from '../config-reader.js';
import { ConfigError } from '../pack.js';
import { DEFAULT_DISTINCT_IN_FLIGHT, DEFAULT_DISTINCT_PER_CALL } from './distinct-budget.js';

export interface CsvConfig {
  /** Largest file analysed, in bytes. Default 2 GiB. */
  readonly maxFileBytes: number;
  /** Longest record, in characters (a UTF-8 byte count is never smaller, so a record of this many bytes fits). Default 1 MiB. */
  readonly maxRecordBytes: number;
  /** Distinct values one call keeps across all its columns (and 50 characters each on average). Default 20,000. */
  readonly maxDistinctPerCall: number;
  /** Distinct values all calls in flight keep together (and 50 characters each on average). Default 100,000. */
  readonly maxDistinctInFlight: number;
}

export const CSV_DEFAULTS: CsvConfig = {
  maxFileBytes: 2 * 1024 ** 3,
  maxRecordBytes: 1024 ** 2,
  maxDistinctPerCall: DEFAULT_DISTINCT_PER_CALL,
  maxDistinctInFlight: DEFAULT_DISTINCT_IN_FLIGHT,
};

/** V8 cannot hold a string much longer than 2**29 characters; a record limit is kept well below. */
const MAX_RECORD_LIMIT = 256 * 1024 ** 2;
/** Ten million values of 50 characters is already gigabytes: beyond that is a typo. */
const MAX_DISTINCT_LIMIT = 10_000_000;

const KEYS = ['maxFileBytes', 'maxRecordBytes', 'maxDistinctPerCall', 'maxDistinctInFlight'];

export function parseCsvConfig(raw: unknown, key: string): CsvConfig {
  const reader = new ConfigReader(raw, key, KEYS);
  const config: CsvConfig = {
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
    maxDistinctPerCall: reader.integer(
      'maxDistinctPerCall',
      CSV_DEFAULTS.maxDistinctPerCall,
      1,
      MAX_DISTINCT_LIMIT,
      'values',
    ),
    maxDistinctInFlight: reader.integer(
      'maxDistinctInFlight',
      CSV_DEFAULTS.maxDistinctInFlight,
      1,
      MAX_DISTINCT_LIMIT,
      'values',
    ),
  };
  if (config.maxDistinctInFlight < config.maxDistinctPerCall) {
    throw new ConfigError(
      `${reader.name('maxDistinctInFlight')} (${config.maxDistinctInFlight}) must be at least ${reader.name('maxDistinctPerCall')} (${config.maxDistinctPerCall}): one call alone could never get its own bound`,
    );
  }
  return config;
}
