// The files pack's configuration: `packs.files` in the config file.

import { configObject, integerSetting } from './config-checks.js';

export interface FilesConfig {
  /** Largest file read_file returns whole, and the most bytes one call returns. Default 1 MiB. */
  maxReadBytes: number;
}

export const DEFAULT_MAX_READ_BYTES = 1024 * 1024;
const MAX_READ_BYTES_LIMIT = 64 * 1024 * 1024;

export function parseFilesConfig(raw: unknown, key: string): FilesConfig {
  const object = configObject(raw, key, ['maxReadBytes']);
  return {
    maxReadBytes: integerSetting(object, key, 'maxReadBytes', {
      min: 1,
      max: MAX_READ_BYTES_LIMIT,
      fallback: DEFAULT_MAX_READ_BYTES,
      unit: 'bytes',
    }),
  };
}
