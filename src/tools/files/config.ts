// The files pack's configuration: `packs.files` in the config file.

import { ConfigReader } from '../config-reader.js';

export interface FilesConfig {
  /** Largest file read_file returns whole, and the most bytes one call returns. Default 1 MiB. */
  maxReadBytes: number;
}

export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;
const MAX_READ_BYTES_LIMIT = 64 * 1024 * 1024;

export function parseFilesConfig(raw: unknown, key: string): FilesConfig {
  const reader = new ConfigReader(raw, key, ['maxReadBytes']);
  return {
    maxReadBytes: reader.integer('maxReadBytes', DEFAULT_MAX_READ_BYTES, 1, MAX_READ_BYTES_LIMIT, 'bytes'),
  };
}
